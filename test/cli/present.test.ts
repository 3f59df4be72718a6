import {Writable} from 'node:stream';
import {describe, expect, it} from 'vitest';
import {createPresenter} from '../../src/cli/present.js';
import {Session} from '../../src/core/session/session.js';
import {formatFinding, formatSummary} from '../../src/render/text/plain-log.js';
import {PACKAGE_ROOT} from '../../src/cli/version.js';
import {makeMeta} from '../helpers/factories.js';

/** A stdout stand-in that keeps everything written to it. */
function collector(): {readonly out: Writable; text(): string} {
	const parts: Buffer[] = [];
	const out = new Writable({
		write(chunk: Buffer, _encoding, callback) {
			parts.push(chunk);
			callback();
		},
	});
	return {out, text: () => Buffer.concat(parts).toString('utf8')};
}

describe('createPresenter (plain) finish', () => {
	it('prints 150,001 findings of one code and one of another without a RangeError: the error code first, five "also" lines, then a count', async () => {
		const count = 150_001;
		const session = new Session(makeMeta());
		for (let i = 0; i < count; i++)
			session.addFinding({code: 'crlf', stream: 'stdout', offset: 2 * i, byteLength: 2, tMs: 0, severity: 'warning'});
		session.addFinding({code: 'invalid-jsonrpc', stream: 'stdin', offset: 7, byteLength: 3, tMs: 1, severity: 'error'});
		session.finish(2);
		const snapshot = session.getSnapshot();
		expect(snapshot.findings).toHaveLength(count + 1);

		const {out, text} = collector();
		const presenter = createPresenter({
			mode: 'plain',
			isColor: false,
			hex: false,
			redact: false,
			redactPayloads: false,
			out,
		});
		await presenter.finish(session);
		await new Promise((resolve) => setImmediate(resolve));

		const textOptions = {color: false, hex: 'plain' as const, docsRoot: PACKAGE_ROOT};
		const [firstCrlf, secondCrlf] = snapshot.findings;
		const invalid = snapshot.findings.at(-1)!;
		expect([firstCrlf!.code, secondCrlf!.code, invalid.code]).toEqual(['crlf', 'crlf', 'invalid-jsonrpc']);
		const expected = [
			'',
			...formatFinding(invalid, snapshot, textOptions),
			'',
			...formatFinding(firstCrlf!, snapshot, textOptions),
			'  also crlf at stdout offset 2',
			'  also crlf at stdout offset 4',
			'  also crlf at stdout offset 6',
			'  also crlf at stdout offset 8',
			'  also crlf at stdout offset 10',
			`  … and ${count - 6} more crlf`,
			'',
			...formatSummary(snapshot.summary, {color: false}),
		];
		expect(text()).toBe(`${expected.join('\n')}\n`);
		expect(snapshot.summary.findings).toEqual([
			{code: 'invalid-jsonrpc', severity: 'error', count: 1},
			{code: 'crlf', severity: 'warning', count},
		]);
	});
});

