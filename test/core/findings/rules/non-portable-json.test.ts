import {describe, expect, it} from 'vitest';
import {factTester} from '../fact-tester.js';
import {portabilityProblems} from '../../../../src/core/framing/portability.js';
import {enc, INIT, INIT_OK, INITIALIZED, LIST, run} from '../harness.js';

const PREFIX = INIT_OK.length; // ASCII: bytes = chars

function reply(text: string): string {
	return `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"${text}"}]}}\n`;
}

function stdoutFindings(body: string) {
	const session = run([
		['stdin', 0, INIT],
		['stdout', 5, INIT_OK],
		['stdin', 6, INITIALIZED + LIST(1)],
		['stdout', 10, body],
	]);
	return session.getSnapshot().findings.filter((f) => f.code === 'non-portable-json');
}

describe('non-portable-json (R3, J1): JSON.parse accepts it, strict parsers do not', () => {
	it('lone-surrogate: a high escape without its low half, at the escape byte, error, Python drops the line', () => {
		const body = reply('cut \\ud83d');
		const [finding, ...rest] = stdoutFindings(body);
		expect(rest).toEqual([]);
		expect(finding).toMatchObject({
			code: 'non-portable-json',
			severity: 'error',
			stream: 'stdout',
			offset: PREFIX + body.indexOf('\\ud83d'),
			byteLength: 6,
			detail: {reason: 'lone-surrogate', token: '\\ud83d'},
		});
		expect(finding!.impact.find((i) => i.client === 'python-sdk')?.reaction).toBe('drop-log');
		expect(finding!.impact.find((i) => i.client === 'ts-sdk-v1')?.reaction).toBe('ok');
	});

	it('a lone low escape is reported; a whole pair is not; multi-byte text before it counts in bytes', () => {
		const body = reply('é \\udc00 and \\ud83d\\ude00');
		const [finding, ...rest] = stdoutFindings(body);
		expect(rest).toEqual([]);
		const at = enc(body.slice(0, body.indexOf('\\udc00'))).length;
		expect(finding).toMatchObject({offset: PREFIX + at, detail: {reason: 'lone-surrogate', token: '\\udc00'}});
		expect(stdoutFindings(reply('ok \\ud83d\\ude00 \\u00e9'))).toEqual([]);
	});

	it('unsafe-integer: an integer beyond 2^53 is a warning at the number; 2^53-1 and long decimals are not', () => {
		const body =
			'{"jsonrpc":"2.0","id":1,"result":{"content":[],"n":12345678901234567890,"ok":9007199254740991,"f":1234567890123456789.5}}\n';
		const [finding, ...rest] = stdoutFindings(body);
		expect(rest).toEqual([]);
		expect(finding).toMatchObject({
			severity: 'warning',
			offset: PREFIX + body.indexOf('12345678901234567890'),
			byteLength: 20,
			detail: {reason: 'unsafe-integer', token: '12345678901234567890'},
		});
		expect(finding!.impact.find((i) => i.client === 'ts-sdk-v1')?.reaction).toBe('corrupt');
	});

	it('escapes and digits inside strings are not numbers; -2^53-1 is unsafe', () => {
		expect(portabilityProblems('{"a":"12345678901234567890","b":"\\\\ud83d"}')).toEqual([]);
		expect(portabilityProblems('{"a":-9007199254740993}')).toEqual([
			{reason: 'unsafe-integer', index: 5, length: 17, token: '-9007199254740993'},
		]);
	});
});

factTester('non-portable-json', {
	valid: [{name: 'a body with no non-portable token'}, {name: 'an empty token list', facts: {nonPortable: []}}],
	invalid: [
		{
			name: 'each token at its own byte: a lone surrogate (error) and an unsafe integer (warning)',
			facts: {
				nonPortable: [
					{reason: 'lone-surrogate', at: 140, length: 6, token: '\\ud83d'},
					{reason: 'unsafe-integer', at: 160, length: 17, token: '12345678901234567'},
				],
			},
			drafts: [
				{severity: 'error', offset: 140, byteLength: 6, detail: {reason: 'lone-surrogate', token: '\\ud83d'}},
				{
					severity: 'warning',
					offset: 160,
					byteLength: 17,
					detail: {reason: 'unsafe-integer', token: '12345678901234567'},
				},
			],
		},
	],
});

