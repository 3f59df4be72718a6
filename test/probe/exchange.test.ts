import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {sendRequest} from '../../src/probe/exchange-request.js';
import {playSteps} from '../../src/probe/exchange.js';
import {defaultOpening} from '../../src/probe/opening.js';
import {linkServer, type ServerLink} from '../../src/probe/server-link.js';
import {shutdownServer} from '../../src/probe/shutdown.js';
import type {ProcessWatch} from '../../src/process/proc-evidence.js';
import {evidence, proc} from '../helpers/evidence.js';
import {dateClock, fakeProbeOptions, fakeServer, type FakeServer} from '../helpers/fake-server.js';

/** A link to a fake server that answers each request with `answer(message)` (a JSON line), or nothing. */
function setUp(answer: (message: {id?: unknown; method?: string}) => string | undefined = () => undefined): {
	link: ServerLink;
	server: FakeServer;
	logs: string[];
} {
	const clock = dateClock();
	const server = fakeServer(clock);
	server.onWrite = (text) => {
		const line = answer(JSON.parse(text) as {id?: unknown; method?: string});
		if (line !== undefined) server.stdout(line);
	};
	const logs: string[] = [];
	return {
		link: linkServer(fakeProbeOptions(logs), 'probe', {clock, server}, fakeProbeOptions().schemas!),
		server,
		logs,
	};
}
const result = (id: unknown, value: unknown): string => `${JSON.stringify({jsonrpc: '2.0', id, result: value})}\n`;
const marksOf = async (link: ServerLink) =>
	(await link.ready)
		.getSnapshot()
		.marks.map((m) => (m.type === 'phase' ? `phase:${m.name}@${m.tMs}` : `${m.type}@${m.tMs}`));

describe('sendRequest', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it('writes the request as one line and returns the response with its id', async () => {
		const {link, server} = setUp((m) => (m.method === 'ping' ? result(m.id, {}) : undefined));
		const outcome = await sendRequest(link, {jsonrpc: '2.0', id: 5, method: 'ping'}, 1000);
		expect(server.stdin).toEqual(['{"jsonrpc":"2.0","id":5,"method":"ping"}\n']);
		expect(outcome.type === 'frame' && [outcome.frame.kind, outcome.frame.id, outcome.frame.byteLength]).toEqual([
			'response',
			5,
			37,
		]);
	});

	it('gives up after exactly timeoutMs: a timeout mark with the limit, onWait told each second then done', async () => {
		const waits: string[] = [];
		const clock = dateClock();
		const server = fakeServer(clock);
		const link = linkServer(
			fakeProbeOptions([], {
				onWait: (w) => waits.push(`${w.method} ${w.elapsedMs}/${w.limitMs}${w.done ? ` ${w.done}` : ''}`),
			}),
			'probe',
			{clock, server},
			fakeProbeOptions().schemas!,
		);
		const pending = sendRequest(link, {jsonrpc: '2.0', id: 1, method: 'tools/list'}, 2500);
		await vi.advanceTimersByTimeAsync(2600);
		const outcome = await pending;
		// The give-up first reads what may have come late (one setImmediate: 1 ms on vitest's fake clock).
		expect(outcome).toEqual({type: 'timeout', tMs: 2501, waitedMs: 2501});
		expect(waits).toEqual(['tools/list 1000/2500', 'tools/list 2000/2500', 'tools/list 2501/2500 timeout']);
		const timeout = (await link.ready).getSnapshot().marks.find((m) => m.type === 'timeout');
		expect(timeout).toEqual({type: 'timeout', id: 1, method: 'tools/list', timeoutMs: 2500, tMs: 2501});
	});

	it('ends with eof when stdout closes first, and closed when nothing could be written', async () => {
		const {link, server, logs} = setUp();
		const pending = sendRequest(link, {jsonrpc: '2.0', id: 1, method: 'ping'}, 5000);
		server.end('stdout');
		expect(await pending).toEqual({type: 'eof'});
		expect(logs).toEqual(['the server closed stdout while ping (id 1) was pending']);
		server.exit(0);
		let written: boolean | undefined;
		const closed = await sendRequest(link, {jsonrpc: '2.0', id: 2, method: 'ping'}, 5000, {
			onWritten: (w) => (written = w),
		});
		expect([closed, written]).toEqual([{type: 'closed'}, false]);
	});

	it('a request written at the spawn: its reply may have come already, and is not written again', async () => {
		const {link, server} = setUp();
		server.stdout(result(0, {}));
		const outcome = await sendRequest(link, {jsonrpc: '2.0', id: 0, method: 'initialize'}, 1000, {written: {tMs: 0}});
		expect(outcome.type).toBe('frame');
		expect(server.stdin).toEqual([]);
	});

	it("answers the server's ping with {} and any other request with -32601", async () => {
		const {link, server} = setUp();
		server.stdout('{"jsonrpc":"2.0","id":"s1","method":"ping"}\n{"jsonrpc":"2.0","id":"s2","method":"roots/list"}\n');
		await vi.advanceTimersByTimeAsync(0);
		expect(server.stdin).toEqual([
			'{"jsonrpc":"2.0","id":"s1","result":{}}\n',
			'{"jsonrpc":"2.0","id":"s2","error":{"code":-32601,"message":"Method not found"}}\n',
		]);
		link.detach();
	});
});

