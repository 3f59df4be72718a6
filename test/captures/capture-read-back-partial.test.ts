import {Buffer} from 'node:buffer';
import * as fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterAll, describe, expect, it, vi} from 'vitest';
import {encodeEvent, encodeHeader} from '../../src/core/capture/record-codec.js';
import {CaptureBytesReader} from '../../src/captures/capture-read-back.js';
import {makeMeta} from '../helpers/factories.js';

// Counts the bytes the reader asks the file for (docs/performance.md#tui-on-big-captures: the TUI's hex pane shows a few hundred
// bytes of a 5 MB frame; the 7 MB record line is no longer read and decoded whole for each of them).
const asked = vi.hoisted(() => ({bytes: 0}));
vi.mock('node:fs', async (importOriginal) => {
	const real = await importOriginal<typeof import('node:fs')>();
	return {
		...real,
		readSync: ((
			fd: number,
			buffer: NodeJS.ArrayBufferView,
			offset: number,
			length: number,
			position: number | null,
		) => {
			asked.bytes += length;
			return real.readSync(fd, buffer, offset, length, position);
		}) as typeof real.readSync,
	};
});

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-wire-read-back-partial-'));
afterAll(() => fs.rmSync(dir, {recursive: true, force: true}));

describe('reading back a few bytes of a big chunk record (format 1)', () => {
	const data = Uint8Array.from({length: 5_000_000}, (_, i) => (i * 31 + 7) & 0xff);
	const file = path.join(dir, 'huge.ndjson');
	const lines = [
		encodeHeader(makeMeta({mode: 'tap'})),
		encodeEvent({type: 'chunk', chunk: {seq: 0, stream: 'stdout', tMs: 1, offset: 0, bytes: data}}),
	];
	fs.writeFileSync(file, `${lines.join('\n')}\n`);

	it('checks the record whole once, then reads only the base64 of the bytes wanted', () => {
		const reader = new CaptureBytesReader(file);
		try {
			asked.bytes = 0;
			const first = reader.read('stdout', 1_000_000, 512);
			expect(Buffer.from(first).equals(Buffer.from(data.subarray(1_000_000, 1_000_512)))).toBe(true);
			// The scan from the first record, the record's head, its whole base64 once (6.7 MB, in 1 MiB blocks), the quads wanted.
			expect(asked.bytes).toBeLessThan(6_666_668 + 3 * 1024 * 1024);
			for (const at of [0, 2_500_001, 4_999_000]) {
				asked.bytes = 0;
				const got = reader.read('stdout', at, 1000);
				expect(Buffer.from(got).equals(Buffer.from(data.subarray(at, at + 1000)))).toBe(true);
				// One block read from the record's start, its head, its end, and ~1,336 base64 characters: not the 6.7 MB line.
				expect(asked.bytes).toBeLessThan(1024 * 1024 + 16 * 1024);
			}
		} finally {
			reader.close();
		}
	});
});
