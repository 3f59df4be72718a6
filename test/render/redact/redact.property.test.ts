import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {encodeEvent, encodeHeader} from '../../../src/core/capture/record-codec.js';
import {Session} from '../../../src/core/session/session.js';
import type {Chunk, SessionEvent, SessionSnapshot, StreamName} from '../../../src/core/types.js';
import {buildReport, renderReport} from '../../../src/render/report/markdown.js';
import {keepForReport} from '../../../src/render/report/keep.js';
import {createEventRedactor, type RedactOptions} from '../../../src/render/redact/index.js';
import {orderFindings} from '../../../src/render/report/sections/context.js';
import {goldenMeta, sessionFrom, type Step} from '../report/golden.js';

const STREAMS: readonly StreamName[] = ['stdin', 'stdout', 'stderr'];
const ALNUM = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];
const UPPER_DIGIT = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];
const B64URL = [...ALNUM, '-', '_'];
const CONSONANTS = [...'bcdfghjkmnpqrstvwxz'];

const chars = (units: readonly string[], minLength: number, maxLength: number): fc.Arbitrary<string> =>
	fc.string({unit: fc.constantFrom(...units), minLength, maxLength});

/** A secret with a well-known shape, and how many leading characters are a public prefix the report may keep. */
interface Shaped {
	readonly value: string;
	readonly keep: number;
}

const shaped: fc.Arbitrary<Shaped> = fc.oneof(
	chars(ALNUM, 36, 36).map((body) => ({value: `ghp_${body}`, keep: 4})),
	chars([...ALNUM, '_'], 22, 40).map((body) => ({value: `github_pat_${body}`, keep: 11})),
	chars([...ALNUM, '-'], 10, 30).map((body) => ({value: `xoxb-${body}`, keep: 5})),
	chars(UPPER_DIGIT, 16, 16).map((body) => ({value: `AKIA${body}`, keep: 4})),
	chars(B64URL, 30, 60).map((body) => ({value: `sk-ant-api03-${body}`, keep: 7})),
	chars(ALNUM, 40, 48).map((body) => ({value: `sk-${body}`, keep: 3})),
	fc
		.tuple(chars(B64URL, 10, 40), chars(B64URL, 10, 40), chars(B64URL, 10, 40))
		.map(([a, b, c]) => ({value: `eyJ${a}.eyJ${b}.${c}`, keep: 3})),
	fc.tuple(chars(B64URL, 22, 22), chars(B64URL, 43, 43)).map(([a, b]) => ({value: `SG.${a}.${b}`, keep: 3})),
	fc
		.tuple(fc.integer({min: 100_000_000, max: 999_999_999}), chars(B64URL, 35, 35))
		.map(([id, body]) => ({value: `${id}:AA${body.slice(2)}`, keep: 0})),
	chars(B64URL, 40, 80).map((body) => ({value: `ya29.${body}`, keep: 5})),
	chars(B64URL, 28, 28).map((body) => ({value: `GOCSPX-${body}`, keep: 7})),
	chars([...'0123456789abcdef'], 64, 64).map((body) => ({value: `dop_v1_${body}`, keep: 7})),
	chars(ALNUM, 46, 46).map((body) => ({value: `ntn_${body}`, keep: 4})),
	// A token wrapped in base64 (a config blob): the whole run is the secret.
	chars(ALNUM, 36, 36).map((body) => ({
		value: Buffer.from(`{"token":"ghp_${body}"}`).toString('base64').replaceAll('=', ''),
		keep: 0,
	})),
);

/** A random secret value with a digit (as real tokens and passwords have). */
const named = fc.tuple(chars(ALNUM, 9, 20), fc.integer({min: 0, max: 9})).map(([body, digit]) => `${body}${digit}`);
const user = chars(CONSONANTS, 6, 9).map((name) => `u${name}`);

interface Seeded {
	readonly user: string;
	readonly envSecret: string;
	readonly argSecret: string;
	readonly flagSecret: string;
	readonly stderrSecret: string;
	readonly frameSecret: string;
	readonly bearer: string;
	readonly shapes: readonly [Shaped, Shaped, Shaped, Shaped];
	/** Cut points (fractions) for each stream's bytes, so secrets get split across reads. */
	readonly cuts: readonly [readonly number[], readonly number[], readonly number[]];
	readonly payloads: boolean;
}

const cutList = fc.array(fc.double({min: 0.001, max: 0.999, noNaN: true}), {maxLength: 12});

