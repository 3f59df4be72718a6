import {describe, expect, it} from 'vitest';
import {SDK_SCHEMAS} from '../../../../src/core/jsonrpc/sdk-schemas.js';
import {UNCHECKED_SDK_SCHEMAS} from '../../../../src/core/jsonrpc/sdk-checks.js';
import {bytesOf, codesAt, findingsOf, INIT, INITIALIZED, run} from '../exchange.js';

describe('invalid-initialize (R8)', () => {
	it('reports a result without serverInfo at the initialize response', () => {
		const reply = {jsonrpc: '2.0', id: 0, result: {protocolVersion: '2025-11-25', capabilities: {}}};
		const session = run([
			['stdin', 0, INIT],
			['stdout', 10, reply],
			['stdin', 11, INITIALIZED],
			['close', 20],
			['exit', 21],
		]);
		expect(codesAt(session)).toEqual(['invalid-initialize@stdout:0']);
		expect(findingsOf(session, 'invalid-initialize')[0]).toMatchObject({
			severity: 'error',
			byteLength: bytesOf(reply).length,
			frameIndex: 1,
			detail: {missing: 'result.serverInfo', problems: ['missing-server-info']},
			message: 'the initialize result lacks result.serverInfo',
		});
	});

	it("reports what only the TS SDK's InitializeResultSchema rejects, when the schemas are loaded", () => {
		const reply = {
			jsonrpc: '2.0',
			id: 0,
			result: {
				protocolVersion: '2025-11-25',
				capabilities: {},
				serverInfo: {name: 's', version: '1', icons: [{src: 5}]},
			},
		};
		const steps = [
			['stdin', 0, INIT],
			['stdout', 10, reply],
			['stdin', 11, INITIALIZED],
			['close', 20],
			['exit', 21],
		] as const;
		const checked = run(steps, {schemas: SDK_SCHEMAS});
		expect(codesAt(checked)).toEqual(['invalid-initialize@stdout:0']);
		expect(findingsOf(checked, 'invalid-initialize')[0]!.detail).toEqual({
			missing: 'result.serverInfo.icons.0.src',
			problems: ['initialize-result-schema'],
			messages: [expect.stringMatching(/^the TS SDK rejects the initialize result: serverInfo\.icons\.0\.src: /)],
		});
		expect(codesAt(run(steps, {schemas: UNCHECKED_SDK_SCHEMAS}))).toEqual([]);
	});

	it('says what is there: capabilities.tools is an array, not "lacks"', () => {
		const reply = {
			jsonrpc: '2.0',
			id: 0,
			result: {protocolVersion: '2025-11-25', capabilities: {tools: []}, serverInfo: {name: 's', version: '1'}},
		};
		const found = findingsOf(
			run([
				['stdin', 0, INIT],
				['stdout', 10, reply],
				['stdin', 11, INITIALIZED],
			]),
			'invalid-initialize',
		);
		expect(found.map((f) => [f.offset, f.byteLength, f.severity, f.message, f.hint])).toEqual([
			[
				0,
				bytesOf(reply).length,
				'error',
				'the initialize result is invalid: capabilities.tools is an array where an object is required (`"tools": {}` declares it)',
				'Declare each capability as an object: `"tools": {}` (or `{"listChanged": true}`), never an array, `true` or a list of names.',
			],
		]);
	});

	it('"_meta": null, which only the TS schema rejects: the Python SDK and rmcp connect (measured)', () => {
		// The bytes of a Python server that wrote `"_meta": None` into its initialize result. Real clients: TS SDK
		// 1.32/2.4 time out; mcp 2.3 and Codex 0.171 connect and list tools. Before: Python "fails", rmcp unknown.
		const reply =
			'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"meta-null","version":"1"},"_meta":null}}\n';
		const session = run(
			[
				['stdin', 0, INIT],
				['stdout', 10, reply],
				['stdin', 11, INITIALIZED],
				['close', 20],
				['exit', 21],
			],
			{schemas: SDK_SCHEMAS},
		);
		const [finding] = findingsOf(session, 'invalid-initialize');
		expect([
			finding!.offset,
			finding!.byteLength,
			finding!.detail?.['problems'],
			finding!.detail?.['metaNull'],
		]).toEqual([0, reply.length, ['initialize-result-schema'], true]);
		expect(finding!.impact.map((i) => `${i.client}:${i.reaction}`)).toEqual([
			'ts-sdk-v1:fatal',
			'ts-sdk-v2:fatal',
			'python-sdk:ok',
			'vscode:unknown',
			'rmcp:ok',
			'cursor:unknown',
		]);
		const outcome = Object.fromEntries(
			session.getSnapshot().summary.clients!.map((c) => [c.client, [c.outcome, c.connects]]),
		);
		expect(outcome).toMatchObject({
			'ts-sdk-v1': ['fails', false],
			'python-sdk': ['works', true],
			rmcp: ['works', true],
		});
	});

	it.each([
		['"instructions": null', '"instructions":null', ['instructions-not-string']],
		[
			'"prompts": null and "logging": null',
			'"capabilities":{"tools":{},"prompts":null,"logging":null}',
			['capability-not-object', 'capability-not-object'],
		],
	])(
		'%s, an optional member the Python SDK and rmcp read as absent: both connect (measured)',
		(_, member, problems) => {
			// The bytes of a Python server that dumps its model without exclude_none. Real clients: TS SDK 1.x and
			// 2.4 fail connect (zod); mcp 2.3 and Codex 0.171 connect and list tools. Before: both "fail".
			const base = '"protocolVersion":"2025-11-25","serverInfo":{"name":"s","version":"1"}';
			const body = member.startsWith('"capabilities"')
				? `${base},${member}`
				: `${base},"capabilities":{"tools":{}},${member}`;
			const reply = `{"jsonrpc":"2.0","id":0,"result":{${body}}}\n`;
			const session = run(
				[
					['stdin', 0, INIT],
					['stdout', 10, reply],
					['stdin', 11, INITIALIZED],
					['close', 20],
					['exit', 21],
				],
				{schemas: SDK_SCHEMAS},
			);
			const [finding] = findingsOf(session, 'invalid-initialize');
			expect([
				finding!.offset,
				finding!.byteLength,
				finding!.detail?.['problems'],
				finding!.detail?.['nullOptional'],
			]).toEqual([0, reply.length, problems, true]);
			expect(finding!.hint).toBe(
				"Leave an optional member out instead of writing `null`: the TS SDK's schema rejects `null` there (pydantic: `model_dump(exclude_none=True)`).",
			);
			expect(finding!.impact.map((i) => `${i.client}:${i.reaction}`)).toEqual([
				'ts-sdk-v1:fatal',
				'ts-sdk-v2:fatal',
				'python-sdk:ok',
				'vscode:unknown',
				'rmcp:ok',
				'cursor:unknown',
			]);
			const outcome = Object.fromEntries(
				session.getSnapshot().summary.clients!.map((c) => [c.client, [c.outcome, c.connects]]),
			);
			expect(outcome).toMatchObject({
				'ts-sdk-v1': ['fails', false],
				'python-sdk': ['works', true],
				rmcp: ['works', true],
			});
		},
	);

	it('a null at a required member, or a capability that is an array, stays a failure for the Python SDK', () => {
		const nullInfo =
			'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":null}}\n';
		const arrayCap =
			'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":[]},"serverInfo":{"name":"s","version":"1"}}}\n';
		for (const reply of [nullInfo, arrayCap]) {
			const session = run(
				[
					['stdin', 0, INIT],
					['stdout', 10, reply],
					['close', 20],
					['exit', 21],
				],
				{schemas: SDK_SCHEMAS},
			);
			const [finding] = findingsOf(session, 'invalid-initialize');
			expect(finding!.detail?.['nullOptional']).toBeUndefined();
			expect(finding!.impact.find((i) => i.client === 'python-sdk')?.reaction).toBe('fatal');
		}
	});
});
