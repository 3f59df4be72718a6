import {SDK_SCHEMAS} from '../../src/core/jsonrpc/sdk-schemas.js';
import {performance} from 'node:perf_hooks';
import {afterAll, describe, expect, it} from 'vitest';
import {Session} from '../../src/core/session/session.js';
import type {Frame, Mark, SessionMeta, StreamName} from '../../src/core/types.js';
import {
	CONTENT_LENGTH_SETTLE_MS,
	DEFAULT_INITIALIZE_TIMEOUT_MS,
	DEFAULT_TIMEOUT_MS,
	SHUTDOWN_MS,
	runProbe,
	isModernEraError,
	startProbeServer,
	type ProbeOptions,
	type SessionInit,
} from '../../src/probe/probe.js';
import {SDK_DEFAULT_ENV_KEYS, buildEnv} from '../../src/process/spawn.js';
import {testEnv, writeServers} from '../helpers/servers.js';

const servers = writeServers();
afterAll(() => servers.cleanup());

const VERSION = '0.1.0';
const INIT_LINE = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcp-wire","version":"${VERSION}"}}}\n`;
const INIT_BODY = INIT_LINE.slice(0, -1);

/** Run the probe against a test server with a session factory that records every init it was given. */
async function probe(command: readonly string[], extra: Partial<ProbeOptions> = {}, retain = true) {
	const inits: SessionInit[] = [];
	const logs: string[] = [];
	const t0 = performance.now();
	const result = await runProbe({
		command,
		env: testEnv(),
		createSession: (init) => {
			inits.push(init);
			const meta: SessionMeta = {
				tool: {name: 'mcp-wire', version: VERSION},
				node: process.version,
				platform: process.platform,
				command,
				envMode: 'sdk-default',
				startedAt: init.startedAt,
				...(init.pid === undefined ? {} : {pid: init.pid}),
				mode: 'probe',
				protocolVersion: '2025-11-25',
			};
			// `probe --json` keeps no frames in its main session (src/cli/commands/probe.ts).
			return new Session(meta, {retain: retain || init.purpose !== 'probe'});
		},
		onLog: (line) => logs.push(line),
		...extra,
	});
	return {result, inits, logs, elapsedMs: performance.now() - t0};
}

const text = (session: Session, stream: StreamName): string => {
	const snap = session.getSnapshot();
	return Buffer.from(snap.bytes(stream, 0, snap.streamLength(stream))).toString('utf8');
};
const framesOf = (session: Session, stream: StreamName): Frame[] =>
	session.getSnapshot().frames.filter((f) => f.stream === stream);
/** The marks in order, without the process evidence (its count depends on timing; tested on its own). */
const markTypes = (session: Session): string[] =>
	session
		.getSnapshot()
		.marks.filter((m) => m.type !== 'evidence')
		.map((m) =>
			m.type === 'phase'
				? `phase:${m.name}`
				: m.type === 'signal-sent'
					? `signal:${m.signal}`
					: m.type === 'eof'
						? `eof:${m.stream}`
						: m.type,
		);
const markOf = <T extends Mark['type']>(session: Session, type: T): Extract<Mark, {type: T}>[] =>
	session.getSnapshot().marks.filter((m): m is Extract<Mark, {type: T}> => m.type === type);
const codes = (session: Session): string[] => session.getSnapshot().findings.map((f) => f.code);
/**
 * How late a timer may fire on a loaded 2-core machine (ms). Upper bounds on measured times allow this much
 * and no more, so a wait that doubled (2 s → 4 s) still fails while a busy scheduler does not.
 */
const LATE_MS = 1500;
/** A per-request wait that a server's start-up (node under load) cannot reach, where the test needs an answer (ms). */
const ANSWER_WAIT_MS = 5000;

