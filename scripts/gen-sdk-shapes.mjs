#!/usr/bin/env node
// Writes src/core/jsonrpc/sdk-shapes.ts: the TS SDK's zod schemas that the probe's checks use, as plain data
// (issue 12: a healthy probe never loads zod). Run after upgrading @modelcontextprotocol/sdk or zod:
//
//   node scripts/gen-sdk-shapes.mjs
//
// test/core/jsonrpc/sdk-fast.test.ts fails while the file differs from what this script derives from the
// installed SDK, and compares the fast checks (src/core/jsonrpc/sdk-fast.ts) with zod's parse on field cases
// and generated values.
//
// What is derived: each schema reachable from the roots below becomes one node, shared schemas once. Only
// what decides acceptance is kept: the type, its parts, zod's `optin`/`optout` (how an absent key is
// treated), and the checks. Anything this script does not know exactly (another zod type, a check it cannot
// name, a refinement whose source it has not seen, an exclusive or discriminated union) becomes an `opaque`
// node: the fast check never accepts a value that reaches one, so zod decides. An upgrade can slow the fast
// path down, never change a verdict.
import {readFileSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {dirname, join, sep} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';

/** The schemas `src/core/jsonrpc/sdk-schemas.ts` checks with, by the names the fast checks use. */
export const ROOT_SCHEMAS = Object.freeze({
	message: 'JSONRPCMessageSchema',
	initializeResult: 'InitializeResultSchema',
	emptyResult: 'EmptyResultSchema',
	listToolsResult: 'ListToolsResultSchema',
	callToolResult: 'CallToolResultSchema',
	listPromptsResult: 'ListPromptsResultSchema',
	getPromptResult: 'GetPromptResultSchema',
	listResourcesResult: 'ListResourcesResultSchema',
	listResourceTemplatesResult: 'ListResourceTemplatesResultSchema',
	readResourceResult: 'ReadResourceResultSchema',
	completeResult: 'CompleteResultSchema',
});

/**
 * Refinements (`z.custom(fn)`, `.refine(fn)`) whose function the fast checks implement, by the function's
 * source text with white space removed. src/core/jsonrpc/sdk-fast.ts has the same predicate under each name.
 */
const KNOWN_PREDICATES = Object.freeze({
	"(v)=>v!==null&&(typeofv==='object'||typeofv==='function')": 'object-or-function',
	'val=>{try{//atobthrowsaDOMExceptionifthestringcontainscharacters//thatarenotpartoftheBase64characterset.atob(val);returntrue;}catch{returnfalse;}}':
		'base64',
});

/** zod string formats that are checked by their pattern alone (`z.iso.datetime()`, `z.iso.date()`, `z.iso.time()`). */
const PATTERN_FORMATS = Object.freeze(['datetime', 'date', 'time']);

const squeeze = (text) => text.replace(/\s+/g, '');

/** The parts of one check the fast checks implement, or undefined when it is not one of them. */
function checkOf(type, check) {
	const def = check._zod.def;
	if (def.when !== undefined && def.check !== 'max_length') return undefined;
	if (type === 'number' && def.check === 'number_format' && def.format === 'safeint') return ['safeint'];
	if (type === 'number' && (def.check === 'greater_than' || def.check === 'less_than') && typeof def.value === 'number')
		return [def.check === 'greater_than' ? 'gt' : 'lt', def.value, def.inclusive === true];
	if (type === 'array' && def.check === 'max_length' && typeof def.maximum === 'number') return ['max', def.maximum];
	if (type === 'string' && def.check === 'custom' && typeof def.fn === 'function') {
		const name = KNOWN_PREDICATES[squeeze(def.fn.toString())];
		return name === undefined ? undefined : ['refine', name];
	}
	return undefined;
}

/** Every key of `def` is one of `allowed` (a def with more than this script reads is opaque). */
const only = (def, allowed) => Object.keys(def).every((key) => allowed.includes(key));

/**
 * Derive the nodes from the SDK's types module (`import * as types from '@modelcontextprotocol/sdk/types.js'`).
 * Returns `{nodes, roots}`: `nodes[i]` is a plain object (`t` its type), `roots` maps each ROOT_SCHEMAS name
 * to its node's index.
 */
export function deriveSdkShapes(types) {
	const ids = new Map();
	const nodes = [];
	const visit = (schema) => {
		const known = ids.get(schema);
		if (known !== undefined) return known;
		const id = nodes.length;
		ids.set(schema, id);
		nodes.push(undefined);
		nodes[id] = describe(schema);
		const {optin, optout} = schema._zod;
		if (optin !== undefined) nodes[id].optin = optin;
		if (optout !== undefined) nodes[id].optout = optout;
		return id;
	};
	const opaque = (why) => ({t: 'opaque', why});
	const describe = (schema) => {
		const def = schema._zod.def;
		const checks = [];
		for (const check of def.checks ?? []) {
			const known = checkOf(def.type, check);
			if (known === undefined) return opaque(`${def.type} with a ${check._zod.def.check} check`);
			checks.push(known);
		}
		const withChecks = (node) => (checks.length > 0 ? {...node, checks} : node);
		switch (def.type) {
			case 'unknown':
			case 'any':
			case 'never':
			case 'boolean':
				return only(def, ['type', 'checks']) && checks.length === 0
					? {t: def.type === 'any' ? 'unknown' : def.type}
					: opaque(`${def.type} def`);
			case 'string':
				if (def.coerce === true) return opaque('string def');
				if (only(def, ['type', 'checks', 'coerce'])) return withChecks({t: 'string'});
				// z.iso.datetime() and its kin: a string whose check is its own pattern (zod's $ZodCheckStringFormat)
				if (
					def.check === 'string_format' &&
					PATTERN_FORMATS.includes(def.format) &&
					def.pattern instanceof RegExp &&
					only(def, ['type', 'checks', 'coerce', 'check', 'format', 'pattern', 'offset', 'local', 'precision'])
				) {
					return withChecks({t: 'string', pattern: [def.pattern.source, def.pattern.flags]});
				}
				return opaque(`string def (${def.format ?? 'no format'})`);
			case 'number':
				return only(def, ['type', 'checks', 'coerce']) && def.coerce !== true
					? withChecks({t: 'number'})
					: opaque('number def');
			case 'literal':
			case 'enum': {
				const values = [...schema._zod.values];
				if (checks.length > 0 || !values.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v)))
					return opaque(`${def.type} values`);
				return {t: 'values', values};
			}
			case 'custom': {
				const name = typeof def.fn === 'function' ? KNOWN_PREDICATES[squeeze(def.fn.toString())] : undefined;
				return name !== undefined && checks.length === 0
					? {t: 'custom', predicate: name}
					: opaque('custom function not known');
			}
			case 'optional':
			case 'default':
				return only(def, ['type', 'innerType', 'defaultValue', 'checks']) && checks.length === 0
					? {t: def.type, inner: visit(def.innerType)}
					: opaque(`${def.type} def`);
			case 'array':
				return only(def, ['type', 'element', 'checks'])
					? withChecks({t: 'array', element: visit(def.element)})
					: opaque('array def');
			case 'union':
				if (!only(def, ['type', 'options', 'checks']) || checks.length > 0)
					return opaque('union def (exclusive, discriminated or checked)');
				return {t: 'union', options: def.options.map(visit)};
			case 'record': {
				const key = def.keyType._zod.def;
				if (
					!only(def, ['type', 'keyType', 'valueType', 'checks']) ||
					checks.length > 0 ||
					key.type !== 'string' ||
					(key.checks ?? []).length > 0 ||
					key.coerce === true
				)
					return opaque('record def');
				return {t: 'record', value: visit(def.valueType)};
			}
			case 'object': {
				if (!only(def, ['type', 'shape', 'catchall', 'checks']) || checks.length > 0) return opaque('object def');
				const keys = Object.keys(def.shape);
				if (keys.includes('__proto__') || Object.getOwnPropertySymbols(def.shape).length > 0)
					return opaque('object shape keys');
				const shape = {};
				for (const key of keys) shape[key] = visit(def.shape[key]);
				const catchall =
					def.catchall === undefined
						? 'strip'
						: def.catchall._zod.def.type === 'never'
							? 'strict'
							: visit(def.catchall);
				return {t: 'object', shape, catchall};
			}
			default:
				return opaque(`zod type ${def.type}`);
		}
	};
	const roots = {};
	for (const [name, exported] of Object.entries(ROOT_SCHEMAS)) {
		if (types[exported] === undefined) throw new Error(`@modelcontextprotocol/sdk/types.js exports no ${exported}`);
		roots[name] = visit(types[exported]);
	}
	return {nodes, roots};
}

