import {describe, expect, it} from 'vitest';
import type {Chunk, SessionEvent} from '../../../src/core/types.js';
import {
	createEventRedactor,
	describeRedactions,
	isSecretName,
	redactSnapshot,
	Redactor,
} from '../../../src/render/redact/index.js';
import {chunk, goldenMeta, sessionFrom} from '../report/golden.js';

const GHP = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl';
const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString('latin1');
const bytesOf = (value: string): Uint8Array => new Uint8Array(Buffer.from(value, 'utf8'));

describe('isSecretName', () => {
	it.each([
		['GITHUB_TOKEN', true],
		['OPENAI_API_KEY', true],
		['api-key', true],
		['apiKey', true],
		['ACCESSTOKEN', true],
		['Authorization', true],
		['x-api-key', true],
		['DB_PASSWORD', true],
		['session_cookie', true],
		['GOOGLE_APPLICATION_CREDENTIALS', true],
		['client_secret_arn', true],
		['X-Amz-Signature', true],
		['sig', true],
		['signatureHelp', false],
		['signed', false],
		['maxTokens', false],
		['tokenCount', false],
		['author', false],
		['authenticated', false],
		['SSH_AUTH_SOCK', false],
		['PWD', false],
		['keyboard', false],
		['monkey', false],
		['HOME', false],
	] as const)('%s → %s', (name, expected) => {
		expect(isSecretName(name)).toBe(expected);
	});
});

describe('Redactor.text', () => {
	const redactor = new Redactor({
		home: '/home/alice',
		user: 'alice',
		env: {OPENAI_API_KEY: 'sk-proj-abcdefghijklmnop1234', PATH: '/usr/bin'},
	});
	it.each([
		[`GITHUB_TOKEN=${GHP} x`, 'GITHUB_TOKEN=ghp_<redacted> x'],
		['--api-key=xyz12345', '--api-key=<redacted>'],
		['Authorization: Bearer abc.def.ghi12345', 'Authorization: Bearer <redacted>'],
		['key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx end', 'key sk-ant-<redacted> end'],
		['aws AKIAIOSFODNN7EXAMPLE!', 'aws AKIA<redacted>!'],
		['slack xoxb-1234-5678-abcdefgh', 'slack xoxb-<redacted>'],
		[`jwt ${JWT}`, 'jwt eyJ<redacted>'],
		['/home/alice/proj and /Users/bob/x', '~/proj and /Users/<user>/x'],
		[String.raw`C:\Users\carol\y and C:\\Users\\dan\\z`, String.raw`C:\Users\<user>\y and C:\\Users\\<user>\\z`],
		['user alice said; alice2 is not', 'user <user> said; alice2 is not'],
		[
			'{"apiKey": "abc", "maxTokens": 100, "password":"p w"}',
			'{"apiKey": "<redacted>", "maxTokens": 100, "password":"<redacted>"}',
		],
		["{'api_key': 'abc'}", "{'api_key': '<redacted>'}"],
		['https://bob:hunter2@example.com/x?token=abc&y=1', 'https://bob:<redacted>@example.com/x?token=<redacted>&y=1'],
		['Cookie: a=b; c=d', 'Cookie: <redacted>'],
		['echo sk-proj-abcdefghijklmnop1234 here', 'echo sk-proj-<redacted> here'],
		[String.raw`{\"token\":\"abc\"}`, String.raw`{\"token\":\"<redacted>\"}`],
		['SSH_AUTH_SOCK=/tmp/x PWD=/home/alice', 'SSH_AUTH_SOCK=/tmp/x PWD=~'],
		['nothing to see', 'nothing to see'],
	])('%s', (input, expected) => {
		expect(redactor.text(input)).toBe(expected);
	});

	it('masks a known env value of a secret-named variable wherever it appears, but not other env values', () => {
		expect(redactor.text('key=sk-proj-abcdefghijklmnop1234 path=/usr/bin')).toBe(
			'key=sk-proj-<redacted> path=/usr/bin',
		);
	});

	it('leaves generic user names alone outside paths', () => {
		const node = new Redactor({home: '/home/node', user: 'node'});
		expect(node.text('node server.js in /home/node/app')).toBe('node server.js in ~/app');
	});
});

describe('Redactor.command', () => {
	it('redacts the value after a secret flag and KEY=VALUE arguments, and learns them', () => {
		const redactor = new Redactor();
		expect(
			redactor.command(['node', '--token', 'abc123', '-e', 'GH_TOKEN=zzzz', '--verbose', 'x'], {count: true}),
		).toEqual(['node', '--token', '<redacted>', '-e', 'GH_TOKEN=<redacted>', '--verbose', 'x']);
		expect(redactor.getCounts()).toEqual({'secret-value': 2});
		expect(redactor.text('echo abc123 and zzzz')).toBe('echo <redacted> and <redacted>');
	});
});

