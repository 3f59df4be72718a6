import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {Session} from '../../src/core/session/session.js';
import {USER_STOP_PHASE, type SessionMeta} from '../../src/core/types.js';
import {runProbe, type ProbeOptions} from '../../src/probe/probe.js';
import {SERVERS, testEnv} from '../helpers/servers.js';

// The probe under the TUI (interactive, docs/cli.md#the-terminal-ui): its edge cases, against real node processes.

const dir = mkdtempSync(path.join(tmpdir(), 'mcp-wire-interactive-'));
afterAll(() => rmSync(dir, {recursive: true, force: true}));
function server(name: string, source: string): string {
	const file = path.join(dir, `${name}.mjs`);
	writeFileSync(file, source);
	return file;
}

/** Writes a log notification to stderr (the wrong stream): message-on-stderr, an end-of-session check. */
const MESSAGE_ON_STDERR = server(
	'message-on-stderr',
	`process.stderr.write(JSON.stringify({jsonrpc: '2.0', method: 'notifications/message', params: {level: 'info', data: 'ready'}}) + '\\n');\n${SERVERS.healthy}`,
);
/** Healthy, but exits 200 ms after its first ping (the probe's last scripted request). */
const EXITS_AFTER_PING = server(
	'exits-after-ping',
	`${SERVERS.healthy}\nprocess.stdin.on('data', (d) => { if (d.toString().includes('"ping"')) setTimeout(() => process.exit(0), 200); });`,
);

function interactive(command: string, extra: Partial<ProbeOptions> = {}) {
	let release!: () => void;
	const hold = new Promise<void>((resolve) => {
		release = resolve;
	});
	let onReady!: (send: (method: string, params?: unknown) => boolean) => void;
	const ready = new Promise<(method: string, params?: unknown) => boolean>((resolve) => {
		onReady = resolve;
	});
	let session: Session | undefined;
	const done = runProbe({
		command: ['node', command],
		env: testEnv(),
		timeoutMs: 20_000,
		interactive: {hold, onReady},
		createSession: (init) => {
			const meta: SessionMeta = {
				tool: {name: 'mcp-wire', version: '0.1.0'},
				node: process.version,
				platform: process.platform,
				command: ['node', command],
				envMode: 'sdk-default',
				startedAt: init.startedAt,
				mode: 'probe',
			};
			const created = new Session(meta);
			if (init.purpose === 'probe') session = created;
			return created;
		},
		...extra,
	});
	return {done, ready, release, session: () => session!};
}

const codes = (session: Session): string[] => session.getSnapshot().findings.map((finding) => finding.code);

describe('runProbe, interactive (the TUI holds the server)', () => {
	it('reports the end-of-session findings once the scripted exchange is done, while the server is held', async () => {
		const run = interactive(MESSAGE_ON_STDERR);
		await run.ready;
		// The server is still up and held: the session is live, and already shows what the plain log shows.
		expect(run.session().getSnapshot().isEnded).toBe(false);
		expect(codes(run.session())).toEqual(['message-on-stderr']);
		run.release();
		const result = await run.done;
		expect(codes(result.session)).toEqual(['message-on-stderr']);
	}, 60_000);

	it('send says whether it wrote anything: false once the server has exited', async () => {
		const run = interactive(EXITS_AFTER_PING);
		const send = await run.ready;
		const deadline = Date.now() + 10_000;
		while (run.session().getSnapshot().exit === undefined && Date.now() < deadline)
			await new Promise((resolve) => setTimeout(resolve, 50));
		expect(run.session().getSnapshot().exit).toBeDefined();
		const before = run.session().streamLength('stdin');
		expect(send('ping')).toBe(false);
		expect(run.session().streamLength('stdin')).toBe(before);
		run.release();
		await run.done;
	}, 60_000);

	it('a user who stops the probe before initialize is answered is not a server fault', async () => {
		const abort = new AbortController();
		const slow = server('slow-init', `process.env.INIT_DELAY_MS = '60000';\n${SERVERS.healthy}`);
		const run = interactive(slow, {signal: abort.signal});
		const deadline = Date.now() + 15_000;
		while ((run.session?.() === undefined || run.session().streamLength('stdin') === 0) && Date.now() < deadline)
			await new Promise((resolve) => setTimeout(resolve, 50));
		abort.abort();
		const result = await run.done;
		const marks = result.session
			.getSnapshot()
			.marks.map((mark) => (mark.type === 'phase' ? `phase:${mark.name}` : mark.type));
		expect(marks).toContain(`phase:${USER_STOP_PHASE}`);
		expect(codes(result.session)).not.toContain('unanswered-request');
		expect(result.summary.verdict).toBe('stopped');
	}, 60_000);

	it('a stop that came before the probe ran (Ctrl-C while it loads) is the user stop too, not a server fault', async () => {
		const abort = new AbortController();
		abort.abort();
		const slow = server('slow-init-early', `process.env.INIT_DELAY_MS = '60000';\n${SERVERS.healthy}`);
		const result = await interactive(slow, {signal: abort.signal}).done;
		const marks = result.session
			.getSnapshot()
			.marks.map((mark) => (mark.type === 'phase' ? `phase:${mark.name}` : mark.type));
		expect(marks).toContain(`phase:${USER_STOP_PHASE}`);
		expect(codes(result.session)).not.toContain('unanswered-request');
		expect(result.summary.verdict).toBe('stopped');
	}, 60_000);
});
