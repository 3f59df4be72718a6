// The probe's fast TS SDK checks (src/core/jsonrpc/sdk-fast.ts) answer "accepted" without zod. A verdict is a
// promise: the fast check must accept exactly what zod's safeParse of the SDK's own schema accepts, for every
// schema the checks use, and the checks built on it must give the full checks' verdicts word for word.
import {readFileSync} from 'node:fs';
import * as types from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {
	deriveSdkShapes,
	installedVersions,
	ROOT_SCHEMAS,
	SHAPES_FILE,
	sdkShapesModule,
} from '../../../scripts/gen-sdk-shapes.mjs';
import {
	fastSdkSchemas,
	RESULT_ROOTS,
	ShapeChecker,
	type ShapeNode,
	type ShapeRoots,
} from '../../../src/core/jsonrpc/sdk-fast.js';
import {SDK_SCHEMAS} from '../../../src/core/jsonrpc/sdk-schemas.js';
import {SDK_SHAPE_ROOTS, SDK_SHAPES} from '../../../src/core/jsonrpc/sdk-shapes.js';
import {fieldCaseJsonLines} from '../../fixtures/field-cases/json-lines.js';
import {messageArb, sdkResultArb} from './arbitraries.js';
import {shapeEdgeArb} from './shape-arbitraries.js';

type Schema = {safeParse(value: unknown): {success: boolean}};
const ROOT_NAMES = Object.keys(ROOT_SCHEMAS) as (keyof ShapeRoots)[];
const zodSchema = (root: keyof ShapeRoots): Schema => (types as unknown as Record<string, Schema>)[ROOT_SCHEMAS[root]]!;
const checker = new ShapeChecker(SDK_SHAPES);

/** For every root schema: the fast check and zod agree on `value`; returns how many roots accepted it. */
function expectSameAcceptance(value: unknown): number {
	let accepted = 0;
	for (const root of ROOT_NAMES) {
		const zod = zodSchema(root).safeParse(structuredClone(value)).success;
		const fast = checker.accepts(SDK_SHAPE_ROOTS[root], value);
		if (fast !== zod) throw new Error(`${root}: fast ${fast}, zod ${zod} on ${JSON.stringify(value)}`);
		if (zod) accepted += 1;
	}
	return accepted;
}

const resultOf = (message: unknown): unknown =>
	message !== null && typeof message === 'object' && 'result' in message
		? (message as {result: unknown}).result
		: message;

describe('the SDK schemas as data (src/core/jsonrpc/sdk-shapes.ts)', () => {
	it('are what scripts/gen-sdk-shapes.mjs derives from the installed SDK (run it after an upgrade)', () => {
		const derived = sdkShapesModule(
			deriveSdkShapes(types),
			[...types.SUPPORTED_PROTOCOL_VERSIONS],
			installedVersions(process.cwd()),
		);
		expect(readFileSync(SHAPES_FILE, 'utf8')).toBe(derived);
	});

	it('have no opaque node today: every schema the checks use is read exactly, so a healthy exchange never needs zod', () => {
		expect(SDK_SHAPES.filter((node) => node.t === 'opaque')).toEqual([]);
		expect(SDK_SHAPES.length).toBeGreaterThan(200);
	});
});