describe('Redactor.bytes: same length, `*` per masked byte', () => {
	it('masks secrets and the user part of the home directory, keeping public prefixes and LF', () => {
		const redactor = new Redactor({home: '/home/alice', user: 'alice'});
		const input = bytesOf(`home=/home/alice/x token ${GHP}\n{"password":"hunter22"}\n`);
		const output = redactor.bytes(input, false, {count: true});
		expect(output.length).toBe(input.length);
		expect(text(output)).toBe(
			'home=/home/*****/x token ghp_************************************\n{"password":"********"}\n',
		);
		expect(redactor.getCounts()).toEqual({home: 1, 'github-token': 1, 'secret-value': 1});
	});

	it('masks every JSON string value with --redact-payloads, keeping keys and the jsonrpc/method/id envelope', () => {
		const redactor = new Redactor();
		const input = bytesOf(
			'{"jsonrpc":"2.0","id":"a1","method":"tools/call","params":{"name":"x","arguments":{"q":"se\\"cret","n":[1,"two"]}}}\r\n',
		);
		const output = redactor.bytes(input, true, {count: true});
		expect(text(output)).toBe(
			'{"jsonrpc":"2.0","id":"a1","method":"tools/call","params":{"name":"*","arguments":{"q":"********","n":[1,"***"]}}}\r\n',
		);
		expect(redactor.getCounts()).toEqual({payload: 3});
	});

	it('masks multibyte UTF-8 byte for byte', () => {
		const redactor = new Redactor({secrets: ['pässwörd-42']});
		const input = bytesOf('x pässwörd-42 y');
		expect(text(redactor.bytes(input, false))).toBe(`x ${'*'.repeat(13)} y`);
	});
});

describe('redactSnapshot', () => {
	const session = sessionFrom(
		goldenMeta({command: ['node', '/home/alice/s.js', '--token', 'tok-1234567'], cwd: '/home/alice'}),
		[
			chunk(
				'stdin',
				0,
				'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}\n',
			),
			// The token is split across two reads.
			chunk('stdout', 5, `banner ${GHP.slice(0, 10)}`),
			chunk('stdout', 6, `${GHP.slice(10)} tok-1234567\n`),
			chunk('stderr', 7, 'API_KEY=k3y-abcdef-99 at /home/alice/s.js\n'),
		],
	);
	const original = session.getSnapshot();
	const {snapshot, counts} = redactSnapshot(original, {home: '/home/alice', user: 'alice'});

	it('keeps every offset, length and frame boundary', () => {
		for (const stream of ['stdin', 'stdout', 'stderr'] as const) {
			expect(snapshot.streamLength(stream)).toBe(original.streamLength(stream));
		}

		expect(snapshot.frames.map((frame) => [frame.stream, frame.offset, frame.byteLength, frame.kind])).toEqual(
			original.frames.map((frame) => [frame.stream, frame.offset, frame.byteLength, frame.kind]),
		);
		expect(snapshot.findings.map((finding) => [finding.code, finding.offset, finding.byteLength])).toEqual(
			original.findings.map((finding) => [finding.code, finding.offset, finding.byteLength]),
		);
	});

	it('masks bytes across read boundaries, and text views', () => {
		expect(text(snapshot.bytes('stdout', 0, 100))).toBe(`banner ghp_${'*'.repeat(36)} ${'*'.repeat(11)}\n`);
		expect(snapshot.frames.find((frame) => frame.stream === 'stdout')?.text).toBe('banner ghp_<redacted> <redacted>');
		expect(snapshot.stderrTail(5)).toEqual(['API_KEY=<redacted> at ~/s.js']);
		expect(snapshot.meta.command).toEqual(['node', '~/s.js', '--token', '<redacted>']);
		expect(snapshot.meta.cwd).toBe('~');
		expect(
			snapshot.chunksOf(snapshot.frames.find((frame) => frame.stream === 'stdout')!).map((part) => text(part.bytes)),
		).toEqual(['banner ghp_******', `${'*'.repeat(30)} ${'*'.repeat(11)}\n`]);
	});

	it('counts what it masked in the command, the cwd and the streams', () => {
		expect(counts).toEqual({'secret-value': 3, home: 3, 'github-token': 1});
		expect(describeRedactions(counts)).toBe(
			'Redacted: 3 secret values, 1 GitHub token, 3 home directory paths. Masked bytes show as `*` (0x2a); offsets and byte counts are as captured.',
		);
	});
});