/** The TypeScript module text for `shapes` ({@link deriveSdkShapes}) and the SDK's supported protocol versions. */
export function sdkShapesModule(shapes, supportedVersions, versions) {
	const lines = [
		`// Generated by scripts/gen-sdk-shapes.mjs from @modelcontextprotocol/sdk ${versions.sdk} (zod ${versions.zod}): do not edit.`,
		'// The TS SDK schemas the probe checks with, as data for src/core/jsonrpc/sdk-fast.ts (read it for the format).',
		"import type {ShapeNode, ShapeRoots} from './sdk-fast.js';",
		'',
		'/** `SUPPORTED_PROTOCOL_VERSIONS` of the SDK the nodes come from. */',
		`export const SDK_SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = ${JSON.stringify(supportedVersions)};`,
		'',
		'/** Index of each checked schema in {@link SDK_SHAPES}. */',
		`export const SDK_SHAPE_ROOTS: ShapeRoots = ${JSON.stringify(shapes.roots)};`,
		'',
		'/** The schemas, one node each (shared schemas once): what zod accepts, and nothing else. */',
		'export const SDK_SHAPES: readonly ShapeNode[] = [',
		...shapes.nodes.map((node, i) => `\t${JSON.stringify(node)}, // ${i}`),
		'];',
		'',
	];
	return lines.join('\n');
}

/** The versions of the installed SDK and zod (the module's header names them). */
export function installedVersions(root) {
	const require = createRequire(join(root, 'package.json'));
	// The SDK's exports map `./*` into dist/: its package.json is read from beside dist/.
	const sdkTypes = require.resolve('@modelcontextprotocol/sdk/types.js');
	const sdk = JSON.parse(
		readFileSync(join(sdkTypes.slice(0, sdkTypes.lastIndexOf(`${sep}dist${sep}`)), 'package.json'), 'utf8'),
	);
	return {sdk: sdk.version, zod: require('zod/package.json').version};
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SHAPES_FILE = join(root, 'src', 'core', 'jsonrpc', 'sdk-shapes.ts');

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
	const types = await import('@modelcontextprotocol/sdk/types.js');
	const shapes = deriveSdkShapes(types);
	writeFileSync(SHAPES_FILE, sdkShapesModule(shapes, [...types.SUPPORTED_PROTOCOL_VERSIONS], installedVersions(root)));
	const opaque = shapes.nodes.filter((node) => node.t === 'opaque');
	process.stdout.write(
		`${SHAPES_FILE}: ${shapes.nodes.length} nodes, ${opaque.length} opaque${opaque.length > 0 ? ` (${[...new Set(opaque.map((node) => node.why))].join('; ')})` : ''}\n`,
	);
}