const seeded: fc.Arbitrary<Seeded> = fc.record({
	user,
	envSecret: named,
	argSecret: named,
	flagSecret: named,
	stderrSecret: named,
	frameSecret: named,
	bearer: chars([...ALNUM, '.', '_', '-'], 20, 40).map((body) => `Z${body}9`),
	shapes: fc.tuple(shaped, shaped, shaped, shaped),
	cuts: fc.tuple(cutList, cutList, cutList),
	payloads: fc.boolean(),
});

/** The bytes of each stream and the session facts for one seeded case. */
function build(seed: Seeded): {
	meta: ReturnType<typeof goldenMeta>;
	streams: Record<StreamName, Uint8Array>;
	options: RedactOptions;
	secrets: Shaped[];
} {
	const home = `/home/${seed.user}`;
	const [s1, s2, s3, s4] = seed.shapes;
	const stdin =
		'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}\n' +
		'{"jsonrpc":"2.0","method":"notifications/initialized"}\n' +
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"login","arguments":{"password":"${seed.frameSecret}","note":"key ${s4.value} here"}}}\n`;
	const stdout =
		`Using key ${s1.value} for ${home}/data\n` +
		'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"srv","version":"1.0.0"}}}\n' +
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"token ${s2.value} arg ${seed.argSecret} env ${seed.envSecret} flag ${seed.flagSecret}"}]}}\n`;
	const stderr =
		`API_KEY=${seed.stderrSecret} home=${home}\n` +
		`env ${seed.envSecret} and ${s3.value}\n` +
		`Authorization: Bearer ${seed.bearer}\n` +
		`again ${seed.stderrSecret} by ${seed.user}\n`;
	const meta = goldenMeta({
		command: ['node', `${home}/srv/index.js`, '--token', seed.argSecret, `--api-key=${seed.flagSecret}`],
		cwd: `${home}/srv`,
		envKeys: ['GITHUB_TOKEN'],
	});
	const encode = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'utf8'));
	const secrets: Shaped[] = [
		...seed.shapes,
		...[seed.envSecret, seed.argSecret, seed.flagSecret, seed.stderrSecret, seed.frameSecret, seed.bearer].map(
			(value) => ({value, keep: 0}),
		),
	];
	return {
		meta,
		streams: {stdin: encode(stdin), stdout: encode(stdout), stderr: encode(stderr)},
		// The capture's header claims another home; the viewer's own (in the bytes) must still be hidden.
		options: {
			home: '/home/mallory',
			user: 'mallory',
			also: [{home, user: seed.user}],
			env: {GITHUB_TOKEN: seed.envSecret, PATH: '/usr/bin'},
			payloads: seed.payloads,
		},
		secrets,
	};
}

/** Splits a stream at the seeded cut points and schedules the reads (stdin first, then stdout and stderr interleaved). */
function steps(streams: Record<StreamName, Uint8Array>, cuts: Seeded['cuts']): Step[] {
	const out: Step[] = [];
	STREAMS.forEach((stream, k) => {
		const bytes = streams[stream];
		const points = [...new Set(cuts[k]!.map((fraction) => Math.floor(fraction * bytes.length)))]
			.filter((point) => point > 0 && point < bytes.length)
			.sort((a, b) => a - b);
		const bounds = [0, ...points, bytes.length];
		for (let i = 0; i + 1 < bounds.length; i++) {
			out.push({tMs: 1 + k * 0.1 + i, stream, bytes: bytes.slice(bounds[i], bounds[i + 1])});
		}
	});
	out.push({tMs: 100, mark: {type: 'stdin-closed', tMs: 100}}, {tMs: 101, exit: {code: 0, signal: null}});
	return out;
}

/** Positions of every occurrence of `needle` in `haystack` (byte strings). */
function occurrences(haystack: string, needle: string): number[] {
	const at: number[] = [];
	for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + 1)) {
		at.push(i);
	}

	return at;
}

/**
 * Every xxd row the report shows, with the stream named by the caption above its fence:
 * `{stream, offset, bytes}`.
 */