describe('playSteps', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it('the default opening: initialized, only the advertised lists (ids 1, 2), ping (id 3), ping (string id)', async () => {
		const {link, server} = setUp((m) => (m.id === undefined ? undefined : result(m.id, {})));
		const opening = defaultOpening();
		const end = await playSteps(link, opening, opening.afterInitialize, {tools: {}, resources: {}}, 1000);
		expect(end).toBe('done');
		expect(server.stdin.map((line) => line.trim())).toEqual([
			'{"jsonrpc":"2.0","method":"notifications/initialized"}',
			'{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
			'{"jsonrpc":"2.0","id":2,"method":"resources/list"}',
			'{"jsonrpc":"2.0","id":3,"method":"ping"}',
			'{"jsonrpc":"2.0","id":"mcp-wire-1","method":"ping"}',
		]);
	});

	it('string ids, and the sequence ends at the first request without a reply', async () => {
		const {link, server} = setUp((m) =>
			m.method === 'tools/list' ? undefined : m.id === undefined ? undefined : result(m.id, {}),
		);
		const opening = {...defaultOpening(), ids: 'string' as const};
		const pending = playSteps(link, opening, opening.afterInitialize, {tools: {}, prompts: {}}, 1000);
		await vi.advanceTimersByTimeAsync(1100);
		expect(await pending).toBe('unanswered');
		expect(server.stdin.map((line) => line.trim())).toEqual([
			'{"jsonrpc":"2.0","method":"notifications/initialized"}',
			'{"jsonrpc":"2.0","id":"1","method":"tools/list"}',
		]);
	});

	it('modern era: server/discover, then tools/list when its result advertises tools; an error ends it', async () => {
		const opening = defaultOpening();
		const ok = setUp((m) =>
			m.id === undefined
				? undefined
				: result(m.id, m.method === 'server/discover' ? {capabilities: {tools: {}}} : {tools: []}),
		);
		expect(await playSteps(ok.link, opening, opening.modern, {}, 1000)).toBe('done');
		expect(ok.server.stdin.map((line) => (JSON.parse(line) as {method: string; id: number}).method)).toEqual([
			'server/discover',
			'tools/list',
		]);
		expect(ok.server.stdin[1]).toBe(
			'{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}\n',
		);
		const rejected = setUp((m) =>
			m.id === undefined
				? undefined
				: `${JSON.stringify({jsonrpc: '2.0', id: m.id, error: {code: -32601, message: 'no'}})}\n`,
		);
		expect(await playSteps(rejected.link, opening, opening.modern, {}, 1000)).toBe('rejected');
		expect(rejected.server.stdin).toHaveLength(1);
	});
});

describe('shutdownServer', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it('a server that exits on EOF: stdin closed, no signal', async () => {
		const {link, server} = setUp();
		server.closeStdin = () => {
			server.stdinOpen = false;
			queueMicrotask(() => (server.end('stdout'), server.end('stderr'), server.exit(0)));
			return true;
		};
		const exit = await shutdownServer(link);
		expect(exit).toEqual({code: 0, signal: null, tMs: 0});
		expect(server.signals).toEqual([]);
		expect(await marksOf(link)).toEqual(['phase:shutdown@0', 'stdin-closed@0', 'eof@0', 'eof@0']);
	});

	it('a server that ignores EOF and SIGTERM: SIGTERM at 2 s, SIGKILL at 4 s, each marked', async () => {
		const {link, server, logs} = setUp();
		server.kill = (signal) => {
			server.signals.push(signal);
			if (signal === 'SIGKILL')
				queueMicrotask(() => (server.end('stdout'), server.end('stderr'), server.exit(null, 'SIGKILL')));
			return true;
		};
		const pending = shutdownServer(link);
		await vi.advanceTimersByTimeAsync(4100);
		expect(await pending).toEqual({code: null, signal: 'SIGKILL', tMs: 4000});
		expect(server.signals).toEqual(['SIGTERM', 'SIGKILL']);
		expect((await marksOf(link)).filter((m) => m.startsWith('signal-sent'))).toEqual([
			'signal-sent@2000',
			'signal-sent@4000',
		]);
		expect(logs).toEqual([
			'pid 4242 still running 2000 ms in; sending SIGTERM',
			'pid 4242 still running 4000 ms in; sending SIGKILL',
		]);
	});
});

