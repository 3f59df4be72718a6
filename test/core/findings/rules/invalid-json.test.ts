import {describe, expect, it} from 'vitest';
import {concat} from '../../../fixtures/field-cases/cases.js';
import {fieldCase, INIT, INIT_OK, INITIALIZED, LIST, run, runFieldCase} from '../harness.js';

describe('invalid-json (R1, J1): a line meant as a message that does not parse', () => {
	it('a reply printed as a Python dict or a Node object is the reply, broken: never stray-output or "print to stderr"', () => {
		// `print(message)` of a dict in Python, `console.log(message)` in Node: every real client times out
		// (TS SDK 1.x logs `Expected property name or '}' in JSON at position 1`). Before: stray-output "banner"
		// whose fix was to print it to stderr, which loses the reply for good.
		const repr =
			"{'jsonrpc': '2.0', 'id': 0, 'result': {'protocolVersion': '2025-11-25', 'capabilities': {'tools': {}}, 'serverInfo': {'name': 's', 'version': '1'}}}\n";
		const session = run([
			['stdin', 0, INIT],
			['stdout', 5, repr],
		]);
		const findings = session.getSnapshot().findings;
		expect(findings.map((f) => `${f.code}@${f.stream}:${f.offset}`)).toEqual([
			'invalid-json@stdout:1',
			'unanswered-request@stdin:0',
		]);
		expect(findings[0]!.detail).toEqual({
			looksLike: 'reply to initialize, id 0',
			clientError: "Expected property name or '}' in JSON at position 1",
			position: 1,
			byte: 0x27,
			id: '0',
			awaitedMethod: 'initialize',
			objectLiteral: true,
		});
		expect(findings[0]!.hint).toBe(
			'This is the message printed as an object (single-quoted or bare keys: Python `print(message)` of a dict, `str(message)`, or Node `console.log` of the object), not serialized as JSON: write `json.dumps(message)` / `JSON.stringify(message)`, one line per message. Moving it to stderr would lose the reply.',
		);
		// Node's one-line `console.log` of a tools/list reply: bare keys.
		const node = run([
			['stdin', 0, INIT],
			['stdout', 5, INIT_OK],
			['stdin', 6, INITIALIZED + LIST(1)],
			['stdout', 8, "{ jsonrpc: '2.0', id: 1, result: { tools: [] } }\n"],
		]).getSnapshot().findings;
		expect(node.map((f) => `${f.code}@${f.stream}:${f.offset}`)).toEqual([
			`invalid-json@stdout:${INIT_OK.length + 2}`,
			`unanswered-request@stdin:${INIT.length + INITIALIZED.length}`,
		]);
		expect(node[0]!.detail).toMatchObject({looksLike: 'reply to tools/list, id 1', objectLiteral: true});
		// A logged object without a jsonrpc key stays stray-output, even with the id of an awaited request.
		const logged = run([
			['stdin', 0, INIT],
			['stdout', 5, INIT_OK],
			['stdin', 6, INITIALIZED + LIST(1)],
			['stdout', 8, "{ id: 1, msg: 'listing' }\n"],
		]).getSnapshot().findings;
		expect(logged.map((f) => f.code)).toContain('stray-output');
		expect(logged.map((f) => f.code)).not.toContain('invalid-json');
	});

	it("Node's console.log of a long message (util.inspect over several lines) is one broken reply, not nine strays", () => {
		// Node prints an object wider than 72 columns over several lines: bare keys, single quotes. Before: a
		// stray-output per line, the first a "banner" whose fix (console.error) would lose the reply.
		const inspected =
			"{\n  jsonrpc: '2.0',\n  id: 0,\n  result: {\n    protocolVersion: '2025-11-25',\n    capabilities: { tools: {} },\n    serverInfo: { name: 'inspect', version: '1' }\n  }\n}\n";
		const session = run([
			['stdin', 0, INIT],
			['stdout', 5, inspected],
		]);
		const findings = session.getSnapshot().findings;
		expect(findings.map((f) => `${f.code}@${f.stream}:${f.offset}`)).toEqual([
			'invalid-json@stdout:4',
			'unanswered-request@stdin:0',
		]);
		expect(findings[0]!.detail).toMatchObject({
			looksLike: 'reply to initialize, id 0',
			position: 4,
			byte: 0x6a,
			id: '0',
			awaitedMethod: 'initialize',
			objectLiteral: true,
		});
		const frames = session.getSnapshot().frames.filter((f) => f.stream === 'stdout');
		expect(frames.map((f) => [f.offset, f.byteLength, f.lineCount])).toEqual([[0, 165, 9]]);
		expect(inspected.length).toBe(165);
		// A pretty-printed block that is neither JSON nor a message stays stray lines.
		const strays = run([
			['stdin', 0, INIT],
			['stdout', 5, "{\n  level: 'info',\n  msg: 'ready'\n}\n"],
		]).getSnapshot().findings;
		expect(strays.filter((f) => f.code === 'stray-output').map((f) => f.offset)).toEqual([0, 2, 19, 34]);
		expect(strays.map((f) => f.code)).not.toContain('invalid-json');
	});

	it('F37: the raw 0x15 in the tools/list reply, at its own byte, as the reply to tools/list; never stray-output', () => {
		const session = runFieldCase(fieldCase('F37'));
		const findings = session.getSnapshot().findings;
		expect(findings.map((f) => f.code)).toEqual(['invalid-json', 'unanswered-request']);
		const [finding] = findings;
		const stdout = fieldCase('F37').chunks.filter((c) => c.stream === 'stdout');
		const initBytes = stdout[0]!.bytes.length;
		const at = stdout[1]!.bytes.indexOf(0x15);
		expect(at).toBe(101);
		expect(finding).toMatchObject({
			severity: 'error',
			stream: 'stdout',
			offset: initBytes + at,
			byteLength: 1,
			detail: {
				looksLike: 'reply to tools/list, id 1',
				clientError: 'Bad control character in string literal in JSON at position 101',
				position: 101,
				byte: 0x15,
				id: '1',
				awaitedMethod: 'tools/list',
			},
		});
		expect(finding!.message).toBe(
			'a line meant as a message (reply to tools/list, id 1) is not valid JSON: Bad control character in string literal in JSON at position 101; clients drop the line, so tools/list (id 1) is never answered for them',
		);
		expect(finding!.hint).toContain('\\u0015');
		expect(finding!.hint).not.toContain('stderr');
		expect(finding!.impact.find((i) => i.client === 'ts-sdk-v1')?.reaction).toBe('hang');
		expect(session.getSnapshot().summary.verdict).toBe('fail');
		expect(session.getSnapshot().frames.find((f) => f.stream === 'stdout' && f.offset === initBytes)?.kind).toBe(
			'text',
		);
	});

	it('a line opening like a message with a bad escape: invalid-json at the escape, named by its method', () => {
		const line = '{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"C:\\dir"}}\n';
		const session = run([
			['stdin', 0, INIT],
			['stdout', 5, INIT_OK],
			['stdout', 6, line],
		]);
		const [finding] = session.getSnapshot().findings;
		// V8 stops at the character after the backslash (`d` of `\dir`).
		const at = line.indexOf('\\') + 1;
		expect(finding).toMatchObject({
			code: 'invalid-json',
			offset: INIT_OK.length + at,
			byteLength: 1,
			detail: {
				looksLike: 'notification notifications/message',
				method: 'notifications/message',
				position: at,
				byte: 0x64,
			},
		});
		expect(finding!.detail?.['clientError']).toBe(`Bad escaped character in JSON at position ${at}`);
		expect(finding!.impact.find((i) => i.client === 'ts-sdk-v1')?.reaction).toBe('skip-log');
	});

	it('a line without "jsonrpc" that holds the id of an outstanding request is the reply, cut short', () => {
		const cut = '{"id":1,"result":{"tools":[\n';
		const session = run([
			['stdin', 0, INIT],
			['stdout', 5, INIT_OK],
			['stdin', 6, INITIALIZED + LIST(1)],
			['stdout', 7, cut],
			['stdout', 8, INIT_OK.replace('"id":0', '"id":7')],
		]);
		const findings = session.getSnapshot().findings;
		// A cut: the parser ran out of input, so the finding points just after the last byte (byteLength 0).
		expect(findings.map((f) => `${f.code}@${f.stream}:${f.offset}`)).toContain(
			`invalid-json@stdout:${INIT_OK.length + cut.length - 1}`,
		);
		expect(findings.find((f) => f.code === 'invalid-json')).toMatchObject({
			byteLength: 0,
			detail: {clientError: 'Unexpected end of JSON input'},
		});
		expect(findings.find((f) => f.code === 'invalid-json')?.detail).toMatchObject({
			looksLike: 'reply to tools/list, id 1',
			awaitedMethod: 'tools/list',
		});
		expect(findings.some((f) => f.code === 'stray-output')).toBe(false);
	});

	it('a JS object log line (`{ user: 1 }`) or a brace-led text line stays stray-output', () => {
		const session = run([
			['stdin', 0, INIT],
			['stdout', 5, '{ user: 1, id: 0 }\n'],
			['stdout', 6, INIT_OK],
		]);
		expect(session.getSnapshot().findings.map((f) => f.code)).toEqual(['stray-output']);
		expect(concat('a').length).toBe(1);
	});
});
