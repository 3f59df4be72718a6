import {isPlainObject} from './classify.js';

/**
 * Arguments for a `tools/call` (or a prompt's `arguments`) that the user did not give, generated from the
 * tool's `inputSchema`: the smallest instance the schema plainly accepts, so that a call exercises the
 * handler without inventing data. Per schema node, first of: `const`; `default`; `examples[0]`; `enum[0]`;
 * the first `anyOf`/`oneOf` branch; `allOf` merged; a local `$ref` (`#/$defs/…`, `#/definitions/…`);
 * else by `type` (the first listed): an object with its `required` properties only (more when
 * `minProperties` asks), an array of `minItems` items, `""` (or `minLength` × `a`, or a sample of a known
 * `format`), the smallest number inside `minimum`/`maximum`/`multipleOf` (0 when allowed), `false`, `null`.
 *
 * No library is used: openapi-sampler 1.7 fills strings with the word `"string"` and gave `{}` for
 * `anyOf: [{type: null}, {type: string}]`, which the schema rejects. test/core/jsonrpc/tool-arguments.test.ts
 * checks with Ajv (a property test over generated schemas) that what this returns validates.
 *
 * Pure; never throws. Keywords it cannot satisfy by construction (`pattern`, `not`, `uniqueItems` with
 * several items, `if`/`then`, `dependentRequired`, remote `$ref`) are listed in `unsure`, as JSON Pointers
 * into the instance ('' for the instance itself), so the arguments can be shown as a guess.
 */
export interface SampledInstance {
	/** The generated instance (`{}` for an object schema with nothing required). */
	readonly value: unknown;
	/** Where the instance may still be rejected, and by which keyword: `/city: pattern`. */
	readonly unsure: readonly string[];
}

/** How deep `$ref`s and nested schemas are followed before the node is filled with `null`. */
const MAX_DEPTH = 24;

/** Samples of the `format`s servers use most, each valid for its format (RFC 3339, RFC 5322, RFC 3986, RFC 4122). */
const FORMAT_SAMPLES: Readonly<Record<string, string>> = {
	'date-time': '1970-01-01T00:00:00Z',
	date: '1970-01-01',
	time: '00:00:00Z',
	email: 'user@example.com',
	uri: 'https://example.com',
	'uri-reference': 'https://example.com',
	url: 'https://example.com',
	uuid: '00000000-0000-0000-0000-000000000000',
	hostname: 'example.com',
	ipv4: '127.0.0.1',
	ipv6: '::1',
	duration: 'P0D',
};

const TYPE_ORDER = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'] as const;

interface Walk {
	readonly root: unknown;
	readonly unsure: string[];
}

/**
 * The smallest instance `schema` plainly accepts ({@link SampledInstance}). Input: a JSON Schema (draft-07 or
 * 2020-12; a boolean schema too). A `false` schema, or one with nothing to go on, gives `null`.
 */
export function sampleInstance(schema: unknown): SampledInstance {
	const walk: Walk = {root: schema, unsure: []};
	const value = sample(schema, '', 0, walk);
	return {value, unsure: walk.unsure};
}

/**
 * The `arguments` of a `tools/call` from a tool's `inputSchema`: {@link sampleInstance}, always an object
 * (MCP: `arguments` is an object; a schema that is not one gives `{}`).
 */
export function toolArguments(inputSchema: unknown): SampledInstance {
	const sampled = sampleInstance(inputSchema);
	return isPlainObject(sampled.value) ? sampled : {value: {}, unsure: sampled.unsure};
}