describe('shutdownServer after the probe stopped waiting for a request', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	/** tools/list (id 1) given up on at a 10 s limit, then the shutdown; the server replies `replyAfterMs` after stdin closed with `id`. */
	async function lateReply(id: number, replyAfterMs: number) {
		const {link, server, logs} = setUp();
		const asked = sendRequest(link, {jsonrpc: '2.0', id: 1, method: 'tools/list'}, 10_000);
		await vi.advanceTimersByTimeAsync(10_100);
		expect((await asked).type).toBe('timeout');
		server.closeStdin = () => {
			server.stdinOpen = false;
			// Busy with the request: it answers, then exits on the EOF it read 100 ms later.
			setTimeout(() => {
				server.stdout(result(id, {tools: []}));
				setTimeout(() => (server.end('stdout'), server.end('stderr'), server.exit(0)), 100);
			}, replyAfterMs);
			return true;
		};
		server.kill = (signal) => {
			server.signals.push(signal);
			queueMicrotask(() => (server.end('stdout'), server.end('stderr'), server.exit(null, signal)));
			return true;
		};
		const pending = shutdownServer(link);
		await vi.advanceTimersByTimeAsync(5_000);
		return {exit: await pending, server, logs};
	}

	it('a reply to it 1990 ms after stdin closed restarts the 2 s grace: the exit at 2090 ms needs no signal', async () => {
		const {exit, server, logs} = await lateReply(1, 1990);
		expect(exit).toEqual({code: 0, signal: null, tMs: 10_100 + 2090});
		expect(server.signals).toEqual([]);
		expect(logs).toEqual([
			'the server answered tools/list 12090 ms in, after stdin closed; waiting 2000 ms from then for its exit',
		]);
	});

	it('a reply with another id restarts nothing: SIGTERM 2 s after stdin closed', async () => {
		const {exit, server} = await lateReply(7, 1990);
		expect(server.signals).toEqual(['SIGTERM']);
		expect(exit).toEqual({code: null, signal: 'SIGTERM', tMs: 10_100 + 2000});
	});
});

describe('sendRequest and a reply without its final line end', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it('stops after two looks that find the server idle with the whole reply pending, not at the limit', async () => {
		const clock = dateClock();
		const server = fakeServer(clock);
		const idle = evidence('stall', [proc(4242, 'idle')]);
		const tree = {
			pipes: undefined,
			observe: () => idle,
			endAll: () => [],
			alive: () => [],
		} as unknown as ProcessWatch;
		server.onWrite = () => server.stdout('{"jsonrpc":"2.0","id":0,"result":{}}');
		const link = linkServer(fakeProbeOptions(), 'probe', {clock, server, tree}, fakeProbeOptions().schemas!);
		const pending = sendRequest(link, {jsonrpc: '2.0', id: 0, method: 'initialize'}, 30_000);
		await vi.advanceTimersByTimeAsync(2100);
		const outcome = await pending;
		// Looks at 1 s and 2 s, both final; the settled look and the give-up each wait one setImmediate (1 ms on the fake clock).
		expect(outcome).toMatchObject({type: 'timeout', tMs: 2002, stoppedEarly: true, replyWithoutNewline: true});
		const marks = (await link.ready).getSnapshot().marks.filter((m) => m.type !== 'evidence');
		expect(marks).toEqual([
			{type: 'phase', name: 'stopped-early', tMs: 2002},
			{type: 'timeout', id: 0, method: 'initialize', timeoutMs: 2002, tMs: 2002},
		]);
		link.detach();
	});

	it('does not stop early on an idle server with no reply pending (a partial line is not a reply)', async () => {
		const clock = dateClock();
		const server = fakeServer(clock);
		const tree = {observe: () => evidence('stall', [proc(4242, 'idle')]), endAll: () => [], alive: () => []};
		server.onWrite = () => server.stdout('{"jsonrpc":"2.0","id":0,"res');
		const link = linkServer(
			fakeProbeOptions(),
			'probe',
			{clock, server, tree: tree as unknown as ProcessWatch},
			fakeProbeOptions().schemas!,
		);
		const pending = sendRequest(link, {jsonrpc: '2.0', id: 0, method: 'initialize'}, 8000);
		await vi.advanceTimersByTimeAsync(8100);
		expect(await pending).toMatchObject({type: 'timeout', waitedMs: 8001});
		link.detach();
	});
});