/** The outcome of every client family, `[outcome, connects, toolsListed]`, after `body` answers tools/list. */
function outcomes(session: ReturnType<typeof run>) {
	return Object.fromEntries(
		session.getSnapshot().summary.clients!.map((c) => [c.client, [c.outcome, c.connects, c.toolsListed]]),
	);
}

function listSession(body: string, initOk = INIT_OK) {
	return run([
		['stdin', 0, INIT],
		['stdout', 5, initOk],
		['stdin', 6, INITIALIZED + LIST(1)],
		['stdout', 10, body],
	]);
}

describe('non-portable-json non-finite: NaN / Infinity tokens (Python json.dumps default allow_nan=True)', () => {
	const body =
		'{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"n","inputSchema":{"type":"object","properties":{"n":{"type":"number","maximum":Infinity,"default":NaN}}}}]}}\n';

	it('one error at the first token, every token at its byte; the reply reaches the Python SDK only', () => {
		const session = listSession(body);
		const findings = session.getSnapshot().findings;
		expect(findings.map((f) => f.code)).toEqual(['non-portable-json']);
		expect(findings[0]).toMatchObject({
			severity: 'error',
			stream: 'stdout',
			offset: PREFIX + body.indexOf('Infinity'),
			byteLength: 8,
			frameIndex: 4,
			detail: {
				reason: 'non-finite',
				token: 'Infinity',
				method: 'tools/list',
				tokens: [
					{token: 'Infinity', offset: PREFIX + body.indexOf('Infinity')},
					{token: 'NaN', offset: PREFIX + body.indexOf('NaN')},
				],
				count: 2,
			},
		});
		expect(findings[0]!.message).toBe(
			`\`Infinity\` at byte ${PREFIX + body.indexOf('Infinity')} (and 1 more) is not JSON (RFC 8259 has no NaN or Infinity): JSON.parse and serde_json reject the whole line, so the reply to tools/list never reaches TS SDK clients, VS Code or rmcp; only the Python SDK reads it`,
		);
		expect(findings[0]!.hint).toContain('json.dumps(message, allow_nan=False)');
		// Not "the server hangs for every client": the Python SDK lists the tool (mcp 2.3.0, measured).
		expect(outcomes(session)).toEqual({
			'ts-sdk-v1': ['fails', true, false],
			'ts-sdk-v2': ['fails', true, false],
			'python-sdk': ['works', true, true],
			vscode: ['fails', true, false],
			rmcp: ['fails', true, false],
			cursor: ['unknown', true, null],
		});
		expect(session.getSnapshot().summary.clients!.find((c) => c.client === 'ts-sdk-v1')!.note).toMatch(
			/^connects; tools\/list hangs: non-portable-json: JSON\.parse throws/,
		);
	});

	it('in the initialize reply: only the Python SDK connects', () => {
		const init =
			'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"experimental":{"x":{"n":-Infinity}}},"serverInfo":{"name":"s","version":"1"}}}\n';
		const session = run([
			['stdin', 0, INIT],
			['stdout', 5, init],
		]);
		const [finding, ...rest] = session.getSnapshot().findings.filter((f) => f.code === 'non-portable-json');
		expect(rest).toEqual([]);
		expect(finding).toMatchObject({offset: init.indexOf('-Infinity'), byteLength: 9, detail: {method: 'initialize'}});
		const o = outcomes(session);
		expect([o['ts-sdk-v1'], o['python-sdk'], o['rmcp']]).toEqual([
			['fails', false, null],
			['works', true, null],
			['fails', false, null],
		]);
	});

	it('a line with the tokens that is no message stays a stray line; a string holding NaN is clean', () => {
		const session = run([
			['stdin', 0, INIT],
			['stdout', 5, INIT_OK],
			['stdout', 6, '{"progress":NaN}\n'],
		]);
		expect(session.getSnapshot().findings.map((f) => f.code)).toEqual(['stray-output']);
		expect(listSession('{"jsonrpc":"2.0","id":1,"result":{"tools":[],"note":"NaN"}}\n').getSnapshot().findings).toEqual(
			[],
		);
	});
});

