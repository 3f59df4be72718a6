// The TUI's finding detail names client reactions in the words of the plain log and the report (newcomer pass:
// it said "Cursor: unknown, not established" and "skip-log").
import {describe, expect, it} from 'vitest';
import {dressFinding} from '../../../../src/core/findings/support/catalog.js';
import {findingDetailLines} from '../../../../src/render/tui/components/findings-pane.js';

describe('findingDetailLines', () => {
	it('says skip+log and not established, and a note that only repeats the reaction once', () => {
		const finding = dressFinding({code: 'crlf', stream: 'stdout', offset: 141, byteLength: 2, tMs: 10});
		const stray = dressFinding({
			code: 'stray-output',
			stream: 'stdout',
			offset: 0,
			byteLength: 34,
			tMs: 5,
			detail: {kind: 'banner'},
		});
		const text = (f: typeof finding) =>
			findingDetailLines(f, 200).map((segments) => segments.map((s) => s.text).join(''));
		expect(text(finding).slice(-1)).toEqual(['  Cursor: not established']);
		expect(text(stray).filter((line) => line.startsWith('  Python SDK') || line.startsWith('  Cursor'))).toEqual([
			'  Python SDK: skip+log, logs `Failed to parse JSONRPC message from server` and skips the line',
			'  Cursor: not established, 2025 builds log and skip; 2026 builds were seen failing the connection right after a parse error, in logs of servers that were also crashing',
		]);
	});
});