function hexRowsOf(report: string): Array<{stream: StreamName; offset: number; bytes: number[]}> {
	const rows: Array<{stream: StreamName; offset: number; bytes: number[]}> = [];
	let stream: StreamName | undefined;
	let isInFence = false;
	for (const line of report.split('\n')) {
		const caption = /^(?:Bytes at (stdin|stdout|stderr) offset|Where: .*?\b(stdin|stdout|stderr)\b)/.exec(line);
		if (caption !== null) {
			stream = (caption[1] ?? caption[2]) as StreamName;
		}

		if (/^`{3,}text$/.test(line)) {
			isInFence = stream !== undefined;
			continue;
		}

		if (/^`{3,}$/.test(line)) {
			isInFence = false;
			stream = undefined;
			continue;
		}

		const row = /^([0-9a-f]{8}): (.{39}) {2}/.exec(line);
		if (isInFence && stream !== undefined && row !== null) {
			const hex = row[2]!.replaceAll(' ', '');
			rows.push({
				stream,
				offset: Number.parseInt(row[1]!, 16),
				bytes: (hex.match(/../g) ?? []).map((pair) => Number.parseInt(pair, 16)),
			});
		}
	}

	return rows;
}

function checkReport(report: string, original: SessionSnapshot, secrets: readonly Shaped[], seed: Seeded): void {
	// 1. No secret survives anywhere in the text (a public prefix such as `ghp_` may).
	for (const secret of secrets) {
		expect(report).not.toContain(secret.value);
		expect(report).not.toContain(secret.value.slice(secret.keep));
	}

	expect(report).not.toContain(seed.user);

	// 2. Every hex row sits at its true stream offset, each shown byte is the captured one or a mask, and
	// every byte of a secret (past its public prefix) is masked.
	const rows = hexRowsOf(report);
	expect(rows.length).toBeGreaterThan(0);
	for (const row of rows) {
		const captured = original.bytes(row.stream, row.offset, 16);
		expect(row.offset % 16).toBe(0);
		expect(row.bytes.length).toBe(captured.length);
		const text = Buffer.from(original.bytes(row.stream, 0, original.streamLength(row.stream))).toString('latin1');
		const secretBytes = new Set<number>();
		for (const secret of [...secrets, {value: seed.user, keep: 0}]) {
			const needle = Buffer.from(secret.value, 'utf8').toString('latin1');
			for (const start of occurrences(text, needle)) {
				for (let p = start + secret.keep; p < start + needle.length; p++) {
					secretBytes.add(p);
				}
			}
		}

		row.bytes.forEach((byte, i) => {
			expect([captured[i], 0x2a]).toContain(byte);
			if (secretBytes.has(row.offset + i)) {
				expect(byte).toBe(0x2a);
			}
		});
	}

	// 3. Offsets and byte counts in the table, the captions and the timeline are the capture's.
	const ordered = orderFindings(original.findings);
	for (const match of report.matchAll(
		/^\| (\d+) \| `([a-z-]+)` \| \w+(?: \(inferred\))? \| (\w+) \S+ \| ([\d,]+) \(0x[0-9a-f]+\) \|/gm,
	)) {
		const finding = ordered[Number(match[1]) - 1]!;
		expect([finding.code, finding.stream, finding.offset]).toEqual([
			match[2],
			match[3],
			Number(match[4]!.replaceAll(',', '')),
		]);
	}

	for (const match of report.matchAll(/^Bytes at (\w+) offset ([\d,]+) \(0x[0-9a-f]+\), ([\d,]+) bytes?:/gm)) {
		const [stream, offset, length] = [
			match[1],
			Number(match[2]!.replaceAll(',', '')),
			Number(match[3]!.replaceAll(',', '')),
		];
		expect(
			original.findings.some(
				(finding) => finding.stream === stream && finding.offset === offset && finding.byteLength === length,
			),
		).toBe(true);
	}

	let timelineRows = 0;
	for (const match of report.matchAll(/^\| (\d+) \| [\d,.]+ \| (?:C→S|S→C) \| ([\d,]+) \|/gm)) {
		timelineRows++;
		expect(original.frames[Number(match[1])]!.byteLength).toBe(Number(match[2]!.replaceAll(',', '')));
	}

	expect(timelineRows).toBe(original.frames.filter((frame) => frame.stream !== 'stderr').length);
}

