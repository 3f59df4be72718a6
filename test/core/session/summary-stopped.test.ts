// A probe the user stopped before its exchange was over (Ctrl-C, the TUI's quit: the `stopped-by-user`
// phase mark) is no clean verdict: the summary says `stopped` when it would have said `ok` (was: the plain
// log said STOPPED, the --json summary record `"verdict":"ok"`). One value, from the core summary, read by
// every output; a replay of the records says the same (docs/architecture.md: marks are replayed).
import {describe, expect, it} from 'vitest';
import {decodeRecords, encodeEvent} from '../../../src/core/capture/record-codec.js';
import {replayEvents} from '../../../src/core/session/replay.js';
import {Session} from '../../../src/core/session/session.js';
import {USER_STOP_PHASE, type SessionEvent, type SessionMeta} from '../../../src/core/types.js';
import {formatSummary} from '../../../src/render/text/plain-log.js';
import {renderReport} from '../../../src/render/report/markdown.js';
import {statusSegments} from '../../../src/render/tui/components/status-bar.js';
import {statusModel} from '../../../src/render/tui/state/selectors.js';
import {verdictText} from '../../../src/cli/commands/sessions.js';
import {exitCodeFor} from '../../../src/cli/options.js';

const META: SessionMeta = {
	tool: {name: 'mcp-wire', version: '0.0.0-test'},
	node: 'v20.0.0',
	platform: 'linux',
	command: ['server'],
	envMode: 'sdk-default',
	startedAt: '2026-01-01T00:00:00.000Z',
	mode: 'probe',
};
const line = (value: unknown) => new TextEncoder().encode(`${JSON.stringify(value)}\n`);
const INIT = {
	jsonrpc: '2.0',
	id: 0,
	method: 'initialize',
	params: {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 'mcp-wire', version: '0.1.0'}},
};
const INIT_OK = {
	jsonrpc: '2.0',
	id: 0,
	result: {protocolVersion: '2025-11-25', capabilities: {}, serverInfo: {name: 's', version: '1'}},
};

/** A probe stopped by the user 4.2 s in: initialize sent and never answered, stdin closed, the server killed. */
function stoppedBeforeInitialize(options: {readonly isMarked: boolean; readonly banner?: boolean}): {
	session: Session;
	events: SessionEvent[];
} {
	const session = new Session(META);
	const events: SessionEvent[] = [];
	session.on((event) => events.push(event));
	if (options.banner === true) session.pushChunk('stdout', 1, new TextEncoder().encode('Server starting...\n'));
	session.pushChunk('stdin', 2, line(INIT));
	if (options.isMarked) session.mark({type: 'phase', name: USER_STOP_PHASE, tMs: 4_200});
	session.mark({type: 'stdin-closed', tMs: 4_200});
	session.exit({code: null, signal: 'SIGKILL', tMs: 5_100});
	session.finish(5_100);
	return {session, events};
}

const STOPPED_LINE =
	'verdict STOPPED: 0 errors, 0 warnings, 0 info · stopped by the user before the exchange was over: what followed was not exercised';

describe('a probe the user stopped', () => {
	it('before any finding: the summary, its --json record and a replay of the records all say stopped', () => {
		const {session, events} = stoppedBeforeInitialize({isMarked: true});
		const summary = session.getSnapshot().summary;
		expect([summary.verdict, summary.errors, summary.warnings, summary.findings]).toEqual(['stopped', 0, 0, []]);
		const record = encodeEvent({type: 'summary', summary});
		expect(record.startsWith('{"type":"summary","verdict":"stopped","findings":[],')).toBe(true);
		// The record reads back (`view`, `report` of a --json dump), and the replay derives the same verdict.
		const decoded = decodeRecords(`${record}\n`).events[0];
		expect(decoded?.type === 'summary' ? decoded.summary.verdict : undefined).toBe('stopped');
		const replayed = replayEvents(
			{...META, mode: 'replay'},
			events.filter((event) => event.type !== 'summary' && event.type !== 'finding' && event.type !== 'frame'),
		);
		expect(replayed.finish(5_100).verdict).toBe('stopped');
	});

	it('without the mark the same bytes are a finding: the server never answered (fail)', () => {
		const {session} = stoppedBeforeInitialize({isMarked: false});
		const summary = session.getSnapshot().summary;
		expect([summary.verdict, summary.findings.map((f) => f.code)]).toEqual(['fail', ['unanswered-request']]);
	});

	it('a finding seen before the stop keeps its verdict (warn), not stopped', () => {
		const {session} = stoppedBeforeInitialize({isMarked: true, banner: true});
		const summary = session.getSnapshot().summary;
		expect([summary.verdict, summary.findings.map((f) => f.code)]).toEqual(['warn', ['stray-output']]);
		expect(exitCodeFor(summary, 'client')).toBe(0);
	});

	it('after initialize was answered: still stopped, as long as nothing was found', () => {
		const session = new Session(META);
		session.pushChunk('stdin', 2, line(INIT));
		session.pushChunk('stdout', 40, line(INIT_OK));
		session.pushChunk('stdin', 41, line({jsonrpc: '2.0', method: 'notifications/initialized'}));
		session.pushChunk('stdin', 42, line({jsonrpc: '2.0', id: 1, method: 'tools/list'}));
		session.mark({type: 'phase', name: USER_STOP_PHASE, tMs: 900});
		session.mark({type: 'stdin-closed', tMs: 900});
		session.exit({code: 0, signal: null, tMs: 950});
		const summary = session.finish(950);
		expect([summary.verdict, summary.findings, summary.serverInfo]).toEqual(['stopped', [], {name: 's', version: '1'}]);
	});

	it('every output says STOPPED: the plain log, report, the TUI status bar, sessions and the exit code', () => {
		const {session} = stoppedBeforeInitialize({isMarked: true});
		const snapshot = session.getSnapshot();
		expect(formatSummary(snapshot.summary)[0]).toBe(STOPPED_LINE);
		expect(renderReport(snapshot).split('\n')[0]).toBe(
			'**mcp-wire: STOPPED** · stopped by the user before the exchange was over: what followed was not exercised',
		);
		expect(statusSegments(statusModel(snapshot), 80)[0]).toEqual({text: ' STOPPED ', token: 'verdict.stopped'});
		expect(verdictText(snapshot.summary.verdict)).toBe('stopped');
		// No verdict is never exit 0: 130 (128 + SIGINT), unless a finding reaches --fail-on.
		expect(exitCodeFor(snapshot.summary, 'error')).toBe(130);
		expect(exitCodeFor(snapshot.summary, 'client')).toBe(130);
	});

	it('the report of a stop after a finding keeps the verdict and says the stop', () => {
		const {session} = stoppedBeforeInitialize({isMarked: true, banner: true});
		const first = renderReport(session.getSnapshot()).split('\n')[0]!;
		expect(first.startsWith('**mcp-wire: WARN** · 1 error · `stray-output` at stdout offset 0')).toBe(true);
		expect(first.endsWith(' · stopped by the user before the exchange was over')).toBe(true);
	});
});
