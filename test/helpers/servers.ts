/**
 * Tiny inline MCP servers for the tap tests, written to a temp dir as .mjs files (each commits one
 * behaviour). They depend on nothing but Node, so the tests do not depend on examples/.
 */
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';

/** A line reader over stdin that answers requests with `reply(msg)`; shared by the servers below. */
const LINE_LOOP = `
let buf = '';
process.stdin.on('data', (d) => {
  buf += d.toString('utf8');
  let i;
  while ((i = buf.indexOf('\\n')) !== -1) {
    const line = buf.slice(0, i);
    buf = buf.slice(i + 1);
    if (line.trim() === '') continue;
    onMessage(JSON.parse(line));
  }
});
`;

const HEALTHY_HANDLERS = `
const INIT_DELAY_MS = Number(process.env.INIT_DELAY_MS ?? '0');
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
function answer(msg) {
  switch (msg.method) {
    case 'initialize':
      return {protocolVersion: msg.params.protocolVersion, capabilities: {tools: {}, prompts: {}}, serverInfo: {name: 'tiny', version: '1.0.0'}};
    case 'tools/list':
      return {tools: [{name: 'echo', inputSchema: {type: 'object'}}]};
    case 'prompts/list':
      return {prompts: []};
    case 'ping':
      return {};
    default:
      return undefined;
  }
}
function onMessage(msg) {
  if (msg.id === undefined || msg.method === process.env.IGNORE_METHOD) return;
  const result = answer(msg);
  const reply = result === undefined
    ? {jsonrpc: '2.0', id: msg.id, error: {code: -32601, message: 'Method not found'}}
    : {jsonrpc: '2.0', id: msg.id, result};
  if (msg.method === 'initialize' && INIT_DELAY_MS > 0) setTimeout(() => send(reply), INIT_DELAY_MS);
  else send(reply);
}
`;