describe('ShapeChecker accepts exactly what zod accepts', () => {
	it('on every JSON line of the field cases, as a message and as a result, for all 11 schemas', () => {
		let lines = 0;
		let accepted = 0;
		for (const {message} of fieldCaseJsonLines()) {
			lines += 1;
			accepted += expectSameAcceptance(message);
			accepted += expectSameAcceptance(resultOf(message));
		}
		expect(lines).toBeGreaterThan(100);
		// Both answers occur: lines the schemas accept and lines they reject.
		expect(accepted).toBeGreaterThan(100);
		expect(accepted).toBeLessThan(lines * 2 * ROOT_NAMES.length);
	});

	it('on generated messages and results', () => {
		fc.assert(
			fc.property(messageArb, (message) => void expectSameAcceptance(message)),
			{numRuns: 1000},
		);
		fc.assert(
			fc.property(sdkResultArb, (result) => void expectSameAcceptance(result)),
			{numRuns: 1000},
		);
	});

	for (const root of ROOT_NAMES) {
		it(`on values made from ${ROOT_SCHEMAS[root]}, and the same broken in one place`, () => {
			let accepted = 0;
			let rejected = 0;
			fc.assert(
				fc.property(shapeEdgeArb(SDK_SHAPES, SDK_SHAPE_ROOTS[root]), (value) => {
					const zod = zodSchema(root).safeParse(structuredClone(value)).success;
					expect(checker.accepts(SDK_SHAPE_ROOTS[root], value)).toBe(zod);
					if (zod) accepted += 1;
					else rejected += 1;
				}),
				{numRuns: 400},
			);
			// Both sides of the edge were tried.
			expect(accepted).toBeGreaterThan(20);
			expect(rejected).toBeGreaterThan(20);
		});
	}

	it('follows zod on the edges it names: numbers, absent keys, strict objects, base64, dates, records', () => {
		const id = (value: unknown): boolean => checker.accepts(SDK_SHAPE_ROOTS.message, value);
		const request = (extra: Record<string, unknown>): unknown =>
			JSON.parse(JSON.stringify({jsonrpc: '2.0', id: 1, method: 'x', ...extra}));
		expect(id(request({}))).toBe(true);
		expect(id(request({id: 2 ** 53}))).toBe(false); // z.number().int(): safe integers only
		expect(id(request({id: 1.5}))).toBe(false);
		expect(id(JSON.parse('{"jsonrpc":"2.0","id":1e400,"method":"x"}'))).toBe(false); // Infinity
		expect(id(JSON.parse('{"jsonrpc":"2.0","id":1,"method":"x","__proto__":{}}'))).toBe(false); // strict: an own __proto__ key is unrecognized
		expect(id(JSON.parse('{"jsonrpc":"2.0","id":1,"result":{"__proto__":1}}'))).toBe(true); // loose result: ignored
		expect(id(request({params: null}))).toBe(false);
		const blob = (value: string): unknown => ({contents: [{uri: 'file:///a', blob: value}]});
		expect(checker.accepts(SDK_SHAPE_ROOTS.readResourceResult, blob('aGVsbG8='))).toBe(true);
		expect(checker.accepts(SDK_SHAPE_ROOTS.readResourceResult, blob('not base64!'))).toBe(false);
		const dated = (lastModified: string): unknown => ({
			contents: [{type: 'text', text: 'x', annotations: {lastModified}}],
		});
		expect(
			checker.accepts(SDK_SHAPE_ROOTS.getPromptResult, {
				messages: [
					{role: 'user', content: {type: 'text', text: 'x', annotations: {lastModified: '2025-01-31T23:59:59Z'}}},
				],
			}),
		).toBe(true);
		expect(
			checker.accepts(SDK_SHAPE_ROOTS.getPromptResult, {
				messages: [{role: 'user', content: {type: 'text', text: 'x', annotations: {lastModified: '2025-01-31'}}}],
			}),
		).toBe(false);
		for (const value of [dated('2025-01-31T23:59:59Z'), dated('2025-02-30T00:00:00Z')]) expectSameAcceptance(value);
		expect(
			checker.accepts(SDK_SHAPE_ROOTS.listToolsResult, {
				tools: [{name: 't', inputSchema: {type: 'object', properties: []}}],
			}),
		).toBe(false);
		expect(
			checker.accepts(SDK_SHAPE_ROOTS.listToolsResult, {
				tools: [{name: 't', inputSchema: {type: 'object', properties: {a: {type: 'string'}}}}],
			}),
		).toBe(true);
		expect(
			checker.accepts(SDK_SHAPE_ROOTS.listToolsResult, {
				tools: [{name: 't', inputSchema: {type: 'object', properties: {a: 1}}}],
			}),
		).toBe(false);
		expect(
			checker.accepts(SDK_SHAPE_ROOTS.listToolsResult, {tools: [{name: 't', inputSchema: {type: 'string'}}]}),
		).toBe(false);
	});

	it('never accepts what reaches an opaque node, nor an unknown node id', () => {
		const shapes: ShapeNode[] = [
			{t: 'object', shape: {a: 1}, catchall: 'strip'},
			{t: 'opaque', why: 'test'},
		];
		const own = new ShapeChecker(shapes);
		expect(own.accepts(0, {a: 1})).toBe(false);
		expect(own.accepts(0, {})).toBe(false);
		expect(own.accepts(7, {})).toBe(false);
	});
});