describe('redaction (property): seeded secrets never survive, offsets and byte counts stay true', () => {
	it('in the report', () => {
		fc.assert(
			fc.property(seeded, (seed) => {
				const {meta, streams, options, secrets} = build(seed);
				const original = sessionFrom(meta, steps(streams, seed.cuts)).getSnapshot();
				const report = renderReport(original, {maxLines: 2000, toolVersion: '0.1.0', redact: options});
				checkReport(report, original, secrets, seed);
			}),
			{numRuns: 60},
		);
	});

	it('in the report of a capture (mcp-wire report: only the kept parts are redacted)', () => {
		fc.assert(
			fc.property(seeded, (seed) => {
				const {meta, streams, options, secrets} = build(seed);
				const session = new Session(meta);
				const keeper = keepForReport(session, {maxLines: 2000});
				for (const step of steps(streams, seed.cuts)) {
					if ('stream' in step) session.pushChunk(step.stream, step.tMs, step.bytes as Uint8Array);
					else if ('mark' in step) session.mark(step.mark);
					else session.exit({...step.exit, tMs: step.tMs});
				}

				session.finish(101);
				const report = buildReport(keeper.snapshot(), {
					kept: keeper.facts,
					maxLines: 2000,
					toolVersion: '0.1.0',
					redact: options,
				}).markdown;
				for (const secret of secrets) {
					expect(report).not.toContain(secret.value);
					expect(report).not.toContain(secret.value.slice(secret.keep));
				}

				expect(report).not.toContain(seed.user);
			}),
			{numRuns: 40},
		);
	});

	it('in --json --redact records, which replay to the same frames', () => {
		fc.assert(
			fc.property(seeded, (seed) => {
				const {meta, streams, options, secrets} = build(seed);
				const events: SessionEvent[] = [];
				const session = new Session(meta);
				session.on((event) => events.push(event));
				for (const step of steps(streams, seed.cuts)) {
					if ('stream' in step) {
						session.pushChunk(step.stream, step.tMs, step.bytes as Uint8Array);
					} else if ('mark' in step) {
						session.mark(step.mark);
					} else {
						session.exit({...step.exit, tMs: step.tMs});
					}
				}

				session.finish(101);
				const redactor = createEventRedactor(options);
				const lines = [encodeHeader(redactor.meta(meta))];
				const masked: Record<StreamName, Uint8Array[]> = {stdin: [], stdout: [], stderr: []};
				const replay = new Session(meta);
				const released = [...events.flatMap((event) => redactor.push(event)), ...redactor.end()];
				expect(released.map((event) => event.type)).toEqual(events.map((event) => event.type));
				for (const [at, shown] of released.entries()) {
					const event = events[at]!;
					lines.push(encodeEvent(shown));
					if (shown.type === 'chunk') {
						const chunk: Chunk = shown.chunk;
						expect(chunk.offset).toBe(event.type === 'chunk' ? event.chunk.offset : -1);
						masked[chunk.stream].push(chunk.bytes);
						replay.pushChunk(chunk.stream, chunk.tMs, chunk.bytes);
					} else if (shown.type === 'mark') {
						replay.mark(shown.mark);
					} else if (shown.type === 'exit') {
						replay.exit(shown.exit);
					}
				}

				replay.finish(101);
				const dump = lines.join('\n');
				for (const stream of STREAMS) {
					const before = streams[stream];
					const after = Buffer.concat(masked[stream]);
					expect(after.length).toBe(before.length);
					for (let i = 0; i < before.length; i++) {
						if (after[i] !== before[i]) {
							expect(after[i]).toBe(0x2a);
							expect([0x0a, 0x0d]).not.toContain(before[i]);
						}
					}

					const text = after.toString('utf8');
					for (const secret of secrets) {
						expect(text).not.toContain(secret.value);
					}

					// Every byte of a secret is masked, also where a read cut it in two (both chunk records).
					const original = Buffer.from(before).toString('latin1');
					for (const secret of [...secrets, {value: seed.user, keep: 0}]) {
						const needle = Buffer.from(secret.value, 'utf8').toString('latin1');
						for (const start of occurrences(original, needle)) {
							for (let p = start + secret.keep; p < start + needle.length; p++)
								expect([stream, p, after[p]]).toEqual([stream, p, 0x2a]);
						}
					}
				}

				for (const secret of secrets) {
					expect(dump).not.toContain(secret.value);
				}

				// Masking keeps LF/CR and lengths, so the redacted dump frames exactly like the capture.
				const boundaries = (snapshot: SessionSnapshot): string[] =>
					snapshot.frames.map((frame) => `${frame.stream}:${frame.offset}+${frame.byteLength}`).sort();
				expect(boundaries(replay.getSnapshot())).toEqual(boundaries(session.getSnapshot()));
			}),
			{numRuns: 60},
		);
	});
});
