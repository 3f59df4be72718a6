import {describe, expect, it} from 'vitest';
import {CATALOG, dressFinding} from '../../../src/core/findings/support/catalog.js';
import {explainError} from '../../../src/core/findings/explain.js';
import type {FindingCode} from '../../../src/core/types.js';
import {RULES} from '../../../src/core/findings/registry.js';
import {CLIENT_MESSAGES} from '../../../src/core/findings/support/pasted.js';

const codes = (text: string): string[] =>
	explainError(text).explanations.map((explanation) => `${explanation.code}:${explanation.likelihood}`);

describe('explainError: the messages users paste (docs/protocol.md C8)', () => {
	it(`Unexpected token 'S', "Starting B"... is not valid JSON → stray-output (a banner)`, () => {
		const result = explainError(`Unexpected token 'S', "Starting B"... is not valid JSON`);
		expect(result.explanations.map((explanation) => explanation.code)).toEqual(['stray-output']);
		const [stray] = result.explanations;
		expect(stray!.likelihood).toBe('likely');
		expect(stray!.why).toBe(
			`The client read a line on the server's stdout that starts with "Starting B": a text line (a banner or print), not a JSON message.`,
		);
		// The catalog's fix and impact for a banner, not a restatement.
		const dressed = dressFinding({
			code: 'stray-output',
			stream: 'stdout',
			offset: 0,
			byteLength: 0,
			tMs: 0,
			detail: {kind: 'banner'},
		});
		expect(stray!.hint).toBe(dressed.hint);
		expect(stray!.impact).toEqual(dressed.impact);
		expect(stray!.title).toBe(CATALOG['stray-output'].title);
		expect(stray!.severity).toBe('error');
		expect(stray!.rules).toEqual(['R5']);
		expect(result.source).toBe(
			"V8's JSON.parse, in TS SDK v1 hosts (Claude Desktop, Claude Code, MCP Inspector) and Cursor",
		);
	});

	it('Unexpected end of JSON input → blank-line, or the blank line after Content-Length headers', () => {
		expect(codes('Unexpected end of JSON input')).toEqual(['blank-line:likely', 'content-length-framing:possible']);
	});

	it(`Expected property name or '}' in JSON at position 1 → multiline-json (a line that is just "{")`, () => {
		const result = explainError(`Expected property name or '}' in JSON at position 1`);
		expect(codes(`Expected property name or '}' in JSON at position 1`)).toEqual(['multiline-json:likely']);
		expect(result.explanations[0]!.why).toContain('(the line is just `{`)');
	});

	it('Unexpected non-whitespace character after JSON at position 4 → a timestamped log line, or two values on a line', () => {
		const result = explainError('Unexpected non-whitespace character after JSON at position 4');
		expect(codes('Unexpected non-whitespace character after JSON at position 4')).toEqual([
			'stray-output:likely',
			'concatenated-json:likely',
			'multiline-json:possible',
		]);
		expect(result.explanations[0]!.why).toContain('(the year ends at position 4)');
		expect(result.explanations[0]!.hint).toBe(
			dressFinding({code: 'stray-output', stream: 'stdout', offset: 0, byteLength: 0, tMs: 0, detail: {kind: 'log'}})
				.hint,
		);
	});

	it('Failed to connect (claude mcp list) → the faults that make spawn + initialize fail', () => {
		expect(codes('✗ Failed to connect')).toEqual([
			'early-exit:possible',
			'spawn-failed:possible',
			'no-response:possible',
			'unflushed-output:possible',
			'content-length-framing:possible',
			'bom:possible',
			'protocol-version:possible',
		]);
		expect(explainError('my-server: node /srv/index.js - ✗ Failed to connect').source).toBe(
			'`claude mcp list` (Claude Code), after a real spawn and initialize',
		);
	});

	it('Request timed out → a missing, lost or late response (a tool call slower than 60 s)', () => {
		expect(codes('MCP error -32001: Request timed out')).toEqual([
			'no-response:possible',
			'slow-response:possible',
			'unflushed-output:possible',
			'multiline-json:possible',
			'missing-newline:possible',
			'content-length-framing:possible',
			'bom:possible',
			'unknown-id:possible',
		]);
		// Read as a call past the TS SDK's 60 s: the clients with that limit time out, and the fix is about the call.
		const slow = explainError('MCP error -32001: Request timed out').explanations.find(
			(explanation) => explanation.code === 'slow-response',
		)!;
		expect(slow.severity).toBe('error');
		expect(slow.hint).toMatch(/^Answer within the client's limit/);
		expect(slow.impact.find((cell) => cell.client === 'ts-sdk-v1')?.reaction).toBe('hang');
	});

	it('Failed to parse JSONRPC message from server (Python SDK) → stray-output, and what else gives that log', () => {
		const result = explainError('Failed to parse JSONRPC message from server');
		expect(codes('Failed to parse JSONRPC message from server')).toEqual([
			'stray-output:likely',
			'blank-line:possible',
			'multiline-json:possible',
			'invalid-jsonrpc:possible',
		]);
		expect(result.source).toBe('the Python SDK client (mcp.client.stdio), which logs it and skips the line');
	});
});

describe('explainError: variants users paste', () => {
	it.each([
		[
			`Unexpected token '\u001b', "\u001b[33m[2026"... is not valid JSON`,
			['ansi-escape:likely', 'stray-output:likely'],
		],
		[
			String.raw`Unexpected token '', "\x1B[33m[2026"... is not valid JSON`,
			['ansi-escape:likely', 'stray-output:likely'],
		],
		[`Unexpected token 'C', "Content-Le"... is not valid JSON`, ['content-length-framing:likely']],
		[`Unexpected token '}', "}" is not valid JSON`, ['multiline-json:likely']],
		[`Unexpected token ']', "  ]" is not valid JSON`, ['multiline-json:likely']],
		['Unexpected token \'S\', "Starting B server" is not valid JSON', ['stray-output:likely']],
		[`Unexpected token '\uFEFF', "\uFEFF{"jsonrp"... is not valid JSON`, ['bom:likely']],
		[
			`[error] Unexpected token 'i', "info: Micr"... is not valid JSON {metadata:{context:'connection'}}`,
			['stray-output:likely', 'stderr-merged:possible'],
		],
		[`Unexpected token 'S', "Server sta"... is not valid JSON`, ['stray-output:likely']],
		['Unexpected token S in JSON at position 0', ['stray-output:likely']],
		['No number after minus sign in JSON at position 2', ['stray-output:likely']],
		// R26: the TS SDK's onerror text for a reply with `Infinity` / `NaN` written as a value (run here, 1.32.2).
		[`Unexpected token 'I', ..."maximum": Infinity}}"... is not valid JSON`, ['non-portable-json:likely']],
		[`Unexpected token 'N', ..."x": {"n": NaN}}}, "s"... is not valid JSON`, ['non-portable-json:likely']],
		// A stray line that starts with N or I is not a NaN.
		[`Unexpected token 'I', "INFO Nothi"... is not valid JSON`, ['stray-output:likely', 'stderr-merged:possible']],
		['No number after minus sign in JSON at position 174', ['stray-output:likely', 'non-portable-json:possible']],
		[
			String.raw`Invalid JSON: EOF while parsing a value at line 2 column 0 [type=json_invalid, input_value='\n', input_type=str]`,
			['blank-line:likely'],
		],
		[String.raw`Failed to parse JSONRPC message from server ... input_value='\n'`, ['blank-line:likely']],
		[
			`Failed to parse JSONRPC message from server ... input_value='Content-Length: 157'`,
			['content-length-framing:likely'],
		],
		[String.raw`Failed to parse message: "\n"`, ['blank-line:likely']],
		['Failed to parse message: "Server started on port 3000"', ['stray-output:likely', 'multiline-json:possible']],
		['Invalid JSON-RPC message: [dotenv@17.2.2] injecting env (0) from .env', ['stray-output:likely']],
		['Server transport closed unexpectedly, this is likely due to the process exiting early.', ['early-exit:likely']],
		['MCP error -32000: Connection closed', ['early-exit:likely']],
		["Server's protocol version is not supported: 2025-03-26", ['protocol-version:likely']],
		['RuntimeError: Unsupported protocol version from the server: 1.0', ['protocol-version:likely']],
		['ReadBuffer exceeded maximum size of 10485760 bytes', ['oversize-frame:likely']],
		[
			'Received a response for an unknown message ID: {"jsonrpc":"2.0","id":0}',
			['unknown-id:likely', 'duplicate-response:possible'],
		],
		[
			"UnicodeDecodeError: 'utf-8' codec can't decode byte 0xc7 in position 51: invalid continuation byte",
			['invalid-utf8:likely'],
		],
		['Error: spawn uvx ENOENT', ['spawn-failed:likely']],
	] as const)('%s', (text, expected) => {
		expect(codes(text)).toEqual(expected);
	});

	it('names the launcher kind from the first characters, and gives the launcher fix', () => {
		const result = explainError(`Unexpected token '>', "> tsc && s"... is not valid JSON`);
		expect(result.explanations[0]!.hint).toBe(
			dressFinding({
				code: 'stray-output',
				stream: 'stdout',
				offset: 0,
				byteLength: 0,
				tMs: 0,
				detail: {kind: 'launcher'},
			}).hint,
		);
	});

	it('gives the 10 MiB error severity for a ReadBuffer overflow', () => {
		expect(explainError('ReadBuffer exceeded maximum size of 10485760 bytes').explanations[0]!.severity).toBe('error');
	});

	it('every why reads as a sentence of its own: a capital (or a lowercase name such as pydantic), a full stop, no "…" or "," chaining it to the one before', () => {
		const texts = [
			`Unexpected token 'S', "Starting B"... is not valid JSON`,
			`Unexpected token 'C', "Content-Le"... is not valid JSON`,
			`Unexpected token '\u001b', "\u001b[33m[2026"... is not valid JSON`,
			`Unexpected token '}', "}" is not valid JSON`,
			`[error] Unexpected token 'i', "info: Micr"... is not valid JSON`,
			'Unexpected end of JSON input',
			`Expected property name or '}' in JSON at position 1`,
			'Unexpected non-whitespace character after JSON at position 4',
			'✗ Failed to connect',
			'MCP error -32001: Request timed out',
			'Connection timeout triggered after 30000ms',
			'Client closed for command',
			'Failed to parse JSONRPC message from server',
			String.raw`Failed to parse JSONRPC message from server ... input_value='\n'`,
			'Failed to parse message: "Server started on port 3000"',
			'MCP error -32000: Connection closed',
			'Error: spawn uvx ENOENT',
		];
		const whys = texts.flatMap((text) => explainError(text).explanations.map((explanation) => explanation.why));
		expect(whys.length).toBeGreaterThan(30);
		for (const why of whys) {
			expect(why, why).toMatch(/^([A-Z`]|pydantic)/);
			expect(why, why).toMatch(/[.)]$/);
			expect(why, why).not.toMatch(/,$/);
		}
	});

	it('returns no explanation for text it does not know', () => {
		const result = explainError('  the weather is nice  ');
		expect(result).toEqual({input: 'the weather is nice', explanations: []});
	});

	it('gives every explanation the catalog entry of its code', () => {
		for (const text of [
			'✗ Failed to connect',
			'MCP error -32001: Request timed out',
			'Failed to parse JSONRPC message from server',
		]) {
			for (const explanation of explainError(text).explanations) {
				const code: FindingCode = explanation.code;
				expect(explanation.title).toBe(CATALOG[code].title);
				expect(explanation.rules).toEqual(CATALOG[code].rules);
			}
		}
	});

	it('learns client messages a newcomer could not match (Claude Code timeout, Cursor close, Node module, pydantic JSONRPCMessage)', () => {
		expect(codes('[DEBUG] MCP server "weather": Connection timeout triggered after 30000ms (limit: 30000ms)')).toEqual([
			'no-response:likely',
			'slow-response:possible',
			'unflushed-output:possible',
			'multiline-json:possible',
			'content-length-framing:possible',
		]);
		expect(explainError('Connection timeout triggered after 30000ms').source).toContain('Claude Code');
		expect(codes('2026-01-02 10:00:00.000 [error] user-weather: Client closed for command')).toEqual([
			'early-exit:likely',
			'spawn-failed:possible',
			'stray-output:possible',
		]);
		expect(explainError('Client closed for command').source).toBe('Cursor');
		expect(codes("Error: Cannot find module '/Users/me/weather/build/index.js'")).toEqual(['early-exit:likely']);
		expect(
			codes(
				"pydantic_core._pydantic_core.ValidationError: 1 validation error for JSONRPCMessage\n  Invalid JSON: expected value at line 1 column 1 [type=json_invalid, input_value='Starting server...', input_type=str]",
			),
		).toEqual(['stray-output:likely', 'blank-line:possible', 'multiline-json:possible', 'invalid-jsonrpc:possible']);
		expect(codes('Unexpected non-whitespace character after JSON at position 57')).toEqual([
			'stray-output:likely',
			'concatenated-json:likely',
			'multiline-json:possible',
		]);
	});

	it('a finding code by name is its catalog entry: the description as why (links as their text), the docs pointer', () => {
		const result = explainError(' no-response ');
		expect(result.docs).toBe('docs/findings.md#no-response');
		expect(result.source).toBeUndefined();
		expect(result.explanations.map((e) => `${e.code}:${e.likelihood}:${e.severity}`)).toEqual([
			'no-response:likely:error',
		]);
		expect(result.explanations[0]!.why).toMatch(/^The process is alive and silent: /);
		expect(explainError('invalid-utf8').explanations[0]!.why).toContain('MCP messages must be UTF-8 (R3).');
		// Not a code: a message that merely contains one is matched as text.
		expect(explainError('stray-output in my log').docs).toBeUndefined();
	});

	it("a client module's own error texts come after the rules' explanations, and name the source only when none did", () => {
		const codex = {
			errors: [
				{
					pattern: /MCP client for `\w+` failed to start/,
					client: 'Codex CLI',
					meaning: 'Codex could not finish the handshake.',
					codes: ['early-exit', 'no-response'] as FindingCode[],
				},
			],
		};
		const alone = explainError('MCP client for `docs` failed to start', [codex]);
		expect(alone.source).toBe('Codex CLI');
		expect(alone.explanations.map((e) => `${e.code}:${e.likelihood}:${e.why}`)).toEqual([
			'early-exit:possible:Codex could not finish the handshake.',
			'no-response:possible:Codex could not finish the handshake.',
		]);
		// With a known message too: the rules' explanation of a code stays (first one wins), the source too.
		const both = explainError('MCP client for `docs` failed to start: Connection closed', [codex]);
		expect(both.source).toBe('the TS SDK client (Claude Desktop, Claude Code)');
		expect(both.explanations.map((e) => `${e.code}:${e.likelihood}`)).toEqual([
			'early-exit:likely',
			'no-response:possible',
		]);
		// Without client modules the same text explains nothing.
		expect(explainError('MCP client for `docs` failed to start', []).explanations).toEqual([]);
	});

	it('the client modules of the registry teach it each client’s own texts (docs/clients.md#the-clients)', () => {
		const read = (text: string) => {
			const result = explainError(text);
			return [result.source, ...result.explanations.map((e) => `${e.code}:${e.likelihood}`)];
		};
		expect(read('Client closed')).toEqual([
			'Cursor',
			'early-exit:possible',
			'spawn-failed:possible',
			'stray-output:possible',
		]);
		expect(read('Connection state: Error Process exited with code 1')).toEqual([
			'VS Code',
			'early-exit:possible',
			'spawn-failed:possible',
		]);
		expect(read("Error connecting to MCP server 'weather': Connection failed")).toEqual([
			'Gemini CLI',
			'protocol-version:possible',
			'no-response:possible',
			'slow-response:possible',
			'early-exit:possible',
			'spawn-failed:possible',
		]);
		expect(read('MCP client for `x` failed to start: handshaking with MCP server failed')).toEqual([
			'Codex',
			'early-exit:possible',
			'no-response:possible',
			'slow-response:possible',
			'multiline-json:possible',
			'content-length-framing:possible',
			'unflushed-output:possible',
			'invalid-initialize:possible',
			'spawn-failed:possible',
		]);
		const codex = explainError('MCP client for `x` failed to start: handshaking with MCP server failed');
		expect(codex.explanations[0]?.why).toBe(
			'Codex could not complete the handshake within `startup_timeout_sec` (30 s): the server exited, never answered a line rmcp reads, or answered too late.',
		);
		// A text that names one finding points at it.
		expect(read('Unexpected response type')).toEqual(['Codex', 'invalid-result:likely']);
	});

	it("every rule's error text names a known client message, and every known message is explained by some rule", () => {
		const known = new Set(Object.keys(CLIENT_MESSAGES));
		const named = RULES.flatMap((rule) =>
			(rule.errors ?? []).flatMap((text) => (typeof text.on === 'string' ? [text.on] : [...text.on])),
		);
		expect(named.filter((id) => !known.has(id))).toEqual([]);
		expect([...known].filter((id) => !named.includes(id as (typeof named)[number]))).toEqual([]);
	});
});
