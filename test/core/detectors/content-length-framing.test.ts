import {describe, expect, it} from 'vitest';
import {INIT, run} from './harness.js';

describe('content-length-framing (L1–L6)', () => {
	it('a header whose body never fully arrives: the missing byte count, and not also missing-newline', () => {
		const cut = 'Content-Length: 180\r\n\r\n{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25",';
		const session = run([
			['stdin', 0, INIT],
			['stdout', 8, cut],
		]);
		const findings = session.getSnapshot().findings;
		// The initialize reply never arrived, so initialize is unanswered; nothing says missing-newline.
		expect(findings.map((f) => `${f.code}@${f.stream}:${f.offset}`)).toEqual(['content-length-framing@stdout:0', 'unanswered-request@stdin:0']);
		const [finding] = findings;
		const body = cut.length - 23;
		expect(finding).toMatchObject({severity: 'error', byteLength: 23, detail: {declaredLength: 180, bodyLength: body, bodyEnd: 'eof', missingBytes: 180 - body}});
		expect(finding!.message).toBe(
			`a Content-Length header block on stdout; MCP stdio is newline-delimited JSON. Its body never fully arrived: ${180 - body} of the 180 declared bytes are missing`,
		);
	});
});