function sample(schema: unknown, at: string, depth: number, walk: Walk): unknown {
	if (!isPlainObject(schema) || depth > MAX_DEPTH) return null;
	for (const keyword of ['pattern', 'not', 'if', 'dependentRequired', 'dependentSchemas', 'contains'])
		if (schema[keyword] !== undefined) walk.unsure.push(`${at}: ${keyword}`);
	if ('const' in schema) return schema['const'];
	if ('default' in schema) return schema['default'];
	if (Array.isArray(schema['examples']) && schema['examples'].length > 0) return schema['examples'][0];
	if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return schema['enum'][0];
	const ref = schema['$ref'];
	if (typeof ref === 'string') {
		const target = resolveRef(walk.root, ref);
		if (target === undefined) walk.unsure.push(`${at}: $ref ${ref}`);
		else return sample(mergeSchemas([target, withoutKeys(schema, ['$ref'])]), at, depth + 1, walk);
	}
	if (Array.isArray(schema['allOf']) && schema['allOf'].length > 0)
		return sample(
			mergeSchemas([withoutKeys(schema, ['allOf']), ...(schema['allOf'] as unknown[])]),
			at,
			depth + 1,
			walk,
		);
	for (const union of ['anyOf', 'oneOf']) {
		const branches = schema[union];
		if (Array.isArray(branches) && branches.length > 0)
			return sample(mergeSchemas([withoutKeys(schema, [union]), branches[0]]), at, depth + 1, walk);
	}
	switch (typeOf(schema)) {
		case 'object':
			return sampleObject(schema, at, depth, walk);
		case 'array':
			return sampleArray(schema, at, depth, walk);
		case 'string':
			return sampleString(schema);
		case 'number':
			return sampleNumber(schema, false);
		case 'integer':
			return sampleNumber(schema, true);
		case 'boolean':
			return false;
		default:
			return null;
	}
}

/** The type to build: the first of `type` (in {@link TYPE_ORDER} when several), else what the keywords imply. */
function typeOf(schema: Record<string, unknown>): string | undefined {
	const type = schema['type'];
	if (typeof type === 'string') return type;
	if (Array.isArray(type)) return TYPE_ORDER.find((t) => type.includes(t));
	if (isPlainObject(schema['properties']) || Array.isArray(schema['required'])) return 'object';
	if (schema['items'] !== undefined || schema['prefixItems'] !== undefined) return 'array';
	if (typeof schema['minLength'] === 'number' || typeof schema['format'] === 'string') return 'string';
	if (typeof schema['minimum'] === 'number' || typeof schema['maximum'] === 'number') return 'number';
	return undefined;
}

