// The summary builder is pure: the facts a session derived in, its summary record out, keys in the
// `--json` record's order.
import {describe, expect, it} from 'vitest';
import type {OutcomeFacts} from '../../../src/core/clients/outcome.js';
import {buildSummary, type SummaryFacts} from '../../../src/core/session/summary.js';
import type {ClientOutcome} from '../../../src/core/types.js';

const EXERCISED = {requests: {initialize: 1}, called: [], read: [], prompts: []};

function facts(over: Partial<SummaryFacts> = {}, outcomes: ClientOutcome[] = []) {
	const asked: OutcomeFacts[] = [];
	const given: SummaryFacts = {
		tally: {findings: [], errors: 0, warnings: 0, infos: 0},
		totals: {
			stdin: {bytes: 120, chunks: 2, frames: 2},
			stdout: {bytes: 300, chunks: 1, frames: 1},
			stderr: {bytes: 0, chunks: 0, frames: 0},
		},
		lifecycle: {
			era: undefined,
			counts: {},
			serverInfo: undefined,
			clientInfo: undefined,
			negotiatedVersion: undefined,
		},
		clients: {
			outcomes: (f: OutcomeFacts) => {
				asked.push(f);
				return outcomes;
			},
		},
		exercised: EXERCISED,
		durationMs: 42,
		exit: undefined,
		isFinished: true,
		isComplete: true,
		gaps: {count: 0, missingBytes: 0},
		isStoppedByUser: false,
		stalls: undefined,
		...over,
	};
	return {given, asked};
}

describe('buildSummary', () => {
	it('a whole session without findings: ok, with only the keys that apply, in record order', () => {
		const {given, asked} = facts();
		const summary = buildSummary(given);
		expect(JSON.stringify(summary)).toBe(
			JSON.stringify({
				verdict: 'ok',
				findings: [],
				errors: 0,
				warnings: 0,
				infos: 0,
				streams: given.totals,
				durationMs: 42,
				clients: [],
				exercised: EXERCISED,
			}),
		);
		expect(summary.streams.stdin).not.toBe(given.totals.stdin);
		expect(asked).toEqual([{isComplete: true}]);
	});

	it('carries the lifecycle, the exit and the counts, and asks the outcomes with the era and tools', () => {
		const {given, asked} = facts({
			tally: {findings: [{code: 'crlf', severity: 'warning', count: 3}], errors: 0, warnings: 3, infos: 0},
			lifecycle: {
				era: 'legacy',
				counts: {tools: 4, prompts: 0},
				serverInfo: {name: 's', version: '1'},
				clientInfo: {name: 'c'},
				negotiatedVersion: '2025-06-18',
			},
			exit: {code: 0, signal: null, tMs: 40},
		});
		const summary = buildSummary(given);
		expect(Object.keys(summary)).toEqual([
			'verdict',
			'findings',
			'errors',
			'warnings',
			'infos',
			'streams',
			'durationMs',
			'exit',
			'era',
			'serverInfo',
			'clientInfo',
			'protocolVersion',
			'tools',
			'prompts',
			'clients',
			'exercised',
		]);
		expect([summary.verdict, summary.warnings, summary.protocolVersion, summary.tools, summary.prompts]).toEqual([
			'warn',
			3,
			'2025-06-18',
			4,
			0,
		]);
		expect(asked).toEqual([{isComplete: true, era: 'legacy', tools: 4}]);
	});

	it('a mainstream client that fails makes the verdict fail', () => {
		const fails = {client: 'ts-sdk-v1', outcome: 'fails'} as unknown as ClientOutcome;
		expect(buildSummary(facts({}, [fails]).given).verdict).toBe('fail');
	});

	it('a stop by the user makes ok stopped; warn and fail stand (what was seen stays a finding)', () => {
		expect(buildSummary(facts({isStoppedByUser: true}).given).verdict).toBe('stopped');
		const warned = {
			findings: [{code: 'crlf' as const, severity: 'warning' as const, count: 1}],
			errors: 0,
			warnings: 1,
			infos: 0,
		};
		expect(buildSummary(facts({isStoppedByUser: true, tally: warned}).given).verdict).toBe('warn');
		const fails = {client: 'ts-sdk-v1', outcome: 'fails'} as unknown as ClientOutcome;
		expect(buildSummary(facts({isStoppedByUser: true}, [fails]).given).verdict).toBe('fail');
		const degraded = {client: 'rmcp', outcome: 'degraded'} as unknown as ClientOutcome;
		expect(buildSummary(facts({isStoppedByUser: true}, [degraded]).given).verdict).toBe('warn');
	});

	it('a capture cut before any frame is warn and incomplete; a running session is neither', () => {
		const none = {bytes: 0, chunks: 0, frames: 0};
		const empty = {stdin: none, stdout: none, stderr: none};
		const cut = facts({totals: empty, isComplete: false});
		const summary = buildSummary(cut.given);
		expect([summary.verdict, summary.incomplete]).toEqual(['warn', {cutShort: true, missingBytes: 0, gaps: 0}]);
		expect(cut.asked).toEqual([{isComplete: false}]);
		const running = facts({totals: empty, isFinished: false, isComplete: true});
		const provisional = buildSummary(running.given);
		expect([provisional.verdict, provisional.incomplete]).toEqual(['ok', undefined]);
		expect(running.asked).toEqual([{isComplete: false}]);
	});

	it('gaps make a finished capture incomplete without cutting it short; stalls are carried', () => {
		const stalls = {count: 2, totalMs: 30, longestMs: 20, timedOut: 0};
		const summary = buildSummary(facts({gaps: {count: 2, missingBytes: 900}, stalls}).given);
		expect(summary.incomplete).toEqual({cutShort: false, missingBytes: 900, gaps: 2});
		expect(summary.stalls).toEqual(stalls);
		expect(Object.keys(summary).slice(-2)).toEqual(['incomplete', 'stalls']);
	});
});