describe('fastSdkSchemas gives the full checks verdicts, and calls them only for what it does not accept', () => {
	const VERSION = '2025-06-18';
	/** Every check of `fast` on `message` equals SDK_SCHEMAS's, for each result method. */
	const expectSameVerdicts = (fast: ReturnType<typeof fastSdkSchemas>, message: unknown): void => {
		expect(fast.message(message)).toEqual(SDK_SCHEMAS.message(message));
		const result = resultOf(message);
		expect(fast.initializeResult(result)).toEqual(SDK_SCHEMAS.initializeResult(result));
		for (const method of [...Object.keys(RESULT_ROOTS), 'initialize', 'x/unknown']) {
			for (const version of [VERSION, '2024-11-05', undefined, '2026-07-28'])
				expect(fast.result(method, version, result)).toEqual(SDK_SCHEMAS.result(method, version, result));
		}
	};

	it('on the field cases and on generated messages and results', () => {
		let calls = 0;
		const fast = fastSdkSchemas(() => {
			calls += 1;
			return SDK_SCHEMAS;
		});
		for (const {message} of fieldCaseJsonLines()) expectSameVerdicts(fast, message);
		fc.assert(
			fc.property(messageArb, (message) => expectSameVerdicts(fast, message)),
			{numRuns: 300},
		);
		fc.assert(
			fc.property(sdkResultArb, (result) => expectSameVerdicts(fast, {jsonrpc: '2.0', id: 1, result})),
			{numRuns: 300},
		);
		expect(calls).toBe(1); // loaded once, on the first value it did not accept
		expect(fast.fullChecks).toBeGreaterThan(100);
	});

	it('does not load the full checks for a healthy exchange (initialize, tools/list, ping)', () => {
		const fast = fastSdkSchemas(() => {
			throw new Error('the full checks were loaded');
		});
		const initialize = {
			protocolVersion: VERSION,
			capabilities: {tools: {listChanged: true}, logging: {}},
			serverInfo: {name: 'demo', version: '1.0.0'},
			instructions: 'hi',
		};
		expect(fast.initializeResult(initialize)).toBeUndefined();
		expect(fast.message({jsonrpc: '2.0', id: 0, result: initialize})).toEqual({accepted: true});
		const tools = {
			tools: [
				{
					name: 'echo',
					description: 'Echo',
					inputSchema: {type: 'object', properties: {text: {type: 'string'}}, required: ['text']},
					annotations: {readOnlyHint: true},
				},
			],
		};
		expect(fast.result('tools/list', VERSION, tools)).toBeUndefined();
		expect(fast.result('ping', VERSION, {})).toBeUndefined();
		expect(fast.message({jsonrpc: '2.0', method: 'notifications/message', params: {level: 'info', data: 'x'}})).toEqual(
			{accepted: true},
		);
		expect(fast.fullChecks).toBe(0);
		// A result the SDK rejects goes to the full checks: here they throw, and the error reaches the caller.
		expect(() => fast.result('ping', VERSION, {extra: 1})).toThrow('the full checks were loaded');
		expect(fast.fullChecks).toBe(1);
	});
});
