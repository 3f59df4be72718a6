import type {SdkVerdict} from './problem.js';
import type {SchemaIssue, SdkSchemas} from './sdk-checks.js';
import {SDK_SHAPE_ROOTS, SDK_SHAPES, SDK_SUPPORTED_PROTOCOL_VERSIONS} from './sdk-shapes.js';

// Issue 12 (a probe as fast as a bare client): building the TS SDK's zod schemas and zod itself was the largest
// CPU cost of a probe after node's own start-up (~37 ms of ~234 under load 1–2). A healthy server's messages
// are all accepted, and saying "accepted" needs no zod: the schemas are kept as data (./sdk-shapes.ts, made
// by scripts/gen-sdk-shapes.mjs from the installed SDK) and checked here. Only a value this check does not
// accept goes to zod (the `full` checks), which alone words the issue. This check follows zod 4's parse rule
// by rule (`$ZodObject`, `$ZodRecord`, `$ZodUnion`, `$ZodOptional`, … in zod/v4/core/schemas.js), and
// test/core/jsonrpc/sdk-fast.test.ts compares it with zod on every field-case line and on generated values,
// valid and broken: a verdict never depends on which of the two gave it.

/** How an absent key is treated (zod's `_zod.optin` / `_zod.optout` of the key's schema). */
interface Optionality {
	readonly optin?: 'optional' | 'defaulted';
	readonly optout?: 'optional';
}

/**
 * One check after a type's own: `safeint` (`z.number().int()`), `gt`/`lt` with a bound and whether it is
 * inclusive (`.min()`, `.positive()`, …), `max` elements of an array, `refine` with a named predicate.
 */
export type ShapeCheck =
	| readonly ['safeint']
	| readonly ['gt' | 'lt', number, boolean]
	| readonly ['max', number]
	| readonly ['refine', RefinementName];

/** The refinements (`z.custom(fn)`, `.refine(fn)`) of the SDK that this check implements (see {@link PREDICATES}). */
export type RefinementName = 'object-or-function' | 'base64';

/**
 * One zod schema as data (./sdk-shapes.ts). Node ids are indexes into the same array.
 * - `unknown`: anything; `never`: nothing; `boolean`, `number` (finite), `string` (with `pattern` as
 *   `[source, flags]`: `z.iso.datetime()`): that JavaScript type;
 * - `values`: one of these (`z.literal`, `z.enum`);
 * - `custom`: the named predicate is truthy;
 * - `optional`: absent (undefined) or `inner`; `default`: absent, or `inner`;
 * - `array`: an array of `element`; `record`: a plain object, every own string key's value a `value`;
 * - `union`: any of `options`;
 * - `object`: a non-array object with `shape`'s keys; other keys: `strip` ignored, `strict` rejected, a node
 *   id: each checked against that node;
 * - `opaque`: a schema the generator could not read exactly: never accepted here, so zod decides.
 */
export type ShapeNode = Optionality &
	(
		| {readonly t: 'unknown' | 'never' | 'boolean'}
		| {readonly t: 'number'; readonly checks?: readonly ShapeCheck[]}
		| {readonly t: 'string'; readonly pattern?: readonly [string, string]; readonly checks?: readonly ShapeCheck[]}
		| {readonly t: 'values'; readonly values: readonly (string | number | boolean | null)[]}
		| {readonly t: 'custom'; readonly predicate: RefinementName}
		| {readonly t: 'optional' | 'default'; readonly inner: number}
		| {readonly t: 'array'; readonly element: number; readonly checks?: readonly ShapeCheck[]}
		| {readonly t: 'record'; readonly value: number}
		| {readonly t: 'union'; readonly options: readonly number[]}
		| {
				readonly t: 'object';
				readonly shape: Readonly<Record<string, number>>;
				readonly catchall: 'strip' | 'strict' | number;
		  }
		| {readonly t: 'opaque'; readonly why: string}
	);

/** The schemas the checks use, by name: their node ids in the shapes array. */
export interface ShapeRoots {
	readonly message: number;
	readonly initializeResult: number;
	readonly emptyResult: number;
	readonly listToolsResult: number;
	readonly callToolResult: number;
	readonly listPromptsResult: number;
	readonly getPromptResult: number;
	readonly listResourcesResult: number;
	readonly listResourceTemplatesResult: number;
	readonly readResourceResult: number;
	readonly completeResult: number;
}