describe('runProbe', () => {
	it('plays a healthy handshake: exact stdin bytes, frame kinds, exit 0 right after stdin closes', async () => {
		const {result, inits} = await probe(['node', servers.path('healthy')]);
		const {session} = result;
		// The probe's checks are the TS SDK's own zod schemas (core/jsonrpc/sdk-schemas.ts), loaded by import().
		expect(inits).toEqual([
			{
				pid: result.pid,
				startedAt: session.meta.startedAt,
				purpose: 'probe',
				schemas: SDK_SCHEMAS,
			},
		]);
		expect(session.meta.pid).toBe(result.pid);
		expect(text(session, 'stdin')).toBe(
			INIT_LINE +
				'{"jsonrpc":"2.0","method":"notifications/initialized"}\n' +
				'{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n' +
				'{"jsonrpc":"2.0","id":2,"method":"prompts/list"}\n' +
				'{"jsonrpc":"2.0","id":3,"method":"ping"}\n' +
				'{"jsonrpc":"2.0","id":"mcp-wire-1","method":"ping"}\n',
		);
		expect(framesOf(session, 'stdin').map((f) => [f.kind, f.method, f.id])).toEqual([
			['request', 'initialize', 0],
			['notification', 'notifications/initialized', undefined],
			['request', 'tools/list', 1],
			['request', 'prompts/list', 2],
			['request', 'ping', 3],
			['request', 'ping', 'mcp-wire-1'],
		]);
		expect(framesOf(session, 'stdout').map((f) => [f.kind, f.id, f.answers?.method])).toEqual([
			['response', 0, 'initialize'],
			['response', 1, 'tools/list'],
			['response', 2, 'prompts/list'],
			['response', 3, 'ping'],
			['response', 'mcp-wire-1', 'ping'],
		]);
		expect(text(session, 'stdout').split('\n')[3]).toBe('{"jsonrpc":"2.0","id":3,"result":{}}');
		expect(codes(session)).toEqual([]);
		expect(result.summary).toMatchObject({
			verdict: 'ok',
			era: 'legacy',
			tools: 1,
			prompts: 0,
			serverInfo: {name: 'tiny', version: '1.0.0'},
		});
		expect(result.era).toBe('legacy');
		expect(result.exit).toMatchObject({code: 0, signal: null});
		const [closed] = markOf(session, 'stdin-closed');
		expect(result.exit!.tMs - closed!.tMs).toBeGreaterThanOrEqual(0);
		expect(result.exit!.tMs - closed!.tMs).toBeLessThan(SHUTDOWN_MS.afterStdinClose);
		expect(markTypes(session).slice(0, 2)).toEqual(['phase:shutdown', 'stdin-closed']);
		expect(markTypes(session).slice(2).sort()).toEqual(['eof:stderr', 'eof:stdout']);
		expect(markOf(session, 'signal-sent')).toEqual([]);
		// every stdin chunk is one write, recorded when it was written, before its reply
		const stdinChunks = session.getSnapshot().chunksOf(framesOf(session, 'stdin')[0]!);
		expect(stdinChunks).toHaveLength(1);
		expect(stdinChunks[0]!.tMs).toBeLessThanOrEqual(framesOf(session, 'stdout')[0]!.tMs);
		expect(session.getSnapshot().isEnded).toBe(true);
		expect(result.reprobe).toBeUndefined();
	});

	it('writes `initialized` and `tools/list` in one write: a server that parses each read as one message fails every time', async () => {
		const {result} = await probe(['node', servers.path('readPerMessage')]);
		const {session} = result;
		const [, initialized, list] = framesOf(session, 'stdin');
		expect([initialized?.method, list?.method]).toEqual(['notifications/initialized', 'tools/list']);
		// One write, one stdin chunk, one read: the server's JSON.parse stops at the second message.
		const snap = session.getSnapshot();
		expect(snap.chunksOf(initialized!).map((c) => c.seq)).toEqual(snap.chunksOf(list!).map((c) => c.seq));
		const early = session.getSnapshot().findings.filter((f) => f.code === 'early-exit');
		expect(early.map((f) => f.detail?.['readTogether'])).toEqual([{offset: INIT_LINE.length + 55, position: 55}]);
	});

	it('does not blame a healthy slow server: a 3 s initialize within the 10 s timeout is clean', async () => {
		const {result} = await probe(['node', servers.path('healthy')], {env: testEnv({INIT_DELAY_MS: '3000'})});
		const init = framesOf(result.session, 'stdout')[0]!;
		expect(init.answers?.method).toBe('initialize');
		expect(init.answers!.latencyMs).toBeGreaterThanOrEqual(2990);
		expect(init.answers!.latencyMs).toBeLessThan(DEFAULT_TIMEOUT_MS);
		expect(markOf(result.session, 'timeout')).toEqual([]);
		expect(codes(result.session)).toEqual([]);
		expect(result.summary.verdict).toBe('ok');
	});

	it('names a server that never answers (no-response, with stderr tail and what it is blocked on), after timeout + shutdown', async () => {
		// The wait must outlast node's start-up under load: the stderr lines and /proc state are read at the timeout.
		const {result, elapsedMs, inits} = await probe(['node', servers.path('blocked')], {timeoutMs: ANSWER_WAIT_MS});
		const {session} = result;
		expect(text(session, 'stdin')).toBe(INIT_LINE);
		expect(session.getSnapshot().streamLength('stdout')).toBe(0);
		expect(markTypes(session).slice(0, 5)).toEqual([
			'timeout',
			'phase:shutdown',
			'stdin-closed',
			'signal:SIGTERM',
			markTypes(session)[4],
		]);
		const [timeout] = markOf(session, 'timeout');
		expect(timeout).toMatchObject({id: 0, method: 'initialize', timeoutMs: ANSWER_WAIT_MS});
		expect(timeout!.tMs).toBeGreaterThanOrEqual(ANSWER_WAIT_MS);
		expect(timeout!.tMs).toBeLessThan(ANSWER_WAIT_MS + LATE_MS);
		expect(result.exit).toMatchObject({code: null, signal: 'SIGTERM'});
		expect(codes(session)).toEqual(['shutdown-timeout', 'no-response']);
		const finding = session.getSnapshot().findings[1]!;
		// The probe waited the user's timeout, shorter than Claude Code's 30 s: mcp-wire's own limit, a warning.
		expect(finding).toMatchObject({
			code: 'no-response',
			stream: 'stdout',
			offset: 0,
			byteLength: 0,
			origin: 'probe',
			tMs: timeout!.tMs,
			severity: 'warning',
		});
		expect(finding.detail).toMatchObject({ownLimit: true, clientLimitMs: 30_000});
		expect(finding.message).toContain("mcp-wire's own limit");
		const stderrTail = finding.detail?.['stderrTail'] as string[];
		expect(stderrTail).toHaveLength(2);
		expect(stderrTail[0]).toBe('starting up');
		expect(stderrTail[1]).toMatch(/^connecting to database at 127\.0\.0\.1:\d+$/);
		expect(finding.detail?.['timeoutMs']).toBe(ANSWER_WAIT_MS);
		if (process.platform === 'linux') {
			const port = /:(\d+)$/.exec(stderrTail[1]!)![1];
			expect(finding.detail?.['blockedOn']).toMatch(
				new RegExp(
					`^pid ${result.pid} \\(node\\) sleeping in futex\\w*: waiting on a lock or another thread \\(futex\\); 3 TCP connections still connecting \\(SYN_SENT\\) to 127\\.0\\.0\\.1:${port}$`,
				),
			);
			expect(result.procInfo?.processes[0]).toMatchObject({pid: result.pid, state: 'S'});
			// The evidence at the timeout: the node process waits on the network (3 connects in SYN_SENT).
			expect(finding.detail?.['evidence']).toMatch(
				new RegExp(`^pid ${result.pid} \\(node .*blocked\\.mjs\\) waiting on the network`),
			);
			const seen = markOf(session, 'evidence').find((m) => m.evidence.reason === 'timeout');
			expect(seen?.evidence.processes[0]).toMatchObject({
				pid: result.pid,
				activity: 'network',
				holds: {stdin: [0], stdout: [1], stderr: [2]},
			});
		} else {
			expect(finding.detail?.['blockedOn']).toBeUndefined();
		}
		// the silent server also got a fresh Content-Length probe, which it ignored too
		expect(inits.map((i) => i.purpose)).toEqual(['probe', 'reprobe-content-length']);
		expect(result.answersContentLength).toBe(false);
		expect(result.reprobe?.getSnapshot().streamLength('stdout')).toBe(0);
		// timeout (5 s) + stdin close → SIGTERM (2 s), twice (main + re-probe with min(5000, 5000))
		expect(elapsedMs).toBeGreaterThan(2 * (ANSWER_WAIT_MS + SHUTDOWN_MS.afterStdinClose) - 100);
		expect(elapsedMs).toBeLessThan(
			2 * (ANSWER_WAIT_MS + SHUTDOWN_MS.afterStdinClose + SHUTDOWN_MS.afterSigterm) + 2 * LATE_MS,
		);
	});

	it('catches a server that buffers its reply until EOF: the reply arrives after the stdin-closed mark (unflushed-output)', async () => {
		// The wait outlasts node's start-up under load: the server is up and reading when stdin closes, so it
		// exits at once (a server still starting then would exit late: shutdown-timeout).
		const {result} = await probe(['node', servers.path('buffering')], {timeoutMs: ANSWER_WAIT_MS});
		const {session} = result;
		expect(text(session, 'stdin')).toBe(INIT_LINE);
		const [reply] = framesOf(session, 'stdout');
		expect(reply).toMatchObject({kind: 'response', id: 0, offset: 0});
		expect(text(session, 'stdout')).toBe(
			'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"prompts":{}},"serverInfo":{"name":"tiny","version":"1.0.0"}}}\n',
		);
		const [closed] = markOf(session, 'stdin-closed');
		expect(reply!.firstTMs).toBeGreaterThanOrEqual(closed!.tMs);
		expect(markTypes(session).slice(0, 3)).toEqual(['timeout', 'phase:shutdown', 'stdin-closed']);
		expect(codes(session)).toEqual(['unflushed-output']);
		expect(session.getSnapshot().findings[0]).toMatchObject({
			stream: 'stdout',
			offset: 0,
			byteLength: reply!.byteLength,
		});
		expect(result.exit).toMatchObject({code: 0, signal: null});
		expect(result.reprobe).toBeUndefined();
	});

	it('a reply held until EOF is no silence in a session that keeps no frames either (probe --json): no re-probe', async () => {
		// Before, the --json probe looked for the reply among the session's frames, found none, re-probed with
		// Content-Length, and the re-probe's own reply at EOF made a false content-length-framing.
		const {result, inits} = await probe(['node', servers.path('buffering')], {timeoutMs: ANSWER_WAIT_MS}, false);
		expect(inits.map((i) => i.purpose)).toEqual(['probe']);
		expect(result.reprobe).toBeUndefined();
		expect(result.answersContentLength).toBe(false);
		expect(result.summary.findings.map((f) => f.code)).toEqual(['unflushed-output']);
	});

	it('reports a command that cannot start as spawn-failed, without throwing', async () => {
		const {result, logs, inits} = await probe(['mcp-wire-no-such-command-xyz', '--stdio']);
		expect(inits).toEqual([
			{
				startedAt: result.session.meta.startedAt,
				purpose: 'probe',
				schemas: SDK_SCHEMAS,
			},
		]);
		expect(result.spawnError?.code).toBe('ENOENT');
		expect(result.pid).toBeUndefined();
		expect(result.era).toBe('unknown');
		const findings = result.session.getSnapshot().findings;
		expect(findings.map((f) => [f.code, f.stream, f.offset, f.byteLength, f.origin])).toEqual([
			['spawn-failed', 'stdout', 0, 0, 'probe'],
		]);
		expect(findings[0]!.message).toBe('cannot start `mcp-wire-no-such-command-xyz`: command not found (ENOENT)');
		expect(findings[0]!.detail).toEqual({
			file: 'mcp-wire-no-such-command-xyz',
			errno: 'ENOENT',
			reason: 'command not found (ENOENT)',
			command: ['mcp-wire-no-such-command-xyz', '--stdio'],
		});
		expect(logs).toEqual(['cannot start "mcp-wire-no-such-command-xyz": command not found (ENOENT)']);
		expect(result.summary.verdict).toBe('fail');
		expect(result.session.getSnapshot().streamLength('stdin')).toBe(0);
	});

	it('escalates to SIGTERM then SIGKILL for a server that ignores EOF and SIGTERM (~4 s, all marked)', async () => {
		const {result} = await probe(['node', servers.path('stubborn')]);
		const {session} = result;
		expect(markTypes(session).slice(0, 4)).toEqual([
			'phase:shutdown',
			'stdin-closed',
			'signal:SIGTERM',
			'signal:SIGKILL',
		]);
		const [closed] = markOf(session, 'stdin-closed');
		const [term, kill] = markOf(session, 'signal-sent');
		expect(term!.tMs - closed!.tMs).toBeGreaterThanOrEqual(1990);
		expect(term!.tMs - closed!.tMs).toBeLessThan(2000 + LATE_MS);
		expect(kill!.tMs - term!.tMs).toBeGreaterThanOrEqual(1990);
		expect(kill!.tMs - term!.tMs).toBeLessThan(2000 + LATE_MS);
		expect(result.exit).toMatchObject({code: null, signal: 'SIGKILL'});
		expect(result.exit!.tMs - closed!.tMs).toBeGreaterThanOrEqual(3980);
		expect(result.exit!.tMs - closed!.tMs).toBeLessThan(4000 + 2 * LATE_MS);
		expect(text(session, 'stderr')).toBe('stdin closed, staying up\nSIGTERM ignored\n');
		expect(codes(session)).toEqual(['shutdown-timeout']);
		expect(session.getSnapshot().findings[0]).toMatchObject({severity: 'error', detail: {signal: 'SIGKILL'}});
	});

	it('re-probes a server that is silent to NDJSON with Content-Length framing, and names content-length-framing', async () => {
		// The re-probe waits min(timeout, 5 s) for a fresh node process: long enough for its start-up under load.
		const {result, inits} = await probe(['node', servers.path('contentLength')], {timeoutMs: ANSWER_WAIT_MS});
		const {session, reprobe} = result;
		expect(inits.map((i) => i.purpose)).toEqual(['probe', 'reprobe-content-length']);
		expect(inits[1]!.pid).toBe(reprobe!.meta.pid);
		expect(inits[1]!.pid).not.toBe(result.pid);
		expect(text(session, 'stdin')).toBe(INIT_LINE);
		expect(session.getSnapshot().streamLength('stdout')).toBe(0);
		expect(result.exit).toMatchObject({code: 0, signal: null});
		expect(result.answersContentLength).toBe(true);
		// the re-probe: a fresh process, initialize framed with headers, a Content-Length reply
		expect(text(reprobe!, 'stdin')).toBe(`Content-Length: ${INIT_BODY.length}\r\n\r\n${INIT_BODY}`);
		expect(markTypes(reprobe!)[0]).toBe('phase:reprobe-content-length');
		const body =
			'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"lsp-ish","version":"0.0.1"}}}';
		expect(text(reprobe!, 'stdout')).toBe(`Content-Length: ${body.length}\r\n\r\n${body}`);
		const [reply] = framesOf(reprobe!, 'stdout');
		expect(reply).toMatchObject({framing: 'content-length', kind: 'response', id: 0});
		// the main session: content-length-framing instead of no-response
		expect(codes(session)).toEqual(['content-length-framing']);
		expect(session.getSnapshot().findings[0]).toMatchObject({
			stream: 'stdout',
			offset: 0,
			byteLength: 0,
			origin: 'probe',
			detail: {
				reprobe: true,
				replyBytes: `Content-Length: ${body.length}\r\n\r\n`.length + body.length,
				replyFraming: 'content-length',
			},
		});
	});

	it('gives the server only the SDK allow-list plus --env keys', async () => {
		const parentEnv = {
			...process.env,
			MCP_WIRE_PARENT_ONLY: 'p',
			NODE_OPTIONS: '--no-warnings',
			PYTHONUNBUFFERED: '1',
			MCP_WIRE_PASS: 'yes',
		};
		const built = buildEnv({
			inheritEnv: false,
			env: ['EXTRA_FLAG=1', 'MCP_WIRE_PASS'],
			parentEnv,
			platform: process.platform,
		});
		const {result} = await probe(['node', servers.path('envPrinter')], {env: built.env});
		const keys = JSON.parse(text(result.session, 'stderr').split('\n')[0]!) as string[];
		const allowed = SDK_DEFAULT_ENV_KEYS[process.platform === 'win32' ? 'win32' : 'posix'].filter(
			(k) => process.env[k] !== undefined,
		);
		expect(keys).toEqual([...allowed, 'EXTRA_FLAG', 'MCP_WIRE_PASS'].sort());
		expect(result.summary.verdict).toBe('ok');
	});

	it('probes a 2026-07-28 server that rejects initialize with server/discover and tools/list (R19)', async () => {
		const {result} = await probe(['node', servers.path('modern')]);
		const {session} = result;
		const meta =
			'{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}';
		expect(text(session, 'stdin')).toBe(
			INIT_LINE +
				`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":${meta}}}\n` +
				`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":${meta}}}\n`,
		);
		expect(framesOf(session, 'stdout').map((f) => [f.kind, f.id])).toEqual([
			['error', 0],
			['response', 1],
			['response', 2],
		]);
		expect(markTypes(session).slice(0, 3)).toEqual(['phase:modern-era', 'phase:shutdown', 'stdin-closed']);
		expect(result.era).toBe('modern');
		// No wire fault, but the TS SDK 1.x and Python SDK clients send only initialize and fail on the rejection
		// (checked with the real clients, docs/clients.md): the verdict follows the client outcome.
		expect(result.summary).toMatchObject({era: 'modern', tools: 2, verdict: 'fail'});
		expect(result.summary.clients?.find((c) => c.client === 'ts-sdk-v1')?.outcome).toBe('fails');
		expect(codes(session)).toEqual([]);
	});

	it('stops at once when the server exits early (no stdin-closed, no signals): early-exit', async () => {
		const {result, elapsedMs} = await probe(['node', servers.path('crash')]);
		const {session} = result;
		expect(result.exit).toMatchObject({code: 3, signal: null});
		expect(markTypes(session).sort()).toEqual(['eof:stderr', 'eof:stdout']);
		expect(codes(session)).toEqual(['early-exit']);
		expect(session.getSnapshot().findings[0]).toMatchObject({
			offset: 0,
			byteLength: 0,
			detail: {exitCode: 3, phase: 'before-handshake', stderrTail: ['Error: config file missing']},
		});
		expect(result.era).toBe('unknown');
		expect(result.reprobe).toBeUndefined();
		// It did not wait for the initialize timeout nor for a shutdown step.
		expect(elapsedMs).toBeLessThan(DEFAULT_TIMEOUT_MS);
	});
});

