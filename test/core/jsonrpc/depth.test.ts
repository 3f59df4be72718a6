import {describe, expect, it} from 'vitest';
import {cutNesting, MAX_JSON_DEPTH, NESTING_PLACEHOLDER, nestsDeeperThan} from '../../../src/core/jsonrpc/depth.js';
import {Session} from '../../../src/core/session/session.js';
import {makeMeta} from '../../helpers/factories.js';

const nest = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);

describe('JSON nesting limit', () => {
	it('201 levels are fine, 202 are too deep (where the Python SDK stops), scalars are 0', () => {
		expect(MAX_JSON_DEPTH).toBe(201);
		expect(nestsDeeperThan(nest(201))).toBe(false);
		expect(nestsDeeperThan(nest(202))).toBe(true);
		expect(nestsDeeperThan(nest(100_000))).toBe(true);
		expect(nestsDeeperThan('x')).toBe(false);
		expect(nestsDeeperThan({a: {b: [1, {c: null}]}}, 4)).toBe(false);
		expect(nestsDeeperThan({a: {b: [1, {c: {}}]}}, 4)).toBe(true);
	});

	it('cutNesting keeps the top levels and replaces what is deeper by the placeholder', () => {
		expect(cutNesting({a: {b: [1, {c: {d: 2}}]}, e: 'x'}, 3)).toEqual({a: {b: [1, NESTING_PLACEHOLDER]}, e: 'x'});
		const cut = cutNesting(JSON.parse('{"__proto__": {"x": [[1]]}}'), 2) as Record<string, unknown>;
		expect(Object.keys(cut)).toEqual(['__proto__']);
		expect(nestsDeeperThan(cutNesting(nest(50_000)))).toBe(false);
	});

	it('a session frames a 5,000-deep response as the response it is, with an invalid-jsonrpc nesting finding over the whole frame', () => {
		const session = new Session(makeMeta());
		const init =
			'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}\n';
		const reply = `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"d","version":"1"},"x":${'['.repeat(5000)}${']'.repeat(5000)}}}\n`;
		session.pushChunk('stdin', 0, new TextEncoder().encode(init));
		session.pushChunk('stdout', 1, new TextEncoder().encode(reply));
		const snapshot = session.getSnapshot();
		const frame = snapshot.frames.find((f) => f.stream === 'stdout')!;
		expect([frame.kind, frame.id, frame.answers?.method, frame.byteLength]).toEqual([
			'response',
			0,
			'initialize',
			reply.length,
		]);
		expect(nestsDeeperThan(frame.message)).toBe(false);
		const findings = snapshot.findings
			.filter((f) => f.stream === 'stdout')
			.map((f) => [f.code, f.offset, f.byteLength, f.detail?.['reason'], f.severity]);
		expect(findings).toEqual([['invalid-jsonrpc', 0, reply.length, 'nesting', 'error']]);
	});
});