/**
 * The SDK's refinements, as it writes them (@modelcontextprotocol/sdk 1.32.2 `types.js`): `AssertObjectSchema`
 * and `Base64Schema`. scripts/gen-sdk-shapes.mjs names a function only when its source text is the one it
 * knows, so a changed function in a later SDK becomes an opaque node, not a wrong predicate.
 */
const PREDICATES: Readonly<Record<RefinementName, (value: unknown) => boolean>> = {
	'object-or-function': (v) => v !== null && (typeof v === 'object' || typeof v === 'function'),
	base64: (v) => {
		try {
			atob(v as string);
			return true;
		} catch {
			return false;
		}
	},
};

/** zod's `util.isObject`: an object, not null, not an array. */
const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** zod's `util.isPlainObject` (what `z.record` requires), rule for rule. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
	if (!isObject(value)) return false;
	const ctor = (value as {constructor?: unknown}).constructor;
	if (ctor === undefined || typeof ctor !== 'function') return true;
	const prototype: unknown = (ctor as {prototype?: unknown}).prototype;
	return isObject(prototype) && Object.prototype.hasOwnProperty.call(prototype, 'isPrototypeOf');
}

/** Whether a value that passed its type passes `checks` (zod runs them in order once the type is right). */
function passesChecks(checks: readonly ShapeCheck[] | undefined, value: unknown): boolean {
	if (checks === undefined) return true;
	for (const check of checks) {
		switch (check[0]) {
			case 'safeint':
				if (!Number.isSafeInteger(value)) return false;
				break;
			case 'gt':
				if (!(check[2] ? (value as number) >= check[1] : (value as number) > check[1])) return false;
				break;
			case 'lt':
				if (!(check[2] ? (value as number) <= check[1] : (value as number) < check[1])) return false;
				break;
			case 'max':
				if ((value as readonly unknown[]).length > check[1]) return false;
				break;
			case 'refine':
				if (!PREDICATES[check[1]](value)) return false;
				break;
		}
	}
	return true;
}

/**
 * Accept-only checks over one array of shapes: `accepts(id, value)` is true exactly when zod's
 * `safeParse(value).success` is for the schema of node `id`. Values are JSON values (what `JSON.parse`
 * returns); patterns are compiled on first use.
 */
export class ShapeChecker {
	private readonly patterns = new Map<number, RegExp>();

	constructor(private readonly shapes: readonly ShapeNode[]) {}

	/** zod's parse of node `id` on `value` ends with no issue. Never throws (an unknown id is not accepted). */
	accepts(id: number, value: unknown): boolean {
		const node = this.shapes[id];
		if (node === undefined) return false;
		switch (node.t) {
			case 'unknown':
				return true;
			case 'never':
			case 'opaque':
				return false;
			case 'boolean':
				return typeof value === 'boolean';
			case 'number':
				return typeof value === 'number' && Number.isFinite(value) && passesChecks(node.checks, value);
			case 'string':
				if (typeof value !== 'string') return false;
				if (node.pattern !== undefined && !this.pattern(id, node.pattern).test(value)) return false;
				return passesChecks(node.checks, value);
			case 'values':
				return node.values.includes(value as string);
			case 'custom':
				return PREDICATES[node.predicate](value);
			case 'optional':
				// $ZodOptional: undefined passes unless the inner schema substitutes a value for it (a default).
				if (value === undefined && this.shapes[node.inner]?.optin !== 'defaulted') return true;
				return this.accepts(node.inner, value);
			case 'default':
				return value === undefined || this.accepts(node.inner, value);
			case 'array':
				if (!Array.isArray(value)) return false;
				for (const element of value) if (!this.accepts(node.element, element)) return false;
				return passesChecks(node.checks, value);
			case 'union':
				for (const option of node.options) if (this.accepts(option, value)) return true;
				return false;
			case 'record':
				return this.record(node.value, value);
			case 'object':
				return this.object(node.shape, node.catchall, value);
		}
	}

	/** $ZodRecord with a `z.string()` key: every own enumerable key but `__proto__` is a string whose value passes. */
	private record(valueId: number, value: unknown): boolean {
		if (!isPlainObject(value)) return false;
		for (const key of Reflect.ownKeys(value)) {
			if (key === '__proto__' || !Object.prototype.propertyIsEnumerable.call(value, key)) continue;
			if (typeof key !== 'string' || !this.accepts(valueId, value[key])) return false;
		}
		return true;
	}

