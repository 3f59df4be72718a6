import {describe, expect, it} from 'vitest';
import {bytesOf, findingsOf, handshake, lengthOn, request, run, type Step} from '../exchange.js';
import {ruleTester} from '../rule-tester.js';
const NOTE = '{"jsonrpc":"2.0","method":"notifications/initialized"}';
const REPLY = '{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}';
const RAM = 'RAM GUARDIAN: memory at 42% (threshold: 15%) \u2014 consider cleanup';
const before: Step[] = [...handshake(), ['stdin', 12, request(1, 'tools/list')]];
const f43: Step[] = [...before, ['stdout', 13, `${REPLY}${RAM}\n`]];

ruleTester('concatenated-json', {
	valid: [
		{name: 'two lines', steps: [['stdout', 0, NOTE + '\n' + NOTE + '\n']]},
		{name: 'trailing spaces', steps: [['stdout', 0, NOTE + '   \n']]},
	],
	invalid: [
		{
			name: 'two values on one line',
			steps: [['stdout', 0, NOTE + NOTE + '\n']],
			findings: [
				{severity: 'error', stream: 'stdout', offset: NOTE.length, byteLength: NOTE.length, detail: {values: 2}},
			],
		},
		{
			name: "a reply, then a logger's text on its line (F43): the text highlighted whole",
			steps: f43,
			findings: [
				{
					severity: 'error',
					stream: 'stdout',
					offset: lengthOn('stdout', before) + REPLY.length,
					byteLength: 65,
					detail: {
						values: 1,
						messageEnd: lengthOn('stdout', before) + REPLY.length,
						trailing: RAM,
						trailingKind: 'text',
					},
				},
			],
		},
	],
});

describe('concatenated-json: trailing text (F43)', () => {
	it('says where the message ends and quotes the text; not invalid-json', () => {
		const session = run(f43);
		expect(findingsOf(session, 'invalid-json')).toEqual([]);
		const [finding] = findingsOf(session, 'concatenated-json');
		expect(bytesOf(RAM).length).toBe(65);
		expect(finding!.message).toBe(
			`a complete message ends at offset 181, then 65 bytes of text follow on the same line ("${RAM}"): clients drop the whole line, message included`,
		);
		expect(finding!.hint).toContain('Rust `tracing_subscriber::fmt().with_writer(std::io::stderr)`');
		expect(finding!.hint).not.toContain('JSON library');
	});
	it('a log line glued on: the fix of the logger its format names', () => {
		const [finding] = findingsOf(
			run([...before, ['stdout', 13, `${REPLY}2026-01-02T03:04:05.123456Z  WARN lean_ctx::guard: RAM high\n`]]),
			'concatenated-json',
		);
		expect(finding!.detail).toMatchObject({
			trailingKind: 'log',
			runtime: 'rust',
			runtimeFrom: "the trailing text's log format",
		});
		expect(finding!.hint).toBe(
			'The message itself is whole: a logger wrote its line into stdout between the message and its "\\n". Send `tracing` output to stderr: `tracing_subscriber::fmt().with_writer(std::io::stderr).init()` (the default writer is stdout); env_logger: `Builder::from_default_env().target(Target::Stderr)`. (runtime: Rust, inferred from the trailing text\'s log format)',
		);
	});
});
