/**
 * Report goldens of real probes (docs/cli.md#report): one `--json` dump per example server, recorded by
 * scripts/record-example-captures.mjs into test/fixtures/captures/<name>.ndjson, rendered as
 * `mcp-wire report` does (decode → replay → render, redaction on, fixed tool version) and compared with
 * test/golden/report/examples/<name>.md. Each report must also fit one screen of a GitHub issue and show
 * the first fault and its bytes outside any `<details>`.
 */
import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {decodeRecords} from '../../../src/core/capture/record-codec.js';
import {replayEvents} from '../../../src/core/session/replay.js';
import type {StreamName} from '../../../src/core/types.js';
import {expectGolden, reportFromCapture} from './golden.js';

interface ManifestEntry {
	readonly name: string;
	readonly expect: readonly {readonly code: string; readonly stream: string; readonly offset: number | null}[];
	readonly verdict: 'ok' | 'warn' | 'fail';
}

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CAPTURES = join(ROOT, 'test', 'fixtures', 'captures');
/** An absolute path into a home, temp or checkout directory (the recorder rewrites the repo root to `<repo>`). */
const LOCAL_PATH = /(?:^|[\s"'(=])\/(?:home|root|Users|work|tmp|private|var\/folders)\/|[A-Z]:\\/;
const manifest = JSON.parse(
	readFileSync(join(ROOT, 'examples', 'servers', 'manifest.json'), 'utf8'),
) as ManifestEntry[];

/** One row of the report's findings table. */
interface TableRow {
	readonly code: string;
	readonly stream: string;
	readonly offset: number;
}

/** The report without its `<details>…</details>` regions (what GitHub shows before anything is expanded). */
function visiblePart(report: string): string[] {
	const visible: string[] = [];
	let depth = 0;
	for (const line of report.split('\n')) {
		if (line === '<details>') depth += 1;
		if (depth === 0) visible.push(line);
		if (line === '</details>') depth -= 1;
	}

	expect(depth, 'every <details> is closed').toBe(0);
	return visible;
}

/**
 * The rows of the findings table (`| # | code | severity | stream | offset | frame |`), in order; a row may
 * group a run of one code (`| 1–10 | `stray-output` ×10 | … | 0 (0x0) … 367 (0x16f) | 1–10 |`).
 */
function findingsTable(lines: readonly string[]): TableRow[] {
	const start = lines.indexOf('| # | code | severity | stream | offset | frame |');
	if (start === -1) return [];
	const rows: TableRow[] = [];
	for (const line of lines.slice(start + 2)) {
		if (!line.startsWith('|')) break;
		const match =
			/^\| \d+(?:–\d+)? \| `([a-z0-9-]+)`(?: ×\d+)? \| \w+ \| (stdin|stdout|stderr) \S+ \| ([\d,]+) \(0x[0-9a-f]+\)(?: … [\d,]+ \(0x[0-9a-f]+\))? \| [^|]+ \|$/.exec(
				line,
			);
		expect(match, `findings table row ${line}`).not.toBeNull();
		rows.push({code: match![1]!, stream: match![2]!, offset: Number(match![3]!.replaceAll(',', ''))});
	}

	return rows;
}

/** The lines of finding block `number` (`**1. \`code\`…` up to the next block or section), from `lines`. */
function findingBlock(lines: readonly string[], number: number, code: string): string[] {
	const start = lines.findIndex((line) => line.startsWith(`**${number}. \`${code}\``));
	expect(start, `block ${number} (${code}) is visible`).toBeGreaterThanOrEqual(0);
	const end = lines.findIndex(
		(line, index) => index > start && (/^\*\*(\d+\. `|Frame timeline|stderr)/.test(line) || line === '---'),
	);
	return lines.slice(start, end === -1 ? undefined : end);
}

/** xxd row addresses (`00000090: 2231 …`) inside ```` ```text ```` fences of `lines`. */
function xxdRows(lines: readonly string[]): string[] {
	const rows: string[] = [];
	let isFenced = false;
	for (const line of lines) {
		if (/^`{3,}text$/.test(line)) isFenced = true;
		else if (/^`{3,}$/.test(line)) isFenced = false;
		else if (isFenced && /^[0-9a-f]{8}: [0-9a-f]{2}/.test(line)) rows.push(line.slice(0, 8));
	}

	return rows;
}

describe('example captures (test/fixtures/captures)', () => {
	it('there is exactly one capture per manifest entry', () => {
		const files = readdirSync(CAPTURES)
			.filter((file) => file.endsWith('.ndjson'))
			.sort();
		expect(files).toEqual(manifest.map((entry) => `${entry.name}.ndjson`).sort());
	});

	it.each(manifest.map((entry) => [entry.name, entry] as const))(
		'%s replays to the manifest findings, with no local path in it',
		(name, entry) => {
			const text = readFileSync(join(CAPTURES, `${name}.ndjson`), 'utf8');
			const decoded = decodeRecords(text);
			expect(decoded.problems).toEqual([]);
			expect(decoded.isTruncated).toBe(false);
			// No path of the recording machine, in the records or in the captured bytes (base64).
			const bytes = decoded.events.flatMap((event) =>
				event.type === 'chunk' ? [Buffer.from(event.chunk.bytes).toString('latin1')] : [],
			);
			for (const part of [text, ...bytes]) {
				expect(part).not.toMatch(LOCAL_PATH);
			}

			const snapshot = replayEvents(decoded.header!, decoded.events).getSnapshot();
			const found = snapshot.findings.map((finding) => `${finding.code}@${finding.stream}:${finding.offset}`).sort();
			const expected = entry.expect
				.map((item) => {
					// A null offset depends on timing (manifest note): take the recorded one for that code and stream.
					const offset =
						item.offset ??
						snapshot.findings.find((finding) => finding.code === item.code && finding.stream === item.stream)?.offset;
					return `${item.code}@${item.stream}:${offset}`;
				})
				.sort();
			expect(found).toEqual(expected);
			expect(snapshot.summary.verdict).toBe(entry.verdict);
		},
	);
});

describe('report goldens: every example server, from a real probe', () => {
	it.each(manifest.map((entry) => [entry.name, entry] as const))('%s', (name, entry) => {
		const text = readFileSync(join(CAPTURES, `${name}.ndjson`), 'utf8');
		const report = reportFromCapture(text);
		const lines = report.split('\n');
		expect(lines.at(-1)).toBe('');
		lines.pop();

		// One screen of a GitHub issue, verdict first, no ANSI or other control bytes besides LF.
		expect(lines.length).toBeLessThanOrEqual(150);
		expect(lines[0]).toMatch(new RegExp(`^\\*\\*mcp-wire: ${entry.verdict.toUpperCase()}\\*\\* · `));
		expect(report).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);

		// The findings table names exactly the codes the manifest expects.
		const visible = visiblePart(report);
		const table = findingsTable(visible);
		expect(new Set(table.map((row) => row.code))).toEqual(new Set(entry.expect.map((item) => item.code)));

		if (entry.expect.length > 0) {
			// The first finding, its code and its bytes (an xxd row holding its offset) without expanding
			// anything. A finding about bytes that never came, on a stream that stayed empty, has no bytes
			// to show: its block says where instead.
			const first = table[0]!;
			const block = findingBlock(visible, 1, first.code);
			expect(lines[0]).toContain(`\`${first.code}\``);
			const row = (Math.floor(first.offset / 16) * 16).toString(16).padStart(8, '0');
			const decoded = decodeRecords(text);
			const streamBytes = replayEvents(decoded.header!, decoded.events).getSnapshot().summary.streams[
				first.stream as StreamName
			].bytes;
			if (first.code === 'content-length-framing' && streamBytes === 0) {
				// The evidence crossed the pipe of the re-probed process: its reply's first bytes are shown.
				expect(block.join('\n')).toContain(
					'Where: a fresh process probed with a Content-Length-framed initialize answered on its stdout',
				);
				expect(xxdRows(block)).toContain('00000000');
			} else if (streamBytes === 0) {
				expect(block.join('\n')).toContain(`Where: ${first.stream}, which stayed empty (0 bytes).`);
			} else {
				expect(xxdRows(block), `xxd row ${row} of ${first.code}`).toContain(row);
			}
		}

		expectGolden(`examples/${name}`, report);
	});
});
