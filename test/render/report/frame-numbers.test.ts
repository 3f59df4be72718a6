/**
 * The report numbers frames as `view` does (its frame log, `--json` and the TUI show `frame.index`, the
 * session-wide index that counts stderr lines too): each timeline row's number is the index of the frame
 * `view` shows with that direction, byte count and time, also when stderr lines come between them, and
 * the findings name the same frames. Checked on every example capture that has stderr lines.
 */
import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {decodeRecords} from '../../../src/core/capture/record-codec.js';
import {createReplay, replayEvents} from '../../../src/core/session/replay.js';
import {STREAM_LABEL} from '../../../src/core/types.js';
import {keepForReport} from '../../../src/render/report/keep.js';
import {buildReport} from '../../../src/render/report/markdown.js';

const CAPTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'captures');

/** The report `mcp-wire report` writes (a session that keeps nothing, keep.ts). */
function report(text: string): string {
	const decoded = decodeRecords(text);
	let keeper: ReturnType<typeof keepForReport> | undefined;
	const replay = createReplay(decoded.header!, {
		retain: false,
		onSession: (session) => (keeper = keepForReport(session, {maxLines: 150})),
	});
	for (const event of decoded.events) replay.feed(event);
	replay.finish();
	return buildReport(keeper!.snapshot(), {maxLines: 150, redact: false, toolVersion: 't', kept: keeper!.facts})
		.markdown;
}

describe("report frame numbers are view's", () => {
	const captures = readdirSync(CAPTURES)
		.filter((name) => name.endsWith('.ndjson'))
		.filter((name) =>
			replayEvents(
				decodeRecords(readFileSync(join(CAPTURES, name), 'utf8')).header!,
				decodeRecords(readFileSync(join(CAPTURES, name), 'utf8')).events,
			)
				.getSnapshot()
				.frames.some(
					(frame, i, all) => frame.stream === 'stderr' && all.slice(i + 1).some((next) => next.stream !== 'stderr'),
				),
		);
	it('has captures with a stderr line before a stdin/stdout frame', () => {
		expect(captures.length).toBeGreaterThan(3);
	});

	it.each(captures)('%s', (name) => {
		const text = readFileSync(join(CAPTURES, name), 'utf8');
		const decoded = decodeRecords(text);
		// What view shows: the frames of a replayed session, numbered by frame.index.
		const frames = replayEvents(decoded.header!, decoded.events).getSnapshot().frames;
		const markdown = report(text);
		const rows = [...markdown.matchAll(/^\| (\d+) \| ([\d.]+) \| (\S+) \| (\d+) \|/gm)].map((match) => ({
			index: Number(match[1]),
			ms: match[2],
			dir: match[3],
			bytes: Number(match[4]),
		}));
		expect(rows.length).toBeGreaterThan(0);
		for (const row of rows) {
			const frame = frames.find((candidate) => candidate.index === row.index);
			expect(frame, `row ${row.index}`).toBeDefined();
			expect([STREAM_LABEL[frame!.stream], frame!.byteLength]).toEqual([row.dir, row.bytes]);
		}

		// A stderr line before a row makes the numbers skip it, as view's numbers do.
		const shown = frames.filter((frame) => frame.stream !== 'stderr').slice(0, rows.length);
		expect(rows.map((row) => row.index)).toEqual(shown.map((frame) => frame.index));
		for (const match of markdown.matchAll(/· frame (\d+) ·/g)) {
			expect(frames.some((frame) => frame.index === Number(match[1]))).toBe(true);
		}
	});
});