describe('runProbe and a reply framed with Content-Length', () => {
	it('stops waiting for initialize once the held reply had stdout quiet for CONTENT_LENGTH_SETTLE_MS, not after 30 s, with the finding of the full wait', async () => {
		// The default initialize wait (30 s): the test shows the probe does not wait it out.
		const {result, elapsedMs} = await probe(['node', servers.path('contentLengthReply')]);
		const {session} = result;
		const body =
			'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"open-agreements","version":"0.9.2"}}}';
		const reply = `Content-Length: ${body.length}\r\nContent-Type: application/json\r\n\r\n${body}`;
		// Nothing more was sent: a client never sees this reply, so the probe does not play the rest.
		expect(text(session, 'stdin')).toBe(INIT_LINE);
		expect(text(session, 'stdout')).toBe(reply);
		expect(
			framesOf(session, 'stdout').map((f) => [f.framing, f.kind, f.id, f.offset, f.byteLength, f.terminator]),
		).toEqual([['content-length', 'response', 0, 0, reply.length, 'length']]);
		expect(codes(session)).toEqual(['content-length-framing']);
		expect(session.getSnapshot().findings[0]).toMatchObject({
			stream: 'stdout',
			offset: 0,
			severity: 'error',
			detail: {
				declaredLength: body.length,
				bodyLength: body.length,
				lengthMatches: true,
				bodyEnd: 'json',
				hasContentType: true,
				lineEndings: 'crlf',
			},
		});
		expect(markTypes(session).slice(0, 4)).toEqual([
			'phase:content-length-reply',
			'timeout',
			'phase:shutdown',
			'stdin-closed',
		]);
		const [gaveUp] = markOf(session, 'timeout');
		expect(gaveUp).toMatchObject({id: 0, method: 'initialize'});
		expect(gaveUp!.timeoutMs).toBeGreaterThanOrEqual(CONTENT_LENGTH_SETTLE_MS);
		expect(gaveUp!.timeoutMs).toBeLessThan(CONTENT_LENGTH_SETTLE_MS + 10_000);
		expect(result.summary).toMatchObject({verdict: 'fail', errors: 1});
		expect(result.reprobe).toBeUndefined();
		expect(result.exit).toMatchObject({code: 0, signal: null});
		expect(elapsedMs).toBeLessThan(DEFAULT_INITIALIZE_TIMEOUT_MS - 5_000);
	});
});

