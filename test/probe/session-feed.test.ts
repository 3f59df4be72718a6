import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import type {SdkSchemas} from '../../src/core/jsonrpc/sdk-checks.js';
import type {Session} from '../../src/core/session/session.js';
import {createExitHold, createSessionFeed, type SessionOp} from '../../src/probe/session-feed.js';

/** A stand-in session that records what it was fed, by name. */
const recorder = (log: string[]): Session =>
	({
		pushChunk: (stream: string, tMs: number) => log.push(`${stream}@${tMs}`),
		exit: (exit: {code: number}) => log.push(`exit ${exit.code}`),
	}) as unknown as Session;
const schemas = {} as SdkSchemas;

describe('createSessionFeed', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it('with schemas as a value, builds at once and applies ops as they come', () => {
		const log: string[] = [];
		const feed = createSessionFeed(
			() => recorder(log),
			schemas,
			() => undefined,
		);
		feed.feed((s) => s.pushChunk('stdout', 1, new Uint8Array()));
		expect(log).toEqual(['stdout@1']);
	});

	it('with schemas loading, queues ops in order and builds once loaded and released', async () => {
		const log: string[] = [];
		let built = 0;
		const feed = createSessionFeed(
			() => (built++, recorder(log)),
			Promise.resolve(schemas),
			() => undefined,
		);
		feed.feed((s) => s.pushChunk('stdin', 1, new Uint8Array()));
		feed.feed((s) => s.pushChunk('stdout', 2, new Uint8Array()));
		await vi.advanceTimersByTimeAsync(0);
		expect(built).toBe(0);
		feed.release();
		await vi.advanceTimersByTimeAsync(0);
		expect(built).toBe(1);
		expect(log).toEqual(['stdin@1', 'stdout@2']);
	});

	it('builds after deferMs without a release', async () => {
		let built = 0;
		createSessionFeed(
			() => (built++, recorder([])),
			Promise.resolve(schemas),
			() => undefined,
			1000,
		);
		await vi.advanceTimersByTimeAsync(999);
		expect(built).toBe(0);
		await vi.advanceTimersByTimeAsync(1);
		expect(built).toBe(1);
	});

	it('calls onCreateError and rethrows when create throws', async () => {
		let killed = 0;
		expect(() =>
			createSessionFeed(
				() => {
					throw new Error('bad meta');
				},
				schemas,
				() => (killed += 1),
			),
		).toThrow('bad meta');
		expect(killed).toBe(1);
		const later = createSessionFeed(
			() => {
				throw new Error('later');
			},
			Promise.resolve(schemas),
			() => (killed += 1),
		);
		await expect(later.session()).rejects.toThrow('later');
		expect(killed).toBe(2);
	});
});

describe('createExitHold', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	const setUp = (log: string[]) => {
		const session = recorder(log);
		const feed = (op: SessionOp): void => op(session);
		let timeouts = 0;
		const hold = createExitHold(feed, () => (timeouts += 1), 500);
		return {hold, timeouts: () => timeouts};
	};
	const chunk =
		(stream: 'stdout' | 'stderr', tMs: number): SessionOp =>
		(s) =>
			s.pushChunk(stream, tMs, new Uint8Array());

	it('holds the exit until released: stderr goes on at once, stdout comes after the exit', () => {
		const log: string[] = [];
		const {hold} = setUp(log);
		hold.exited({code: 1, signal: null, tMs: 10}, false);
		hold.feedInOrder('stdout', chunk('stdout', 11));
		hold.feedInOrder('stderr', chunk('stderr', 12));
		expect(log).toEqual(['stderr@12']);
		hold.release();
		expect(log).toEqual(['stderr@12', 'exit 1', 'stdout@11']);
		hold.release();
		expect(log).toHaveLength(3);
	});

	it('feeds the exit at once when stderr had ended, and releases a held one after holdMs', async () => {
		const log: string[] = [];
		const {hold, timeouts} = setUp(log);
		hold.exited({code: 0, signal: null, tMs: 1}, true);
		expect(log).toEqual(['exit 0']);
		hold.exited({code: 2, signal: null, tMs: 2}, false);
		await vi.advanceTimersByTimeAsync(499);
		expect(log).toEqual(['exit 0']);
		await vi.advanceTimersByTimeAsync(1);
		expect(log).toEqual(['exit 0', 'exit 2']);
		expect(timeouts()).toBe(1);
	});
});
