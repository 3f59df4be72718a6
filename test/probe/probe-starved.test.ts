/**
 * The probe on a loaded machine: its own process may get no CPU for seconds. Timers that fell due
 * meanwhile run back to back before the next read of the server's pipes, so a look at the server taken
 * then sees a server that already replied (and went back to `read(0)`) as "blocked reading stdin". Such
 * a look must not count: no early stop, no `unflushed-output` on a healthy server (healthy-python
 * got `unflushed-output@stdout:0` when its test process was starved of CPU). The starvation is made here on purpose: the
 * test blocks this process from the moment the server announces (by a marker file) that its reply is
 * on its way, until well after it was written, whatever the machine's speed.
 */
import {existsSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {Session} from '../../src/core/session/session.js';
import type {SessionMeta} from '../../src/core/types.js';
import {runProbe} from '../../src/probe/probe.js';
import {testEnv} from '../helpers/servers.js';

const dir = mkdtempSync(path.join(tmpdir(), 'mcp-wire-starved-'));
afterAll(() => rmSync(dir, {recursive: true, force: true}));
const marker = path.join(dir, 'replying');
const server = path.join(dir, 'server.py');
writeFileSync(
	server,
	`import json, sys, time
for line in sys.stdin:
    m = json.loads(line)
    if "id" not in m or "method" not in m:
        continue
    if m["method"] == "initialize":
        open(${JSON.stringify(marker)}, "w").close()
        time.sleep(0.2)
        r = {"protocolVersion": m["params"]["protocolVersion"], "capabilities": {"tools": {}}, "serverInfo": {"name": "starved", "version": "1.0.0"}}
    elif m["method"] == "tools/list":
        r = {"tools": []}
    else:
        r = {}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": r}) + "\\n")
    sys.stdout.flush()
`,
);

/** How long this process is kept from running once the server announced its reply (ms): past two looks whatever the start-up time. */
const STARVE_MS = 9000;

describe('the probe starved of CPU (real process)', () => {
	it('reads the reply that was written while it had no CPU before judging any look at the server', async () => {
		let blockedAt: number | undefined;
		let blockedUntil: number | undefined;
		const poll = setInterval(() => {
			if (blockedAt !== undefined || !existsSync(marker)) return;
			blockedAt = Date.now();
			while (Date.now() - blockedAt < STARVE_MS) {
				// no event loop: every timer falls due, no byte is read
			}
			blockedUntil = Date.now();
		}, 2);
		let session: Session | undefined;
		const command = ['python3', server];
		const result = await runProbe({
			command,
			env: testEnv(),
			createSession: (init) => {
				const meta: SessionMeta = {
					tool: {name: 'mcp-wire', version: '0'},
					node: process.version,
					platform: process.platform,
					command,
					envMode: 'sdk-default',
					startedAt: init.startedAt,
					mode: 'probe',
					protocolVersion: '2025-11-25',
				};
				session = new Session(meta);
				return session;
			},
		});
		clearInterval(poll);
		// The starvation happened while the reply was on its way.
		expect(blockedAt).toBeDefined();
		expect(blockedUntil! - blockedAt!).toBeGreaterThanOrEqual(STARVE_MS);
		const snapshot = result.session.getSnapshot();
		expect(snapshot.findings.map((f) => `${f.code}@${f.stream}:${f.offset}`)).toEqual([]);
		expect(
			snapshot.marks.filter((m) => m.type === 'phase').map((m) => (m.type === 'phase' ? m.name : '')),
		).not.toContain('stopped-early');
		expect(result.summary.verdict).toBe('ok');
		expect(snapshot.frames.filter((f) => f.stream === 'stdout').length).toBeGreaterThanOrEqual(2);
		expect(session).toBe(result.session);
	}, 120_000);
});