describe('runProbe and a reply without its final line end (real process)', () => {
	it.runIf(process.platform === 'linux')(
		'stops waiting once the idle server is seen twice with the whole reply pending, with no slow-response',
		async () => {
			const {result, elapsedMs, logs} = await probe(['node', servers.path('noFinalNewline')]);
			const {session} = result;
			expect(markTypes(session).slice(0, 4)).toEqual([
				'phase:stopped-early',
				'timeout',
				'phase:shutdown',
				'stdin-closed',
			]);
			const [gaveUp] = markOf(session, 'timeout');
			// Looks at 1 s and 2 s after the write; generous for a loaded machine, far below the 30 s limit.
			expect(gaveUp!.timeoutMs).toBeLessThan(15_000);
			expect(codes(session)).not.toContain('slow-response');
			expect(codes(session)).toContain('missing-newline');
			expect(logs.some((line) => line.includes('the reply came without its line end'))).toBe(true);
			expect(elapsedMs).toBeLessThan(DEFAULT_INITIALIZE_TIMEOUT_MS - 5_000);
		},
	);
});

describe('runProbe with a server started before it (the CLI: spawn first, load the probe meanwhile)', () => {
	it('quotes a traceback written after the exit when all of it waited in the spawn buffer (early-exit)', async () => {
		// The shell exits at once; its child writes to stderr 30 ms later and holds it open till then. By the
		// time the probe listens, stderr has ended: the exit must still reach the session after the line.
		const command = ['sh', '-c', '(sleep 0.03; echo "ModuleNotFoundError: late" >&2) & exit 1'];
		const spawned = startProbeServer({
			command,
			env: testEnv(),
			initialize: {protocolVersion: '2025-11-25', clientVersion: VERSION},
		});
		const deadline = Date.now() + 20_000;
		while (!spawned.server.ended.stderr && Date.now() < deadline)
			await new Promise((resolve) => setTimeout(resolve, 20));
		expect(spawned.server.ended.stderr).toBe(true);
		const {result} = await probe(command, {spawned, timeoutMs: ANSWER_WAIT_MS});
		const early = result.session.getSnapshot().findings.find((f) => f.code === 'early-exit');
		expect(early?.message).toBe(
			'the process exited (code 1) before the handshake completed; stderr ends: ModuleNotFoundError: late',
		);
	});

	it('records the initialize written at the spawn first and plays the same exchange, even when the reply came before runProbe', async () => {
		const spawned = startProbeServer({
			command: ['node', servers.path('healthy')],
			env: testEnv(),
			initialize: {protocolVersion: '2025-11-25', clientVersion: VERSION},
		});
		expect(spawned.initialize?.tMs).toBeGreaterThanOrEqual(0);
		// The server starts, reads initialize and replies while the probe is not yet listening (on most
		// machines; either way the record must be the same): its reply waits in the spawn's buffer.
		await new Promise((resolve) => setTimeout(resolve, 1500));
		const {result} = await probe(['node', servers.path('healthy')], {spawned, timeoutMs: ANSWER_WAIT_MS});
		const {session} = result;
		expect(result.pid).toBe(spawned.server.pid);
		expect(text(session, 'stdin')).toBe(
			INIT_LINE +
				'{"jsonrpc":"2.0","method":"notifications/initialized"}\n' +
				'{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n' +
				'{"jsonrpc":"2.0","id":2,"method":"prompts/list"}\n' +
				'{"jsonrpc":"2.0","id":3,"method":"ping"}\n' +
				'{"jsonrpc":"2.0","id":"mcp-wire-1","method":"ping"}\n',
		);
		const frames = session.getSnapshot().frames;
		expect(frames.map((f) => [f.stream, f.kind, f.id])).toEqual([
			['stdin', 'request', 0],
			['stdout', 'response', 0],
			['stdin', 'notification', undefined],
			['stdin', 'request', 1],
			['stdout', 'response', 1],
			['stdin', 'request', 2],
			['stdout', 'response', 2],
			['stdin', 'request', 3],
			['stdout', 'response', 3],
			['stdin', 'request', 'mcp-wire-1'],
			['stdout', 'response', 'mcp-wire-1'],
		]);
		// The request keeps the time it was written at; the reply's latency is counted from then.
		expect(frames[0]!.tMs).toBe(spawned.initialize!.tMs);
		expect(frames[1]!.tMs).toBeGreaterThanOrEqual(frames[0]!.tMs);
		expect(codes(session)).toEqual([]);
		expect(markOf(session, 'timeout')).toEqual([]);
		expect(result.summary).toMatchObject({
			verdict: 'ok',
			era: 'legacy',
			tools: 1,
			serverInfo: {name: 'tiny', version: '1.0.0'},
		});
		expect(result.exit).toMatchObject({code: 0, signal: null});
	});
});

