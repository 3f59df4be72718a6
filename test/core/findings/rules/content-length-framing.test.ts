import {describe, expect, it} from 'vitest';
import {dressFinding} from '../../../../src/core/findings/support/catalog.js';
import {INIT, run} from '../harness.js';

describe('content-length-framing (L1–L6)', () => {
	it('a header whose body never fully arrives: the missing byte count, and not also missing-newline', () => {
		const cut = 'Content-Length: 180\r\n\r\n{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25",';
		const session = run([
			['stdin', 0, INIT],
			['stdout', 8, cut],
		]);
		const findings = session.getSnapshot().findings;
		// The initialize reply never arrived, so initialize is unanswered; nothing says missing-newline.
		expect(findings.map((f) => `${f.code}@${f.stream}:${f.offset}`)).toEqual([
			'content-length-framing@stdout:0',
			'unanswered-request@stdin:0',
		]);
		const [finding] = findings;
		const body = cut.length - 23;
		expect(finding).toMatchObject({
			severity: 'error',
			byteLength: 23,
			detail: {declaredLength: 180, bodyLength: body, bodyEnd: 'eof', missingBytes: 180 - body},
		});
		expect(finding!.message).toBe(
			`a Content-Length header block on stdout; MCP stdio is newline-delimited JSON. Its body never fully arrived: ${180 - body} of the 180 declared bytes are missing`,
		);
	});

	it('a server that answers only Content-Length input (re-probe): every client sees a silent server, none logs header lines', () => {
		const draft = {
			code: 'content-length-framing' as const,
			stream: 'stdout' as const,
			offset: 0,
			byteLength: 0,
			tMs: 3000,
		};
		const reprobe = dressFinding({...draft, detail: {reprobe: true}});
		expect(reprobe.message).toBe(
			'the server answers only Content-Length-framed input; MCP stdio is newline-delimited JSON',
		);
		expect(reprobe.impact.map((i) => `${i.client} ${i.reaction}: ${i.note}`)).toEqual([
			'ts-sdk-v1 hang: `Request timed out` after 60 s; Claude Code fails after 30 s',
			'ts-sdk-v2 hang: times out',
			'python-sdk hang: waits forever',
			'vscode hang: waits',
			'rmcp hang: waits',
			'cursor hang: times out',
		]);
		// Headers written to the client: it logs them (the TS SDK's JSON.parse error).
		expect(dressFinding(draft).impact[0]).toEqual({
			client: 'ts-sdk-v1',
			reaction: 'hang',
			note: 'logs `Unexpected token \'C\', "Content-Le"...` and `Unexpected end of JSON input`; connect times out',
		});
	});
});
