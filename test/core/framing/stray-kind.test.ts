import {describe, expect, it} from 'vitest';
import {classifyStrayLine, readEscapeSequence, stripAnsiSequences} from '../../../src/core/framing/index.js';
import {bytes} from './framer-harness.js';

const before = {hasLoneCr: false, seenJson: false};
const after = {hasLoneCr: false, seenJson: true};

describe('classifyStrayLine (stray-output detail.kind, R5)', () => {
	it.each([
		['> mcp-server@1.2.0 start', 'launcher'],
		['> tsc && node dist/index.js', 'launcher'],
		['[dotenv@17.2.3] injecting env (0) from .env -- tip: ⚙️  write to custom object', 'launcher'],
		['Activating virtual environment...', 'launcher'],
		['Warning: no virtual environment found, using system python', 'launcher'],
		['Now using node v18.20.4 (npm v10.7.0)', 'launcher'],
		["Found '/home/u/app/.nvmrc' with version <20>", 'launcher'],
		['npm WARN exec The following package was not found and will be installed: x@1', 'launcher'],
		['Installed 12 packages in 9ms', 'launcher'],
		['2025-06-09 21:38:09,942 - src.log_utils - INFO - Logging initialized', 'log'],
		['[2026-01-02T03:04:05.678Z] connected', 'log'],
		['[INFO] started', 'log'],
		['info: Microsoft.Hosting.Lifetime[14]', 'log'],
		['INFO:root:ready', 'log'],
		['WARN deprecated option', 'log'],
		['ERROR - could not open db', 'log'],
		['time="2026-01-02T03:04:05Z" level=info msg=ready', 'log'],
		['\u001B[33m[2026-01-02 10:00:00] colour\u001B[0m', 'log'],
		['45%|████▌     | 45/100', 'progress'],
		['Downloading [=====>    ] 50%', 'progress'],
		['STDIO MCP Server started', 'banner'],
		['[db] Connected to /tmp/x.db', 'banner'],
		['Azure DevOps MCP Server version : 1.2.3', 'banner'],
	])('%j before any JSON frame is %s', (text, kind) => {
		expect(classifyStrayLine(text, before)).toBe(kind);
	});

	it('a line with a lone CR is progress; launcher and log take precedence', () => {
		expect(classifyStrayLine('10%\r20%', {hasLoneCr: true, seenJson: true})).toBe('progress');
		expect(classifyStrayLine('[INFO] 10%\r20%', {hasLoneCr: true, seenJson: true})).toBe('log');
		expect(classifyStrayLine('> build\rdone', {hasLoneCr: true, seenJson: true})).toBe('launcher');
	});

	it('plain text after the first JSON frame is text; log shapes stay log', () => {
		expect(classifyStrayLine('STDIO MCP Server started', after)).toBe('text');
		expect(classifyStrayLine('[INFO] started', after)).toBe('log');
	});
});

describe('escape sequences', () => {
	it('reads CSI, OSC (BEL and ST), DCS, two-byte and cut sequences', () => {
		const read = (text: string): unknown => {
			const b = bytes(text);
			return readEscapeSequence(b, 0, b.length);
		};

		expect(read('\u001B[1;31mX')).toEqual({kind: 'CSI', length: 7, isComplete: true, isPrivate: false});
		expect(read('\u001B[?1049h')).toEqual({kind: 'CSI', length: 8, isComplete: true, isPrivate: true});
		expect(read('\u001B]0;t\u0007x')).toEqual({kind: 'OSC', length: 6, isComplete: true, isPrivate: false});
		expect(read('\u001B]8;;u\u001B\\x')).toEqual({kind: 'OSC', length: 8, isComplete: true, isPrivate: false});
		expect(read('\u001BPq#0\u001B\\')).toEqual({kind: 'DCS', length: 7, isComplete: true, isPrivate: false});
		expect(read('\u001B7')).toEqual({kind: 'ESC', length: 2, isComplete: true, isPrivate: false});
		expect(read('\u001B(B')).toEqual({kind: 'ESC', length: 3, isComplete: true, isPrivate: false});
		expect(read('\u001B[12')).toEqual({kind: 'CSI', length: 4, isComplete: false, isPrivate: false});
		expect(read('\u001B')).toEqual({kind: 'ESC', length: 1, isComplete: false, isPrivate: false});
	});

	it('strips sequences for classification', () => {
		expect(stripAnsiSequences('\u001B[33mA\u001B[0m \u001B]0;t\u0007B')).toBe('A B');
		expect(stripAnsiSequences('plain')).toBe('plain');
	});
});