	/** $ZodObject: each shape key (zod's handlePropertyResult), then the other keys by the catchall. */
	private object(
		shape: Readonly<Record<string, number>>,
		catchall: 'strip' | 'strict' | number,
		value: unknown,
	): boolean {
		if (!isObject(value)) return false;
		for (const key in shape) {
			const id = shape[key]!;
			if (!this.property(id, key in value, value[key])) return false;
		}
		if (catchall === 'strip') return true;
		for (const key in value) {
			if (Object.prototype.hasOwnProperty.call(shape, key)) continue;
			if (catchall === 'strict') return false;
			if (key === '__proto__') continue;
			if (!this.accepts(catchall, value[key])) return false;
		}
		return true;
	}

	/**
	 * zod's `handlePropertyResult` for one key of an object: a key that is present must pass; an absent key
	 * passes when its schema passes undefined and admits absence (`optin`), or fails on undefined but is
	 * optional both ways (`optin` and `optout`).
	 */
	private property(id: number, present: boolean, value: unknown): boolean {
		const node = this.shapes[id];
		if (node === undefined) return false;
		if (this.accepts(id, value)) return present || node.optin !== undefined;
		return !present && node.optin !== undefined && node.optout === 'optional';
	}

	private pattern(id: number, [source, flags]: readonly [string, string]): RegExp {
		let pattern = this.patterns.get(id);
		if (pattern === undefined) {
			pattern = new RegExp(source, flags);
			this.patterns.set(id, pattern);
		}
		pattern.lastIndex = 0;
		return pattern;
	}
}

/**
 * Which result schema the TS SDK v1 `Client` (1.32.2) parses each method's result with: the same table as
 * `RESULT_SCHEMAS` in ./sdk-schemas.ts, by root name.
 */
export const RESULT_ROOTS: Readonly<Record<string, keyof ShapeRoots>> = Object.freeze({
	ping: 'emptyResult',
	'tools/list': 'listToolsResult',
	'tools/call': 'callToolResult',
	'prompts/list': 'listPromptsResult',
	'prompts/get': 'getPromptResult',
	'resources/list': 'listResourcesResult',
	'resources/templates/list': 'listResourceTemplatesResult',
	'resources/read': 'readResourceResult',
	'resources/subscribe': 'emptyResult',
	'resources/unsubscribe': 'emptyResult',
	'logging/setLevel': 'emptyResult',
	'completion/complete': 'completeResult',
});

const ACCEPTED: SdkVerdict = Object.freeze({accepted: true as const});

/** The TS SDK's checks with a fast path: {@link SdkSchemas}, and how many values went to zod. */
export interface FastSdkSchemas extends SdkSchemas {
	/** Values the fast check did not accept, so that `full` (zod) checked them; 0 for a healthy exchange. */
	readonly fullChecks: number;
}

/**
 * The TS SDK's checks (`SDK_SCHEMAS` of ./sdk-schemas.ts, C1) answered without zod whenever the value is
 * accepted: a value the shapes accept gets the verdict zod gives it (accepted); any other goes to `full()`,
 * called then (synchronously) and only then, which loads zod and words the issue. The verdicts are the
 * full checks' verdicts (test/core/jsonrpc/sdk-fast.test.ts). `full` may throw (its module missing): the
 * error reaches the caller of the check.
 */
export function fastSdkSchemas(
	full: () => SdkSchemas,
	shapes: readonly ShapeNode[] = SDK_SHAPES,
	roots: ShapeRoots = SDK_SHAPE_ROOTS,
): FastSdkSchemas {
	const checker = new ShapeChecker(shapes);
	let loaded: SdkSchemas | undefined;
	let fullChecks = 0;
	const fallback = (): SdkSchemas => {
		fullChecks += 1;
		loaded ??= full();
		return loaded;
	};
	return {
		message: (message: unknown): SdkVerdict | undefined =>
			checker.accepts(roots.message, message) ? ACCEPTED : fallback().message(message),
		initializeResult: (result: unknown) =>
			checker.accepts(roots.initializeResult, result) ? undefined : fallback().initializeResult(result),
		result: (
			method: string,
			protocolVersion: string | undefined,
			result: unknown,
		): readonly SchemaIssue[] | undefined => {
			const root = RESULT_ROOTS[method];
			if (
				root === undefined ||
				protocolVersion === undefined ||
				!SDK_SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion)
			)
				return undefined;
			return checker.accepts(roots[root], result) ? undefined : fallback().result(method, protocolVersion, result);
		},
		loaded: true,
		get fullChecks() {
			return fullChecks;
		},
	};
}