describe('describeRedactions', () => {
	it('says when redaction is off or found nothing', () => {
		expect(describeRedactions(undefined)).toBe(
			'Redaction: off (`--no-redact`): this report shows the capture as it is.',
		);
		expect(describeRedactions({})).toBe('Redaction: on; nothing secret-looking was found.');
		expect(describeRedactions({}, {quotesPayloads: false})).toMatch(
			/^Redaction: on; this report quotes no frame contents .*, so there was nothing in them to redact, /,
		);
		expect(describeRedactions({'secret-value': 1}, {quotesPayloads: false})).toMatch(/^Redacted: 1 secret value\./);
	});
});

describe('createEventRedactor (--json --redact)', () => {
	it("hides the capturing user's home and name recorded in the header (docs/cli.md#report)", () => {
		const meta = createEventRedactor({home: '/home/alice', user: 'alice'}).meta({
			...goldenMeta(),
			home: '/home/alice',
			user: 'alice',
		});
		expect([meta.home, meta.user]).toEqual(['~', '<user>']);
	});

	function feed(parts: readonly string[], options = {}): {out: string[]; events: SessionEvent[]} {
		const redactor = createEventRedactor(options);
		let offset = 0;
		const out: string[] = [];
		const events: SessionEvent[] = [];
		const take = (ready: SessionEvent[]): void => {
			for (const event of ready) {
				events.push(event);
				if (event.type === 'chunk') out.push(text(event.chunk.bytes));
			}
		};
		const pieces: Chunk[] = [];
		for (const [seq, part] of parts.entries()) {
			const piece: Chunk = {seq, stream: 'stdout', tMs: seq, offset, bytes: bytesOf(part)};
			pieces.push(piece);
			offset += piece.bytes.length;
			take(redactor.push({type: 'chunk', chunk: piece}));
		}

		take(redactor.end());
		expect(
			events.map((event) => (event.type === 'chunk' ? [event.chunk.offset, event.chunk.bytes.length] : [])),
		).toEqual(pieces.map((piece) => [piece.offset, piece.bytes.length]));
		return {out, events};
	}

	it('masks a token and a named value split across reads', () => {
		expect(feed(['token ghp_0123', '456789abcdefghijABCDEFGHIJ012345\nAPI_KEY=ab', 'cdef123456 more\n']).out).toEqual([
			'token ghp_****',
			`${'*'.repeat(32)}\nAPI_KEY=**`,
			`${'*'.repeat(10)} more\n`,
		]);
	});

	it('masks a JWT longer than the carried window across three reads', () => {
		const jwt = `eyJ${'a'.repeat(600)}.eyJ${'b'.repeat(600)}.${'c'.repeat(100)}`;
		const line = `Bearer ${jwt}\n`;
		const parts = [line.slice(0, 20), line.slice(20, 700), line.slice(700)];
		const joined = feed(parts).out.join('');
		// A bearer credential is masked whole, its `eyJ` included (as in text: `Bearer <redacted>`).
		expect(joined).toBe(`Bearer ${'*'.repeat(jwt.length)}\n`);
		const bare = feed([jwt.slice(0, 10), jwt.slice(10, 900), `${jwt.slice(900)}\n`]).out.join('');
		expect(bare).toBe(`eyJ${'*'.repeat(jwt.length - 3)}\n`);
	});

	it('masks JSON string values with payloads on, across reads', () => {
		expect(feed(['{"jsonrpc":"2.0","id":1,"result":{"text":"sec', 'ret"}}\n'], {payloads: true}).out).toEqual([
			'{"jsonrpc":"2.0","id":1,"result":{"text":"***',
			'***"}}\n',
		]);
	});

	it('redacts the header, frames and findings as text', () => {
		const redactor = createEventRedactor({home: '/home/alice'});
		expect(redactor.meta(goldenMeta({command: ['node', '/home/alice/a.js', '--api-key', 'k-123456']})).command).toEqual(
			['node', '~/a.js', '--api-key', '<redacted>'],
		);
		const [frame] = redactor.push({
			type: 'frame',
			frame: {
				index: 0,
				stream: 'stdout',
				framing: 'newline',
				offset: 0,
				byteLength: 10,
				bodyOffset: 0,
				bodyLength: 9,
				terminator: 'lf',
				lineCount: 1,
				tMs: 0,
				firstTMs: 0,
				firstSeq: 0,
				lastSeq: 0,
				kind: 'json',
				message: {password: 'pw', note: `key ${GHP}`},
			},
		});
		expect(frame?.type === 'frame' && frame.frame.message).toEqual({
			password: '<redacted>',
			note: 'key ghp_<redacted>',
		});
	});
});