function sampleObject(schema: Record<string, unknown>, at: string, depth: number, walk: Walk): Record<string, unknown> {
	const properties = isPlainObject(schema['properties']) ? schema['properties'] : {};
	const names = Array.isArray(schema['required'])
		? (schema['required'] as unknown[]).filter((n): n is string => typeof n === 'string')
		: [];
	const minProperties = typeof schema['minProperties'] === 'number' ? schema['minProperties'] : 0;
	for (const name of Object.keys(properties)) {
		if (names.length >= minProperties) break;
		if (!names.includes(name)) names.push(name);
	}
	const out: Record<string, unknown> = {};
	for (const name of names) {
		const path = `${at}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
		const sub = name in properties ? properties[name] : additionalSchema(schema);
		out[name] = sample(sub, path, depth + 1, walk);
	}
	if (names.length < minProperties) walk.unsure.push(`${at}: minProperties`);
	return out;
}

/** The schema of a property not named in `properties`: `additionalProperties` when it is one, else anything. */
const additionalSchema = (schema: Record<string, unknown>): unknown =>
	isPlainObject(schema['additionalProperties']) ? schema['additionalProperties'] : {};

function sampleArray(schema: Record<string, unknown>, at: string, depth: number, walk: Walk): unknown[] {
	const minItems = typeof schema['minItems'] === 'number' ? Math.max(0, Math.ceil(schema['minItems'])) : 0;
	const prefix = Array.isArray(schema['prefixItems'])
		? (schema['prefixItems'] as unknown[])
		: Array.isArray(schema['items'])
			? (schema['items'] as unknown[]) // draft-07 tuple form
			: [];
	const rest = Array.isArray(schema['items']) ? schema['additionalItems'] : schema['items'];
	if (schema['uniqueItems'] === true && minItems > 1) walk.unsure.push(`${at}: uniqueItems`);
	const out: unknown[] = [];
	for (let i = 0; i < minItems; i++)
		out.push(sample(i < prefix.length ? prefix[i] : rest, `${at}/${i}`, depth + 1, walk));
	return out;
}

function sampleString(schema: Record<string, unknown>): string {
	const format = typeof schema['format'] === 'string' ? FORMAT_SAMPLES[schema['format']] : undefined;
	const min = typeof schema['minLength'] === 'number' ? Math.max(0, Math.ceil(schema['minLength'])) : 0;
	const max = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : Infinity;
	if (format !== undefined && format.length >= min && format.length <= max) return format;
	return 'a'.repeat(min);
}

/** The number nearest 0 inside the bounds (draft-04 boolean `exclusiveMinimum` too), on `multipleOf`. */
function sampleNumber(schema: Record<string, unknown>, integer: boolean): number {
	const num = (key: string): number | undefined => {
		const value = schema[key];
		return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
	};
	const multipleOf = num('multipleOf');
	const step = multipleOf !== undefined && multipleOf > 0 ? multipleOf : integer ? 1 : 0;
	// Each bound as [value, exclusive]: 2020-12 numbers, or draft-04 `minimum` + `exclusiveMinimum: true`.
	const bound = (
		plain: string,
		exclusive: string,
		pick: (a: number, b: number) => number,
	): [number, boolean] | undefined => {
		const inclusive = num(plain);
		const strict = num(exclusive) ?? (schema[exclusive] === true ? inclusive : undefined);
		if (strict !== undefined && (inclusive === undefined || pick(strict, inclusive) === strict || strict === inclusive))
			return [strict, true];
		return inclusive === undefined ? undefined : [inclusive, false];
	};
	const low = bound('minimum', 'exclusiveMinimum', Math.max);
	const high = bound('maximum', 'exclusiveMaximum', Math.min);
	const fits = (n: number): boolean =>
		(low === undefined || n > low[0] || (n === low[0] && !low[1])) &&
		(high === undefined || n < high[0] || (n === high[0] && !high[1]));
	if (fits(0)) return 0;
	let value: number;
	if (low !== undefined && low[0] >= 0) {
		// Only positive numbers: the smallest one at or above the lower bound.
		if (step > 0) {
			value = Math.ceil(low[0] / step) * step;
			if (!fits(value)) value += step;
		} else value = !low[1] ? low[0] : high === undefined ? low[0] + 1 : (low[0] + high[0]) / 2;
	} else if (high !== undefined) {
		// Only negative numbers: the largest one at or below the upper bound.
		if (step > 0) {
			value = Math.floor(high[0] / step) * step;
			if (!fits(value)) value -= step;
		} else value = !high[1] ? high[0] : low === undefined ? high[0] - 1 : (low[0] + high[0]) / 2;
	} else value = 0;
	return value === 0 ? 0 : value; // never -0
}

/** The schema a local `$ref` points at (`#`, `#/$defs/x`, `#/definitions/x`, any JSON Pointer into the root). */
function resolveRef(root: unknown, ref: string): unknown {
	if (!ref.startsWith('#')) return undefined;
	let at: unknown = root;
	for (const raw of ref.slice(1).split('/').slice(1)) {
		const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
		if (!isPlainObject(at) || !(key in at)) return undefined;
		at = at[key];
	}
	return at;
}

function withoutKeys(schema: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(schema)) if (!keys.includes(key)) out[key] = value;
	return out;
}

/**
 * One schema with the keywords of all (`allOf`, or a branch with its parent's keywords): `properties`
 * merged, `required` joined, the first of every other keyword kept, `type` narrowed to the types all allow.
 */
function mergeSchemas(schemas: readonly unknown[]): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const schema of schemas) {
		if (!isPlainObject(schema)) continue;
		for (const [key, value] of Object.entries(schema)) {
			if (key === 'properties' && isPlainObject(value)) {
				const merged: Record<string, unknown> = isPlainObject(out['properties']) ? {...out['properties']} : {};
				for (const [name, sub] of Object.entries(value))
					merged[name] = name in merged ? {allOf: [merged[name], sub]} : sub;
				out['properties'] = merged;
			} else if (key === 'required' && Array.isArray(value)) {
				out['required'] = [...new Set([...((out['required'] as unknown[]) ?? []), ...value])];
			} else if (key === 'type' && out['type'] !== undefined) {
				const mine = Array.isArray(out['type']) ? out['type'] : [out['type']];
				const theirs = Array.isArray(value) ? value : [value];
				const both = mine.filter((t) => theirs.includes(t) || (t === 'integer' && theirs.includes('number')));
				const widened = theirs.filter((t) => t === 'integer' && mine.includes('number'));
				out['type'] = [...new Set([...both, ...widened])];
			} else if (!(key in out)) out[key] = value;
		}
	}
	return out;
}