describe("non-portable-json number-overflow: a number beyond a double's range (JSON.parse reads Infinity)", () => {
	const schema = (max: string): string =>
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"n","inputSchema":{"type":"object","properties":{"n":{"type":"number","maximum":${max}}}}}]}}\n`;

	it('in a tool property: error, the TS SDK 2.x client fails tools/list, the others list it', () => {
		const body = schema('1e400');
		const session = listSession(body);
		const [finding, ...rest] = session.getSnapshot().findings;
		expect(rest).toEqual([]);
		expect(finding).toMatchObject({
			code: 'non-portable-json',
			severity: 'error',
			stream: 'stdout',
			offset: PREFIX,
			byteLength: body.length,
			frameIndex: 4,
			detail: {
				reason: 'number-overflow',
				method: 'tools/list',
				path: 'tools.0.inputSchema.properties.n.maximum',
				value: 'Infinity',
				v2Rejects: true,
				paths: ['tools.0.inputSchema.properties.n.maximum'],
				count: 1,
			},
		});
		expect(finding!.message).toBe(
			"`tools.0.inputSchema.properties.n.maximum` in the tools/list result is a number beyond a double's range: JSON.parse reads it as Infinity, and the TS SDK 2.x client rejects the result (its schema wants a finite number there)",
		);
		expect(outcomes(session)).toEqual({
			'ts-sdk-v1': ['degraded', true, true],
			'ts-sdk-v2': ['fails', true, false],
			'python-sdk': ['degraded', true, true],
			vscode: ['unknown', true, null],
			rmcp: ['works', true, true],
			cursor: ['unknown', true, null],
		});
		expect(session.getSnapshot().summary.verdict).toBe('warn');
	});

	it('-1e400 elsewhere (a tool _meta, the schema root) is a warning the TS SDK 2.x client lists; 1e308 is nothing', () => {
		const body =
			'{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"n","inputSchema":{"type":"object","x-min":-1e400},"_meta":{"n":2e999}}]}}\n';
		const session = listSession(body);
		const [finding, ...rest] = session.getSnapshot().findings;
		expect(rest).toEqual([]);
		expect(finding).toMatchObject({
			severity: 'warning',
			detail: {
				path: 'tools.0.inputSchema.x-min',
				value: '-Infinity',
				v2Rejects: false,
				paths: ['tools.0.inputSchema.x-min', 'tools.0._meta.n'],
				count: 2,
			},
		});
		expect(outcomes(session)['ts-sdk-v2']).toEqual(['degraded', true, true]);
		expect(listSession(schema('1e308')).getSnapshot().findings).toEqual([]);
	});

	it('in the initialize capabilities: the TS SDK 2.x client does not connect', () => {
		const init =
			'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"experimental":{"x":{"n":1e400}}},"serverInfo":{"name":"s","version":"1"}}}\n';
		const session = run([
			['stdin', 0, INIT],
			['stdout', 5, init],
		]);
		expect(session.getSnapshot().findings[0]).toMatchObject({
			severity: 'error',
			offset: 0,
			detail: {method: 'initialize', path: 'capabilities.experimental.x.n', v2Rejects: true},
		});
		expect(outcomes(session)['ts-sdk-v2']).toEqual(['fails', false, null]);
		expect(outcomes(session)['ts-sdk-v1']).toEqual(['degraded', true, null]);
	});
});
