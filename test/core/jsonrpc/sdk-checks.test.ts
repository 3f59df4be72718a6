import {describe, expect, it} from 'vitest';
import {classifyMessage} from '../../../src/core/jsonrpc/classify.js';
import {impactForProblems} from '../../../src/core/jsonrpc/impact.js';
import {checkInitializeResult} from '../../../src/core/jsonrpc/lifecycle.js';
import {UNCHECKED_SDK_SCHEMAS} from '../../../src/core/jsonrpc/sdk-checks.js';
import {SDK_SCHEMAS} from '../../../src/core/jsonrpc/sdk-schemas.js';
import {Session} from '../../../src/core/session/session.js';
import type {SessionMeta} from '../../../src/core/types.js';

// The TS SDK's zod checks are injected (docs/performance.md#probe-start-up): with them the verdicts are the SDK's, without them the
// TS rows say "not checked" instead of guessing.
const nullId = {jsonrpc: '2.0', id: null, result: {}};

describe('injected SDK schemas', () => {
	it('the real schemas drop a result with id null; unloaded ones leave the TS rows unknown', () => {
		const problems = classifyMessage(nullId, {direction: 'server-to-client'}).problems;
		const loaded = impactForProblems(problems, nullId, SDK_SCHEMAS).find((i) => i.client === 'ts-sdk-v1');
		expect(loaded?.reaction).toBe('drop-log');
		const unloaded = impactForProblems(problems, nullId, UNCHECKED_SDK_SCHEMAS);
		expect(unloaded.filter((i) => i.client.startsWith('ts-sdk')).map((i) => [i.reaction, i.note])).toEqual([
			['unknown', 'not checked: the TS SDK schemas were not loaded'],
			['unknown', 'not checked: the TS SDK schemas were not loaded'],
		]);
		expect(unloaded.find((i) => i.client === 'python-sdk')?.reaction).toBe('drop-log');
	});

	it('the initialize schema pass runs only with the schemas', () => {
		const result = {
			protocolVersion: '2025-11-25',
			capabilities: {},
			serverInfo: {name: 's', version: '1', icons: [{src: 5}]},
		};
		expect(checkInitializeResult(result, '2025-11-25', SDK_SCHEMAS).map((p) => [p.reason, p.key, p.rule])).toEqual([
			['initialize-result-schema', 'result.serverInfo.icons.0.src', 'C1'],
		]);
		expect(checkInitializeResult(result, '2025-11-25', UNCHECKED_SDK_SCHEMAS)).toEqual([]);
	});

	it('a Session uses the schemas it is given', () => {
		const meta: SessionMeta = {
			tool: {name: 'mcp-wire', version: '0'},
			node: 'v20',
			platform: 'linux-x64',
			command: ['x'],
			envMode: 'sdk-default',
			envKeys: [],
			mode: 'probe',
			startedAt: '2026-01-01T00:00:00.000Z',
		};
		const line = new TextEncoder().encode(`${JSON.stringify(nullId)}\n`);
		const reactions = (session: Session): unknown => {
			session.pushChunk('stdout', 1, line);
			const impact = session.getSnapshot().findings[0]?.detail?.['impact'] as {client: string; reaction: string}[];
			return impact.find((i) => i.client === 'ts-sdk-v1')?.reaction;
		};
		expect(reactions(new Session(meta, {schemas: SDK_SCHEMAS}))).toBe('drop-log');
		expect(reactions(new Session(meta, {schemas: UNCHECKED_SDK_SCHEMAS}))).toBe('unknown');
	});
});
