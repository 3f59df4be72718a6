import {describe, expect, it} from 'vitest';
import {createFramer} from '../../../src/core/framing/create-framer.js';
import {heldContentLengthFrame} from '../../../src/core/framing/held-reply.js';
import {Session} from '../../../src/core/session/session.js';
import {makeMeta} from '../../helpers/factories.js';

const BODY =
	'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"open-agreements","version":"0.9.2"}}}';
/** F18: Content-Length and Content-Type headers, no line end after the body. */
const F18 = `Content-Length: ${Buffer.byteLength(BODY)}\r\nContent-Type: application/json\r\n\r\n${BODY}`;
const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('heldContentLengthFrame', () => {
	it('names the complete reply the framer holds for the byte after its body (F18), whatever the reads were', () => {
		const held = heldContentLengthFrame(bytes(F18));
		expect(held).toMatchObject({
			framing: 'content-length',
			isJson: true,
			offset: 0,
			byteLength: Buffer.byteLength(F18),
			bodyOffset: Buffer.byteLength(F18) - Buffer.byteLength(BODY),
			bodyLength: Buffer.byteLength(BODY),
			terminator: 'length',
			lineCount: 3,
		});
		expect(held?.message).toEqual(JSON.parse(BODY));
		// The same bytes read in pieces: the real framer still holds them all (nothing emitted), as the probe sees it.
		const framer = createFramer('stdout', {mode: 'protocol'});
		let offset = 0;
		for (const piece of [F18.slice(0, 17), F18.slice(17, 60), F18.slice(60)]) {
			framer.push({seq: 0, stream: 'stdout', tMs: 0, offset, bytes: bytes(piece)}, () =>
				expect.unreachable('emitted before the next byte'),
			);
			offset += Buffer.byteLength(piece);
		}
		expect([framer.pendingOffset, framer.pendingBytes]).toEqual([0, Buffer.byteLength(F18)]);
	});

	it("F17's reply shape (one header, CR LF CR LF, the body) counts too", () => {
		const body = '{"jsonrpc":"2.0","id":0,"result":{}}';
		expect(heldContentLengthFrame(bytes(`Content-Length: ${body.length}\r\n\r\n${body}`))?.framing).toBe(
			'content-length',
		);
	});

	it('says nothing while the message is not complete: a partial header block, a partial body, a body that is not JSON', () => {
		expect(heldContentLengthFrame(bytes('Content-Length: 150\r\n'))).toBeUndefined();
		expect(
			heldContentLengthFrame(bytes('Content-Length: 150\r\nContent-Type: application/json\r\n\r\n')),
		).toBeUndefined();
		expect(heldContentLengthFrame(bytes(F18.slice(0, -1)))).toBeUndefined();
		expect(heldContentLengthFrame(bytes('Content-Length: 5\r\n\r\nhello'))).toBeUndefined();
	});

	it('says nothing for bytes that are not a Content-Length frame: a partial NDJSON line, a pretty-printed value still open', () => {
		expect(heldContentLengthFrame(bytes('{"jsonrpc":"2.0","id":0,"result":{}}'))).toBeUndefined();
		expect(heldContentLengthFrame(bytes('{\n  "jsonrpc": "2.0",\n'))).toBeUndefined();
		expect(heldContentLengthFrame(bytes('Server starting'))).toBeUndefined();
		expect(heldContentLengthFrame(new Uint8Array(0))).toBeUndefined();
	});
});

describe('a probe that stops at a held Content-Length reply', () => {
	const INIT =
		'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcp-wire","version":"0.1.0"}}}\n';
	/** The probe's record of an F18 server (fake clock, ms): waiting out the 30 s initialize wait, or stopping 500 ms after the reply. */
	function record(stopTMs: number, early: boolean): Session {
		const session = new Session(makeMeta());
		session.pushChunk('stdin', 1, bytes(INIT));
		session.pushChunk('stdout', 366, bytes(F18));
		if (early) session.mark({type: 'phase', name: 'content-length-reply', tMs: stopTMs});
		session.mark({type: 'timeout', id: 0, method: 'initialize', timeoutMs: early ? stopTMs - 1 : 30_000, tMs: stopTMs});
		session.mark({type: 'phase', name: 'shutdown', tMs: stopTMs + 1});
		session.mark({type: 'stdin-closed', tMs: stopTMs + 2});
		session.mark({type: 'eof', stream: 'stderr', tMs: stopTMs + 30});
		session.mark({type: 'eof', stream: 'stdout', tMs: stopTMs + 31});
		session.exit({code: 0, signal: null, tMs: stopTMs + 32});
		session.finish(stopTMs + 40);
		return session;
	}

	it('gives the verdict of the full wait: the same frame, the same findings, the same client outcomes', () => {
		const full = record(30_001, false).getSnapshot();
		const early = record(866, true).getSnapshot();
		const comparable = (snapshot: typeof full) => ({
			frames: snapshot.frames.map(({tMs, ...frame}) => frame),
			findings: snapshot.findings.map(({tMs, ...finding}) => finding),
			verdict: snapshot.summary.verdict,
			counts: [snapshot.summary.errors, snapshot.summary.warnings, snapshot.summary.infos],
			clients: snapshot.summary.clients,
		});
		expect(comparable(early)).toEqual(comparable(full));
		expect(early.findings.map((f) => [f.code, f.stream, f.offset, f.severity])).toEqual([
			['content-length-framing', 'stdout', 0, 'error'],
		]);
		expect(early.summary.verdict).toBe('fail');
		expect(early.summary.clients?.length).toBeGreaterThan(0);
	});
});