describe('runProbe, more edges', () => {
	it('marks a timeout on tools/list and goes straight to shutdown (no prompts/list, no ping)', async () => {
		// One wait for every request: it must outlast node's start-up under load, or initialize times out instead.
		const {result} = await probe(['node', servers.path('healthy')], {
			env: testEnv({IGNORE_METHOD: 'tools/list'}),
			timeoutMs: ANSWER_WAIT_MS,
		});
		const {session} = result;
		expect(text(session, 'stdin')).toBe(
			INIT_LINE +
				'{"jsonrpc":"2.0","method":"notifications/initialized"}\n' +
				'{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n',
		);
		expect(markTypes(session).slice(0, 3)).toEqual(['timeout', 'phase:shutdown', 'stdin-closed']);
		expect(markOf(session, 'timeout')[0]).toMatchObject({id: 1, method: 'tools/list', timeoutMs: ANSWER_WAIT_MS});
		expect(codes(session)).toEqual(['unanswered-request']);
		expect(session.getSnapshot().findings[0]).toMatchObject({
			stream: 'stdin',
			offset: INIT_LINE.length + 55,
			byteLength: 47,
			detail: {id: 1, method: 'tools/list'},
		});
		expect(result.exit).toMatchObject({code: 0, signal: null});
		expect(result.reprobe).toBeUndefined();
	});

	it('kills the server and rethrows when createSession throws', async () => {
		let pid: number | undefined;
		await expect(
			runProbe({
				command: ['node', servers.path('stubborn')],
				env: testEnv(),
				createSession: (init) => {
					pid = init.pid;
					throw new Error('no session today');
				},
			}),
		).rejects.toThrow('no session today');
		expect(pid).toBeTypeOf('number');
		let alive = true;
		for (let i = 0; i < 40 && alive; i++) {
			await new Promise((r) => setTimeout(r, 50));
			try {
				process.kill(pid!, 0);
			} catch {
				alive = false;
			}
		}
		expect(alive).toBe(false);
	});
});

