import {describe, expect, it} from 'vitest';
import {Session} from '../../../../src/core/session/session.js';
import {META} from '../exchange.js';
import {ruleTester} from '../rule-tester.js';
import {factTester} from '../fact-tester.js';
const NOTE = '{"jsonrpc":"2.0","method":"notifications/initialized"}';

ruleTester('crlf', {
	valid: [
		{name: 'LF only', steps: [['stdout', 0, NOTE + '\n']]},
		{name: 'a CR inside a string', steps: [['stdout', 0, '{"jsonrpc":"2.0","method":"x\\r"}\n']]},
	],
	invalid: [
		{
			name: 'CR LF after a message',
			steps: [['stdout', 0, NOTE + '\r\n' + NOTE + '\r\n']],
			findings: [
				{severity: 'warning', stream: 'stdout', offset: NOTE.length, byteLength: 2},
				{severity: 'warning', stream: 'stdout', offset: 2 * NOTE.length + 2, byteLength: 2},
			],
		},
	],
});

factTester('crlf', {
	valid: [
		{name: 'a message ended by LF', frame: {terminator: 'lf'}},
		{name: 'a blank CR LF line', frame: {terminator: 'crlf', isBlank: true, isJson: false, byteLength: 2}},
		{
			name: 'a stray line ended by CR LF (F48)',
			frame: {terminator: 'crlf', isJson: false},
			facts: {content: {kind: 'text', length: 16, strayKind: 'text', clientError: undefined}},
		},
	],
	invalid: [
		{
			name: 'a message ended by CR LF: at the CR',
			frame: {terminator: 'crlf', byteLength: 19},
			drafts: [{severity: 'warning', offset: 117, byteLength: 2}],
		},
		{
			name: 'a message that does not parse, ended by CR LF',
			frame: {terminator: 'crlf', isJson: false, byteLength: 30},
			facts: {
				content: {
					kind: 'unparsed-message',
					at: 110,
					length: 1,
					looksLike: 'a JSON-RPC message',
					clientError: 'Bad control character in string literal in JSON at position 10',
					position: 10,
				},
			},
			drafts: [{severity: 'warning', offset: 128, byteLength: 2}],
		},
	],
});

describe('crlf fix, per runtime (O5)', () => {
	const crlfOf = (command: string[]) => {
		const session = new Session({...META, command});
		session.pushChunk('stdout', 0, new TextEncoder().encode(NOTE + '\r\n'));
		session.finish(1);
		return session.getSnapshot().findings.filter((finding) => finding.code === 'crlf');
	};

	it('a Node server gets the Node advice first, with what it was inferred from', () => {
		const [finding] = crlfOf(['node', 'server.mjs']);
		expect(finding?.detail).toMatchObject({runtime: 'node', runtimeFrom: 'the command `node`'});
		expect(finding?.hint).toBe(
			'Write LF only. Node.js: end each message with `"\\n"`, not `os.EOL` (`"\\r\\n"` on Windows) or a literal `"\\r\\n"`; Node itself never adds a CR (runtime: Node.js, inferred from the command `node`). Elsewhere: Python: `sys.stdout.reconfigure(newline="\\n")` or a `TextIOWrapper` with `newline=""`, since the default text wrapper writes `os.linesep`; .NET: write `"\\n"` explicitly (`Console.Out.Write(json + "\\n")`), not `WriteLine`, which writes `Environment.NewLine`; JVM: write `"\\n"` explicitly (`out.print(json + "\\n")`), not `println`, which writes `System.lineSeparator()`; C/C++: `_setmode(_fileno(stdout), _O_BINARY)`.',
		);
	});

	it('a Python server gets the Python advice first; an unknown command gets every runtime, Node included', () => {
		expect(crlfOf(['uvx', 'srv'])[0]?.hint).toMatch(
			/^Write LF only\. Python: .* \(runtime: Python, inferred from the command `uvx`\)\. Elsewhere: Node\.js: /,
		);
		const generic = crlfOf(['./server'])[0]!;
		expect(generic.detail?.['runtime']).toBeUndefined();
		expect(generic.hint).toMatch(
			/^Write LF only\. Python: .*; Node\.js: end each message with `"\\n"`, not `os\.EOL`.*; C\/C\+\+: /,
		);
	});
});
