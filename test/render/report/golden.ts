/**
 * Golden-file helpers for the support report (style.md §1.7 item 4), reusable by any test that wants a
 * report golden: from a scripted session ({@link sessionFrom}), or from a real capture / `--json` dump
 * ({@link reportFromCapture}). Goldens live in test/golden/report/<name>.md and are rewritten only when
 * the test runs with `UPDATE_GOLDEN=1`; otherwise a missing golden fails the test.
 */
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {expect} from 'vitest';
import {decodeRecords} from '../../../src/core/capture/record-codec.js';
import {SDK_SCHEMAS} from '../../../src/core/jsonrpc/sdk-schemas.js';
import {replayEvents} from '../../../src/core/session/replay.js';
import {Session} from '../../../src/core/session/session.js';
import type {ExitInfo, Mark, SessionMeta, SessionSnapshot, StreamName} from '../../../src/core/types.js';
import {renderReport, type ReportOptions} from '../../../src/render/report/markdown.js';

/** Where report goldens live. */
export const GOLDEN_DIR = join(import.meta.dirname, '..', '..', 'golden', 'report');

/**
 * Compares `actual` with test/golden/report/<name>.md; with `UPDATE_GOLDEN=1` writes it instead.
 * @throws (via expect) when the golden is missing or differs.
 */
export function expectGolden(name: string, actual: string): void {
	const file = join(GOLDEN_DIR, `${name}.md`);
	if (process.env['UPDATE_GOLDEN'] === '1') {
		mkdirSync(dirname(file), {recursive: true});
		writeFileSync(file, actual);
		return;
	}

	expect(existsSync(file), `golden ${file} is missing: run with UPDATE_GOLDEN=1 to create it`).toBe(true);
	expect(actual).toBe(readFileSync(file, 'utf8'));
}

/** Fixed redaction and version inputs so goldens do not depend on who runs the tests. */
export const GOLDEN_OPTIONS: ReportOptions = {
	toolVersion: '0.1.0',
	redact: {home: '/home/alice', user: 'alice', env: {GITHUB_TOKEN: 'ghp_0123456789abcdefghijABCDEFGHIJ012345'}},
};

/** Session facts for scripted sessions (override per scenario). */
export function goldenMeta(partial: Partial<SessionMeta> = {}): SessionMeta {
	return {
		tool: {name: 'mcp-wire', version: '0.1.0'},
		node: 'v20.20.2',
		platform: 'linux x64',
		command: ['node', 'server.mjs'],
		envMode: 'sdk-default',
		startedAt: '2026-01-02T03:04:05.678Z',
		mode: 'probe',
		...partial,
	};
}

/** One thing that happened in a scripted session, at `tMs`. */
export type Step =
	| {readonly tMs: number; readonly stream: StreamName; readonly bytes: Uint8Array | string}
	| {readonly tMs: number; readonly mark: Mark}
	| {readonly tMs: number; readonly exit: Omit<ExitInfo, 'tMs'>};

/** A chunk step; strings are UTF-8 encoded. */
export function chunk(stream: StreamName, tMs: number, bytes: Uint8Array | string): Step {
	return {tMs, stream, bytes};
}

/**
 * Feeds a real {@link Session} the steps in time order (stable for equal times), then finishes it at the
 * last step's time: the same path a live probe or a replay takes.
 */
export function sessionFrom(meta: SessionMeta, steps: readonly Step[]): Session {
	const session = new Session(meta, {schemas: SDK_SCHEMAS});
	const ordered = steps
		.map((step, order) => ({step, order}))
		.sort((a, b) => a.step.tMs - b.step.tMs || a.order - b.order);
	let end = 0;
	for (const {step} of ordered) {
		end = Math.max(end, step.tMs);
		if ('stream' in step) {
			session.pushChunk(
				step.stream,
				step.tMs,
				typeof step.bytes === 'string' ? new Uint8Array(Buffer.from(step.bytes, 'utf8')) : step.bytes,
			);
		} else if ('mark' in step) {
			session.mark(step.mark);
		} else {
			session.exit({...step.exit, tMs: step.tMs});
		}
	}

	session.finish(end);
	return session;
}

/**
 * The report of a capture file or `--json` dump, as `mcp-wire report FILE` renders it (decodeRecords →
 * replayEvents → renderReport), with {@link GOLDEN_OPTIONS} unless `options` are given.
 * @throws Error when the text has no session header.
 */
export function reportFromCapture(text: string, options: ReportOptions = GOLDEN_OPTIONS): string {
	const decoded = decodeRecords(text);
	if (decoded.header === undefined) {
		throw new Error('not a capture: no session header');
	}

	// With the TS SDK's schema checks, as `mcp-wire report` replays (cli/commands/report.ts).
	const session = replayEvents(decoded.header, decoded.events, {schemas: SDK_SCHEMAS});
	return renderReport(session.getSnapshot(), {
		...options,
		source: {isTruncated: decoded.isTruncated, problems: decoded.problems.length},
	});
}

/** The report of a snapshot with {@link GOLDEN_OPTIONS} (plus `options`). */
export function goldenReport(snapshot: SessionSnapshot, options: ReportOptions = {}): string {
	return renderReport(snapshot, {...GOLDEN_OPTIONS, ...options});
}