describe('createPresenter (plain): lines in time order', () => {
	const INIT =
		'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcp-wire","version":"0.1.0"}}}\n';
	const BODY =
		'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"open-agreements","version":"0.9.2"}}}';
	/** F18: a Content-Length reply with a Content-Type header and no line end after the body. */
	const REPLY = `Content-Length: ${Buffer.byteLength(BODY)}\r\nContent-Type: application/json\r\n\r\n${BODY}`;

	/** Feed a probe's record as the probe does (times in ms on a fake clock), print it, return the frame log lines. */
	async function plainLog(feed: (session: Session) => void): Promise<string[]> {
		const session = new Session(makeMeta());
		const {out, text} = collector();
		const presenter = createPresenter({
			mode: 'plain',
			isColor: false,
			hex: false,
			redact: false,
			redactPayloads: false,
			out,
		});
		presenter.attach(session);
		feed(session);
		session.finish(5000);
		await presenter.finish(session);
		await new Promise((resolve) => setImmediate(resolve));
		const lines = text().split('\n');
		// The frame log: from the first timed line to the blank line before the findings.
		const first = lines.findIndex((line) => / ms {2}/.test(line));
		return lines.slice(first, lines.indexOf('', first)).map((line) => line.replace(/\s+/g, ' ').trim());
	}

	it('shows a Content-Length reply held until EOF at its own time, before the marks that came after it', async () => {
		const log = await plainLog((session) => {
			session.pushChunk('stdin', 10, Buffer.from(INIT));
			// One write: the header block and the body, nothing after it. The framer holds the frame until EOF.
			session.pushChunk('stdout', 366.2, Buffer.from(REPLY));
			expect(session.pendingBytes('stdout')).toBe(Buffer.byteLength(REPLY));
			session.mark({type: 'phase', name: 'content-length-reply', tMs: 866.5});
			session.mark({type: 'timeout', id: 0, method: 'initialize', timeoutMs: 856, tMs: 866.5});
			session.mark({type: 'stdin-closed', tMs: 870});
			session.mark({type: 'eof', stream: 'stdout', tMs: 901.3});
			session.mark({type: 'eof', stream: 'stderr', tMs: 901.4});
			session.exit({code: 0, signal: null, tMs: 902});
		});
		expect(log).toEqual([
			'10.0 ms C→S 158 B request id=0 initialize',
			`366.2 ms S→C ${Buffer.byteLength(REPLY)} B response id=0 initialize (356.2 ms) [content-length, 3 lines]`,
			'866.5 ms ··· stopped waiting: the reply came framed with Content-Length and nothing followed it; no MCP client reads it (they wait until their timeout)',
			'866.5 ms ··· mcp-wire stopped waiting for initialize (id 0) after 856 ms',
			'870.0 ms ··· stdin closed (EOF sent to the server)',
			'901.3 ms ··· stdout closed by the server',
			'902.0 ms ··· process exited, code 0',
		]);
	});

	it("keeps arrival order when nothing is held, and holds only what came after the held frame's first byte", async () => {
		const log = await plainLog((session) => {
			session.pushChunk('stdin', 10, Buffer.from(INIT));
			session.pushChunk('stderr', 20, Buffer.from('starting\n'));
			// The reply arrives in three reads; a stderr line comes between the header block and the body.
			session.pushChunk('stdout', 30, Buffer.from(REPLY.slice(0, 20)));
			session.pushChunk('stderr', 35, Buffer.from('ready\n'));
			session.pushChunk('stdout', 40, Buffer.from(REPLY.slice(20, 80)));
			session.pushChunk('stdout', 50, Buffer.from(`${REPLY.slice(80)}\n`));
			session.mark({type: 'stdin-closed', tMs: 60});
			session.mark({type: 'eof', stream: 'stdout', tMs: 70});
			session.mark({type: 'eof', stream: 'stderr', tMs: 70});
		});
		expect(log).toEqual([
			'10.0 ms C→S 158 B request id=0 initialize',
			'20.0 ms ERR 9 B text "starting"',
			'35.0 ms ERR 6 B text "ready"',
			`50.0 ms S→C ${Buffer.byteLength(REPLY) + 1} B response id=0 initialize (40.0 ms) [content-length, 4 lines]`,
			'60.0 ms ··· stdin closed (EOF sent to the server)',
			'70.0 ms ··· stdout closed by the server',
		]);
	});
});

describe('createPresenter (plain) finish: the Content-Length re-probe block', () => {
	const INIT = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}';
	const framed = (body: string) => Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
	/** A re-probe session: the framed initialize, then what `tail` adds, then the shutdown. */
	function reprobe(tail: (s: Session) => void): Session {
		const s = new Session(makeMeta());
		s.pushChunk('stdin', 10, framed(INIT));
		tail(s);
		s.mark({type: 'stdin-closed', tMs: 3010});
		s.endStream('stdout', 3020);
		s.exit({code: 0, signal: null, tMs: 3021});
		s.finish(3022);
		return s;
	}
	async function block(re: Session): Promise<string[]> {
		const main = new Session(makeMeta());
		main.finish(1);
		const {out, text} = collector();
		await createPresenter({
			mode: 'plain',
			isColor: false,
			hex: false,
			redact: false,
			redactPayloads: false,
			out,
		}).finish(main, re);
		await new Promise((resolve) => setImmediate(resolve));
		const lines = text().split('\n');
		const start = lines.indexOf('Content-Length re-probe (a fresh process, LSP-framed initialize):');
		return lines.slice(start + 1, lines.indexOf('', start));
	}

	it('a silent server: ends with the wait that found no reply, then the shutdown (it ended after the request)', async () => {
		const re = reprobe((s) => s.mark({type: 'timeout', id: 0, method: 'initialize', timeoutMs: 3000, tMs: 3005}));
		expect(await block(re)).toEqual([
			'   10.0 ms  C→S    80 B  request      id=0 initialize  [content-length, 2 lines]',
			' 3005.0 ms  ···  mcp-wire stopped waiting for initialize (id 0) after 3,000 ms',
			' 3010.0 ms  ···  stdin closed (EOF sent to the server)',
			' 3020.0 ms  ···  stdout closed by the server',
			' 3021.0 ms  ···  process exited, code 0',
		]);
	});

	it('a server that answered: its reply, no "no response" line for the wait a Content-Length reply ends', async () => {
		const re = reprobe((s) => {
			s.pushChunk('stdout', 500, framed('{"jsonrpc":"2.0","id":0,"result":{}}'));
			s.mark({type: 'timeout', id: 0, method: 'initialize', timeoutMs: 1000, tMs: 1000});
		});
		const lines = await block(re);
		expect(lines[1]).toMatch(
			/^ {2}500\.0 ms {2}S→C {4}\d+ B {2}response {5}id=0 initialize .*\[content-length, 2 lines\]$/,
		);
		expect(lines.slice(2)).toEqual([
			' 3010.0 ms  ···  stdin closed (EOF sent to the server)',
			' 3020.0 ms  ···  stdout closed by the server',
			' 3021.0 ms  ···  process exited, code 0',
		]);
	});
});