/** The server sources, by name. */
export const SERVERS = {
	/** Answers initialize (tools + prompts), tools/list, prompts/list, ping; exits at stdin EOF. INIT_DELAY_MS delays initialize; IGNORE_METHOD is never answered. */
	healthy: `${HEALTHY_HANDLERS}${LINE_LOOP}`,
	/** Like healthy, but ignores stdin EOF and SIGTERM (needs SIGKILL). */
	stubborn: `${HEALTHY_HANDLERS}${LINE_LOOP}
process.stdin.on('end', () => process.stderr.write('stdin closed, staying up\\n'));
process.on('SIGTERM', () => process.stderr.write('SIGTERM ignored\\n'));
setInterval(() => {}, 1000);
`,
	/** Holds every reply in memory until stdin EOF, then writes them all and exits (block-buffered stdout). */
	buffering: `${HEALTHY_HANDLERS.replace("const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');", "const held = [];\nconst send = (m) => held.push(JSON.stringify(m) + '\\n');")}${LINE_LOOP}
process.stdin.on('end', () => { process.stdout.write(held.join('')); });
`,
	/**
	 * Never reads stdin: opens TCP connections that stay in SYN_SENT (a listener with a full accept
	 * queue), then blocks its event loop in Atomics.wait. Dies on SIGTERM (no handler).
	 */
	blocked: `
import net from 'node:net';
process.stderr.write('starting up\\n');
const server = net.createServer();
server.listen({port: 0, host: '127.0.0.1', backlog: 1}, () => {
  const {port} = server.address();
  for (let i = 0; i < 5; i++) net.connect(port, '127.0.0.1').on('error', () => {});
  process.stderr.write('connecting to database at 127.0.0.1:' + port + '\\n');
  process.nextTick(() => process.nextTick(() => setImmediate(() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0))));
});
`,
	/** F18: reads newline-delimited JSON, answers with Content-Length and Content-Type headers and no line end after the body; exits at stdin EOF. */
	contentLengthReply: `
const send = (m) => {
  const body = JSON.stringify(m);
  process.stdout.write('Content-Length: ' + Buffer.byteLength(body) + '\\r\\nContent-Type: application/json\\r\\n\\r\\n' + body);
};
function onMessage(msg) {
  if (msg.id === undefined) return;
  send({jsonrpc: '2.0', id: msg.id, result: msg.method === 'initialize' ? {protocolVersion: '2025-06-18', capabilities: {tools: {}}, serverInfo: {name: 'open-agreements', version: '0.9.2'}} : {}});
}
${LINE_LOOP}`,
	/** Answers initialize without the line end after its reply (F-case of docs/findings.md#missing-newline); exits at stdin EOF. */
	noFinalNewline: `
function onMessage(msg) {
  if (msg.id === undefined) return;
  process.stdout.write(JSON.stringify({jsonrpc: '2.0', id: msg.id, result: {protocolVersion: '2025-06-18', capabilities: {}, serverInfo: {name: 'no-lf', version: '1.0.0'}}}));
}
${LINE_LOOP}`,
	/** Speaks only LSP-style Content-Length framing; silent to newline-delimited input; exits at stdin EOF. */
	contentLength: `
let buf = Buffer.alloc(0);
process.stdin.on('data', (d) => {
  buf = Buffer.concat([buf, d]);
  for (;;) {
    const sep = buf.indexOf('\\r\\n\\r\\n');
    if (sep === -1) return;
    const m = /Content-Length: *(\\d+)/i.exec(buf.subarray(0, sep).toString('latin1'));
    if (!m) { buf = buf.subarray(sep + 4); continue; }
    const len = Number(m[1]);
    if (buf.length < sep + 4 + len) return;
    const msg = JSON.parse(buf.subarray(sep + 4, sep + 4 + len).toString('utf8'));
    buf = buf.subarray(sep + 4 + len);
    if (msg.id === undefined) continue;
    const body = JSON.stringify({jsonrpc: '2.0', id: msg.id, result: {protocolVersion: '2025-11-25', capabilities: {}, serverInfo: {name: 'lsp-ish', version: '0.0.1'}}});
    process.stdout.write('Content-Length: ' + Buffer.byteLength(body) + '\\r\\n\\r\\n' + body);
  }
});
`,
	/** Prints its sorted env keys as one JSON line to stderr, then behaves like healthy. */
	envPrinter: `process.stderr.write(JSON.stringify(Object.keys(process.env).sort()) + '\\n');
${HEALTHY_HANDLERS}${LINE_LOOP}`,
	/** A 2026-07-28-only server: rejects initialize with -32022, answers server/discover and tools/list. */
	modern: `
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
function onMessage(msg) {
  if (msg.id === undefined) return;
  if (msg.method === 'initialize') {
    send({jsonrpc: '2.0', id: msg.id, error: {code: -32022, message: 'Unsupported protocol version; this server speaks 2026-07-28', data: {supported: ['2026-07-28'], requested: msg.params.protocolVersion}}});
  } else if (msg.method === 'server/discover') {
    send({jsonrpc: '2.0', id: msg.id, result: {resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {tools: {}}, serverInfo: {name: 'modern', version: '2.0.0'}}});
  } else if (msg.method === 'tools/list') {
    send({jsonrpc: '2.0', id: msg.id, result: {resultType: 'complete', tools: [{name: 'a', inputSchema: {type: 'object'}}, {name: 'b', inputSchema: {type: 'object'}}]}});
  } else {
    send({jsonrpc: '2.0', id: msg.id, error: {code: -32601, message: 'Method not found'}});
  }
}
${LINE_LOOP}`,
	/** Like healthy, but parses each read of stdin as one message: two messages in one read crash it (R1). */
	readPerMessage: `${HEALTHY_HANDLERS}
process.stdin.on('data', (d) => onMessage(JSON.parse(d.toString('utf8'))));
`,
	/** Crashes on the first message: a stderr line and exit code 3. */
	crash: `
process.stdin.once('data', () => { process.stderr.write('Error: config file missing\\n'); process.exit(3); });
`,
	/** Writes 300 KiB to stderr before answering anything (a client that does not drain stderr deadlocks, O6). */
	chattyStderr: `for (let i = 0; i < 300; i++) process.stderr.write('y'.repeat(1023) + '\\n');
${HEALTHY_HANDLERS}${LINE_LOOP}`,
} as const;

/** A temp dir holding every server as `<name>.mjs`; call `cleanup()` in afterAll. */
export function writeServers(): {dir: string; path: (name: keyof typeof SERVERS) => string; cleanup: () => void} {
	const dir = mkdtempSync(path.join(tmpdir(), 'mcp-wire-tap-'));
	for (const [name, source] of Object.entries(SERVERS)) writeFileSync(path.join(dir, `${name}.mjs`), source);
	return {
		dir,
		path: (name) => path.join(dir, `${name}.mjs`),
		cleanup: () => rmSync(dir, {recursive: true, force: true}),
	};
}

/** The environment the tests give servers: the SDK allow-list from this process (PATH finds node). */
export function testEnv(extra: Record<string, string> = {}): Record<string, string> {
	const env: Record<string, string> = {};
	for (const key of ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER']) {
		const value = process.env[key];
		if (value !== undefined) env[key] = value;
	}
	return {...env, ...extra};
}
