/**
 * fast-check arbitraries made from the TS SDK's schemas as data (src/core/jsonrpc/sdk-shapes.ts): values a
 * schema accepts, built node by node (optional keys left out at random, extra keys where the object allows
 * them), and the same values broken in one place (a key removed, a value of another type, an extra key,
 * `__proto__` among them). Both pass through JSON, as a frame's `message` does. For comparing the fast
 * checks with zod where it is hardest: near the edge of what a schema accepts.
 */
import fc from 'fast-check';
import type {ShapeCheck, ShapeNode} from '../../../src/core/jsonrpc/sdk-fast.js';
import {jsonValue} from './arbitraries.js';

const DATETIMES = [
	'2025-01-31T23:59:59Z',
	'2024-02-29T00:00:00.5+05:30',
	'2025-06-18T12:00:00-08:00',
	'2025-13-01T00:00:00Z',
	'2025-01-01',
	'2025-01-01T00:00:00',
	'2023-02-29T00:00:00Z',
];
const BASE64 = ['', 'aGVsbG8=', 'aGVsbG8', 'YQ==', 'not base64!', 'a', '====', 'aGV sbG8='];

function numberArb(checks: readonly ShapeCheck[] | undefined): fc.Arbitrary<number> {
	let min = -1e6;
	let max = 1e6;
	let integer = false;
	for (const check of checks ?? []) {
		if (check[0] === 'safeint') integer = true;
		if (check[0] === 'gt') min = check[1];
		if (check[0] === 'lt') max = check[1];
	}
	const edges = fc.constantFrom(min, max, 0, -0, 1, -1, 0.5, 2 ** 53, -(2 ** 53), 2 ** 53 - 1, 1e21);
	const inRange = integer
		? fc.integer({min: Math.ceil(Math.max(min, -1e9)), max: Math.floor(Math.min(max, 1e9))})
		: fc.double({min, max, noNaN: true, noDefaultInfinity: true});
	return fc.oneof({weight: 4, arbitrary: inRange}, {weight: 1, arbitrary: edges});
}

/** A value for node `id` that is mostly accepted (the leaves keep their edges: a bound, a bad base64, a date). */
export function shapeValueArb(shapes: readonly ShapeNode[], id: number, depth = 0): fc.Arbitrary<unknown> {
	const node = shapes[id];
	if (node === undefined || depth > 12) return fc.constant(null);
	const sub = (child: number): fc.Arbitrary<unknown> => shapeValueArb(shapes, child, depth + 1);
	switch (node.t) {
		case 'unknown':
		case 'never':
		case 'opaque':
			return jsonValue;
		case 'boolean':
			return fc.boolean();
		case 'number':
			return numberArb(node.checks);
		case 'string':
			if (node.pattern !== undefined) return fc.constantFrom(...DATETIMES);
			if (node.checks?.some((check) => check[0] === 'refine'))
				return fc.oneof(fc.base64String({maxLength: 12}), fc.constantFrom(...BASE64));
			return fc.string({maxLength: 5});
		case 'values':
			return fc.constantFrom(...node.values);
		case 'custom':
			return fc.oneof(fc.constant({}), fc.dictionary(fc.string({maxLength: 3}), jsonValue, {maxKeys: 2}), jsonValue);
		case 'optional':
		case 'default':
			return sub(node.inner);
		case 'array':
			return fc.array(sub(node.element), {maxLength: 2});
		case 'record':
			return fc.dictionary(fc.oneof(fc.string({maxLength: 4}), fc.constant('__proto__')), sub(node.value), {
				maxKeys: 2,
			});
		case 'union':
			return fc.oneof(...node.options.map(sub));
		case 'object': {
			const keys = Object.keys(node.shape);
			const entries = keys.map((key) => {
				const child = shapes[node.shape[key]!];
				const absent = child?.optin !== undefined ? 3 : 1;
				return fc.oneof(
					{weight: 6, arbitrary: sub(node.shape[key]!).map((value) => [key, value] as const)},
					{weight: absent, arbitrary: fc.constant(undefined)},
				);
			});
			const extras =
				node.catchall === 'strict'
					? fc.constant([])
					: fc.array(fc.tuple(fc.constantFrom('x', 'extra', '_meta2'), jsonValue), {maxLength: 1});
			return fc.tuple(fc.tuple(...entries), extras).map(([present, extra]) => {
				const object: Record<string, unknown> = {};
				for (const entry of present) if (entry !== undefined) object[entry[0]] = entry[1];
				for (const [key, value] of extra) object[key] = value;
				return object;
			});
		}
	}
}

/** Every path to a value inside `value` (the value itself is `[]`). */
function paths(
	value: unknown,
	prefix: (string | number)[] = [],
	out: (string | number)[][] = [],
): (string | number)[][] {
	out.push(prefix);
	if (Array.isArray(value)) value.forEach((item, i) => paths(item, [...prefix, i], out));
	else if (value !== null && typeof value === 'object')
		for (const key of Object.keys(value)) paths((value as Record<string, unknown>)[key], [...prefix, key], out);
	return out;
}

type Mutation =
	| {readonly kind: 'replace'; readonly with: unknown}
	| {readonly kind: 'delete'}
	| {readonly kind: 'add'; readonly key: string; readonly with: unknown};
const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
	{weight: 3, arbitrary: jsonValue.map((value) => ({kind: 'replace' as const, with: value}))},
	{weight: 2, arbitrary: fc.constant({kind: 'delete' as const})},
	{
		weight: 2,
		arbitrary: fc
			.tuple(fc.constantFrom('__proto__', 'extra', 'type', 'name', 'constructor', 'toString'), jsonValue)
			.map(([key, value]) => ({kind: 'add' as const, key, with: value})),
	},
);

/** `value` with one mutation at the path chosen by `pick` (JSON copy; `__proto__` added as an own key, as JSON.parse makes it). */
function mutate(value: unknown, pick: number, mutation: Mutation): unknown {
	const copy = JSON.parse(JSON.stringify(value)) as unknown;
	const all = paths(copy);
	const path = all[pick % all.length]!;
	if (path.length === 0) return mutation.kind === 'replace' ? mutation.with : copy;
	let parent = copy as Record<string | number, unknown>;
	for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
	const last = path[path.length - 1]!;
	if (mutation.kind === 'replace') parent[last] = mutation.with;
	else if (mutation.kind === 'delete') {
		if (Array.isArray(parent)) parent.splice(last as number, 1);
		else delete parent[last];
	} else {
		const target = parent[last];
		if (target !== null && typeof target === 'object' && !Array.isArray(target))
			Object.defineProperty(target, mutation.key, {
				value: mutation.with,
				enumerable: true,
				writable: true,
				configurable: true,
			});
		else parent[last] = mutation.with;
	}
	return copy;
}

/** Values for node `id`: as made ({@link shapeValueArb}) or broken in one place; each a JSON value. */
export function shapeEdgeArb(shapes: readonly ShapeNode[], id: number): fc.Arbitrary<unknown> {
	const made = shapeValueArb(shapes, id);
	return fc
		.oneof(
			{weight: 1, arbitrary: made},
			{
				weight: 2,
				arbitrary: fc
					.tuple(made, fc.nat(), mutationArb)
					.map(([value, pick, mutation]) => mutate(value, pick, mutation)),
			},
		)
		.map((value) => (value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown)));
}
