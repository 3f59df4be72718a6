// `--json` lines are printed on terminals (`probe --json | less`, a CI log): C1 and bidi code points in a
// server's strings must not reorder or repaint them, and the line must stay valid JSON (style.md §1.3).
import {describe, expect, it} from 'vitest';
import {encodeEvent, encodeEventInPieces, encodeHeader} from '../../../src/core/capture/record-codec.js';
import {escapeJsonHazards} from '../../../src/core/bytes/glyphs.js';
import {makeFrame, makeMeta} from '../../helpers/factories.js';

const HOSTILE = 'ok\u202Egnp.exe\u009B31m\u0085\u2066x\u2069\uFEFF';
const RAW = /[\u0080-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/;

describe('--json escapes C1 and bidi code points', () => {
	it('escapeJsonHazards writes each as \\uXXXX and parses back to the same value', () => {
		const json = escapeJsonHazards(JSON.stringify({text: HOSTILE}));
		expect(json).toBe(String.raw`{"text":"ok\u202egnp.exe\u009b31m\u0085\u2066x\u2069\ufeff"}`);
		expect(JSON.parse(json)).toEqual({text: HOSTILE});
	});

	it('a frame record and the session header carry none raw', () => {
		const frame = makeFrame({stream: 'stderr', text: HOSTILE, byteLength: 33});
		const line = encodeEvent({type: 'frame', frame});
		expect(line).not.toMatch(RAW);
		expect(line).toContain(String.raw`ok\u202egnp.exe\u009b31m`);
		expect((JSON.parse(line) as {text: string}).text).toBe(HOSTILE);
		const header = encodeHeader(makeMeta({command: ['node', HOSTILE], cwd: `/tmp/${HOSTILE}`}));
		expect(header).not.toMatch(RAW);
		expect(JSON.parse(header)).toMatchObject({command: ['node', HOSTILE], cwd: `/tmp/${HOSTILE}`});
	});

	it('a long frame written in pieces carries none raw either', () => {
		const text = `${'a'.repeat(70_000)}${HOSTILE}${'b'.repeat(70_000)}`;
		const pieces: string[] = [];
		encodeEventInPieces({type: 'frame', frame: makeFrame({stream: 'stderr', text, byteLength: 140_033})}, (piece) =>
			pieces.push(typeof piece === 'string' ? piece : Buffer.from(piece).toString('utf8')),
		);
		const line = pieces.join('');
		expect(line).not.toMatch(RAW);
		expect((JSON.parse(line) as {text: string}).text).toBe(text);
	});
});