describe('isModernEraError', () => {
	it.each([
		[
			{
				code: -32022,
				message: 'Unsupported protocol version',
				data: {supported: ['2026-07-28'], requested: '2025-11-25'},
			},
			true,
		],
		[{code: -32602, message: 'This server speaks 2026-07-28 only'}, true],
		[{code: -32600, message: 'bad', data: {versions: ['2026-07-28']}}, true],
		[{code: -32022, message: 'nope', data: {supported: ['2099-01-01']}}, true],
		[{code: -32602, message: 'Unsupported protocolVersion 2025-11-25', data: {supported: ['2025-06-18']}}, false],
		[{code: -32022, message: 'x'}, false],
		['2026-07-28', false],
		[null, false],
	])('%j → %s', (error, expected) => {
		expect(isModernEraError(error)).toBe(expected);
	});
});

describe('runProbe with the schemas still loading (the CLI): the session is built once the exchange is over', () => {
	/** Probe with `schemas` as a promise; `builtAtMs`: when the session was built, ms on the session's clock (to 1 ms). */
	async function probeLoading(env: Record<string, string>) {
		let builtAtMs: number | undefined;
		const {result} = await probe(['node', servers.path('healthy')], {
			env,
			timeoutMs: ANSWER_WAIT_MS,
			schemas: Promise.resolve(SDK_SCHEMAS),
			clientVersion: VERSION,
			createSession: (init) => {
				builtAtMs = Date.now() - Date.parse(init.startedAt);
				return new Session(
					{
						tool: {name: 'mcp-wire', version: VERSION},
						node: process.version,
						platform: process.platform,
						command: ['node'],
						envMode: 'sdk-default',
						startedAt: init.startedAt,
						mode: 'probe',
						protocolVersion: '2025-11-25',
					},
					{schemas: init.schemas},
				);
			},
		});
		return {result, builtAtMs: builtAtMs!};
	}

	it('a fast server: built when stdin is closed (not between its replies and our requests), with every event and the same verdict', async () => {
		const {result, builtAtMs} = await probeLoading(testEnv());
		const {session} = result;
		const [closed] = markOf(session, 'stdin-closed');
		// Built at the close, or (a machine so loaded the exchange took longer) once SESSION_DEFER_MS passed.
		expect(builtAtMs >= Math.floor(closed!.tMs) - 1 || builtAtMs >= 1000).toBe(true);
		expect(framesOf(session, 'stdin').map((f) => f.method)).toEqual([
			'initialize',
			'notifications/initialized',
			'tools/list',
			'prompts/list',
			'ping',
			'ping',
		]);
		expect(framesOf(session, 'stdout').map((f) => [f.kind, f.id])).toEqual([
			['response', 0],
			['response', 1],
			['response', 2],
			['response', 3],
			['response', 'mcp-wire-1'],
		]);
		expect(markTypes(session).slice(0, 2)).toEqual(['phase:shutdown', 'stdin-closed']);
		expect(codes(session)).toEqual([]);
		expect(result.summary).toMatchObject({verdict: 'ok', era: 'legacy', tools: 1, prompts: 0});
	});

	it('a slow server: built before its reply (at most about a second in), so its frames still show as they come', async () => {
		const {result, builtAtMs} = await probeLoading(testEnv({INIT_DELAY_MS: '3000'}));
		const reply = framesOf(result.session, 'stdout')[0]!;
		expect(reply).toMatchObject({kind: 'response', id: 0});
		expect(builtAtMs).toBeLessThan(reply.tMs);
		expect(codes(result.session)).toEqual([]);
	});
});
