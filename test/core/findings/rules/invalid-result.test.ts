import {describe, expect, it} from 'vitest';
import {SDK_SCHEMAS} from '../../../../src/core/jsonrpc/sdk-schemas.js';
import {UNCHECKED_SDK_SCHEMAS} from '../../../../src/core/jsonrpc/sdk-checks.js';
import {bytesOf, codesAt, findingsOf, handshake, lengthOn, request, result, run, type Step} from '../exchange.js';

const schemas = SDK_SCHEMAS;

describe('invalid-result (R12), judged by the TS SDK 1.32.2 result schemas', () => {
	it("reports a tools/list result whose tool lacks inputSchema, with the validator's path and message", () => {
		const steps: Step[] = [...handshake(), ['stdin', 12, request(1, 'tools/list')]];
		const at = lengthOn('stdout', steps);
		const reply = result(1, {tools: [{name: 'echo', description: 'Echo the text'}]});
		const session = run([...steps, ['stdout', 13, reply], ['close', 20], ['exit', 21]], {schemas});
		expect(codesAt(session)).toEqual([`invalid-result@stdout:${at}`]);
		expect(findingsOf(session, 'invalid-result')[0]).toMatchObject({
			severity: 'error',
			byteLength: bytesOf(reply).length,
			frameIndex: 4,
			tMs: 13,
			detail: {
				method: 'tools/list',
				path: 'tools.0.inputSchema',
				message: 'Invalid input: expected object, received undefined',
				issues: [{path: 'tools.0.inputSchema', message: 'Invalid input: expected object, received undefined'}],
				protocolVersion: '2025-11-25',
			},
			message:
				'the tools/list result does not match the MCP schema: `tools.0.inputSchema`: Invalid input: expected object, received undefined; the TS SDK client rejects the whole result',
			rules: ['R12'],
		});
		expect(session.getSnapshot().summary.verdict).toBe('fail');
	});

	it('an inputSchema without "type": the SDK clients fail tools/list, Codex (rmcp) lists the tool (measured)', () => {
		// The tools/list reply of a Python server that left "type" out of its inputSchema. Real clients: TS SDK
		// 1.32/2.4 and mcp 2.3 fail tools/list; Codex 0.171 lists the tool. Before: rmcp "not established".
		const steps: Step[] = [...handshake(), ['stdin', 12, request(1, 'tools/list')]];
		const reply =
			'{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","description":"Echo","inputSchema":{"properties":{"text":{"type":"string"}}}}]}}\n';
		const session = run([...steps, ['stdout', 13, reply], ['close', 20], ['exit', 21]], {schemas});
		const [finding] = findingsOf(session, 'invalid-result');
		expect([finding!.offset, finding!.byteLength, finding!.detail?.['path'], finding!.detail?.['found']]).toEqual([
			lengthOn('stdout', steps),
			reply.length,
			'tools.0.inputSchema.type',
			undefined,
		]);
		expect(finding!.impact.map((i) => `${i.client}:${i.reaction}`)).toEqual([
			'ts-sdk-v1:drop-log',
			'ts-sdk-v2:drop-log',
			'python-sdk:drop-log',
			'vscode:unknown',
			'rmcp:ok',
			'cursor:unknown',
		]);
		expect(session.getSnapshot().summary.clients!.find((c) => c.client === 'rmcp')).toMatchObject({
			outcome: 'works',
			toolsListed: true,
		});
		// A "type" that is there but wrong is not what Codex was run on.
		const wrong = reply.replace('"inputSchema":{', '"inputSchema":{"type":"array",');
		const other = findingsOf(
			run([...steps, ['stdout', 13, wrong], ['close', 20], ['exit', 21]], {schemas}),
			'invalid-result',
		);
		expect(other[0]!.impact.find((i) => i.client === 'rmcp')?.reaction).toBe('unknown');
	});

	it("null at optional members (nextCursor, a tool's title, annotations, outputSchema): the Python SDK and rmcp list the tools (measured)", () => {
		// The tools/list reply of a Python server that dumps its models without exclude_none, three tools. Real
		// clients: TS SDK 1.32/2.4 fail tools/list (zod); mcp 2.3 and Codex 0.171 list the tools. Before: both "fail".
		const steps: Step[] = [...handshake(), ['stdin', 12, request(1, 'tools/list')]];
		const tool = (name: string) => ({
			name,
			title: null,
			description: 'Echo',
			inputSchema: {type: 'object'},
			outputSchema: null,
			annotations: null,
		});
		const reply = `${JSON.stringify({jsonrpc: '2.0', id: 1, result: {tools: [tool('a'), tool('b'), tool('c')], nextCursor: null}})}\n`;
		const session = run([...steps, ['stdout', 13, reply], ['close', 20], ['exit', 21]], {schemas});
		const [finding] = findingsOf(session, 'invalid-result');
		expect([
			finding!.offset,
			finding!.detail?.['nullOptional'],
			(finding!.detail?.['issues'] as unknown[]).length,
		]).toEqual([lengthOn('stdout', steps), true, 5]);
		expect(finding!.hint).toBe(
			"Leave an optional member out instead of writing `null`: the TS SDK's schema rejects `null` there (pydantic: `model_dump(exclude_none=True)`).",
		);
		expect(finding!.impact.map((i) => `${i.client}:${i.reaction}`)).toEqual([
			'ts-sdk-v1:drop-log',
			'ts-sdk-v2:drop-log',
			'python-sdk:ok',
			'vscode:unknown',
			'rmcp:ok',
			'cursor:unknown',
		]);
		const outcome = Object.fromEntries(
			session.getSnapshot().summary.clients!.map((c) => [c.client, [c.outcome, c.toolsListed]]),
		);
		expect(outcome).toMatchObject({
			'ts-sdk-v1': ['fails', false],
			'python-sdk': ['works', true],
			rmcp: ['works', true],
		});
		// A null past the issues kept where Python needs a value (the last tool's inputSchema) is not read as absent.
		const broken = reply.replace(
			/"inputSchema":\{"type":"object"\},"outputSchema":null,"annotations":null\}\]/,
			'"inputSchema":null}]',
		);
		expect(broken).not.toBe(reply);
		const other = findingsOf(
			run([...steps, ['stdout', 13, broken], ['close', 20], ['exit', 21]], {schemas}),
			'invalid-result',
		);
		expect(other[0]!.detail?.['nullOptional']).toBeUndefined();
		expect(other[0]!.impact.find((i) => i.client === 'python-sdk')?.reaction).toBe('drop-log');
	});

	it('reports tools that is not an array, an unknown content type, and a ping result that is not empty', () => {
		const steps: Step[] = [
			...handshake(),
			['stdin', 12, request(1, 'tools/list')],
			['stdout', 13, result(1, {tools: {echo: {}}})],
			['stdin', 14, request(2, 'tools/call', {name: 'echo', arguments: {}})],
			['stdout', 15, result(2, {content: [{type: 'html', text: '<b>hi</b>'}]})],
			['stdin', 16, request(3, 'ping')],
			['stdout', 17, result(3, {status: 'ok'})],
			['close', 20],
			['exit', 21],
		];
		const found = findingsOf(run(steps, {schemas}), 'invalid-result').map((f) => [
			f.detail?.['method'],
			f.detail?.['path'],
			f.detail?.['message'],
			f.detail?.['itemType'],
		]);
		expect(found).toEqual([
			['tools/list', 'tools', 'Invalid input: expected array, received object', undefined],
			['tools/call', 'content.0', 'Invalid input', 'html'],
			['ping', '', 'Unrecognized key: "status"', undefined],
		]);
	});

	it('reports a tools/call result without content: the TS SDK defaults it, the Python SDK rejects it (verdict fail)', () => {
		const steps: Step[] = [
			...handshake(),
			['stdin', 12, request(1, 'tools/list')],
			['stdout', 13, result(1, {tools: [{name: 'temp', inputSchema: {type: 'object'}}]})],
			['stdin', 14, request(2, 'tools/call', {name: 'temp', arguments: {}})],
		];
		const at = lengthOn('stdout', steps);
		const reply = result(2, {structuredContent: {temp: 21}});
		const session = run([...steps, ['stdout', 15, reply], ['close', 20], ['exit', 21]], {schemas});
		expect(codesAt(session)).toEqual([`invalid-result@stdout:${at}`]);
		const [finding] = findingsOf(session, 'invalid-result');
		expect(finding).toMatchObject({
			severity: 'error',
			byteLength: bytesOf(reply).length,
			detail: {method: 'tools/call', path: 'content', reason: 'no-content'},
			message:
				'the tools/call result does not match the MCP schema: `content`: Required; the Python SDK client rejects it (the TS SDK defaults `content` to [])',
		});
		expect(finding!.impact.map((i) => `${i.client}:${i.reaction}`)).toEqual([
			'ts-sdk-v1:ok',
			'ts-sdk-v2:unknown',
			'python-sdk:drop-log',
			'vscode:unknown',
			'rmcp:unknown',
			'cursor:unknown',
		]);
		const outcomes = session.getSnapshot().summary.clients!;
		expect(outcomes.find((o) => o.client === 'python-sdk')?.note).toMatch(
			/^connects and lists tools \(1 tool\); tools\/call fails: /,
		);
		expect(outcomes.find((o) => o.client === 'ts-sdk-v1')?.outcome).toBe('works');
		expect(session.getSnapshot().summary.verdict).toBe('fail');
	});

	it("accepts valid results, and judges nothing without schemas, for initialize, or outside the SDK's revisions", () => {
		const valid: Step[] = [
			...handshake(),
			['stdin', 12, request(1, 'tools/list')],
			['stdout', 13, result(1, {tools: [{name: 'echo', inputSchema: {type: 'object'}}], nextCursor: 'x'})],
			['stdin', 14, request(2, 'ping')],
			['stdout', 15, result(2)],
			['close', 20],
			['exit', 21],
		];
		expect(codesAt(run(valid, {schemas}))).toEqual([]);
		const bad: Step[] = [
			...handshake(),
			['stdin', 12, request(1, 'tools/list')],
			['stdout', 13, result(1, {tools: 'none'})],
			['close', 20],
			['exit', 21],
		];
		expect(codesAt(run(bad, {schemas: UNCHECKED_SDK_SCHEMAS}))).toEqual([]);
		// An unknown revision is protocol-version's business; its result schemas are not known.
		const unknownRevision = run(
			[
				['stdin', 0, handshake()[0]![2]],
				[
					'stdout',
					10,
					{
						jsonrpc: '2.0',
						id: 0,
						result: {protocolVersion: '2099-01-01', capabilities: {}, serverInfo: {name: 's', version: '1'}},
					},
				],
				['stdin', 12, request(1, 'tools/list')],
				['stdout', 13, result(1, {tools: 'none'})],
				['close', 20],
				['exit', 21],
			],
			{schemas},
		);
		expect(codesAt(unknownRevision).map((c) => c.split('@')[0])).toEqual(['protocol-version']);
	});
});

describe('invalid-result: the words name the member at fault', () => {
	it('an outputSchema of type array: says what is there, and the hint is about outputSchema', () => {
		const steps: Step[] = [
			...handshake(),
			['stdin', 12, request(1, 'tools/list')],
			[
				'stdout',
				13,
				result(1, {
					tools: [{name: 'a', inputSchema: {type: 'object'}, outputSchema: {type: 'array', items: {type: 'string'}}}],
				}),
			],
		];
		const [finding] = findingsOf(run(steps, {schemas: SDK_SCHEMAS}), 'invalid-result');
		expect(finding!.message).toBe(
			'the tools/list result does not match the MCP schema: `tools.0.outputSchema.type`: Invalid input: expected "object" (it is "array"); the TS SDK client rejects the whole result',
		);
		expect(finding!.hint).toMatch(/^Make `tools\.0\.outputSchema` an object schema/);
		expect(finding!.hint).not.toContain('inputSchema');
	});
});
