/**
 * Scripted sessions with the bytes real servers put on the wire (docs/field-cases.md), for the
 * report goldens. Each is what `mcp-wire probe` would record: the client's requests on stdin, the
 * server's bytes on stdout/stderr at realistic times, stdin closing and the exit.
 */
import type {SessionMeta} from '../../../src/core/types.js';
import {chunk, goldenMeta, type Step} from './golden.js';

const INITIALIZE =
	'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcp-wire","version":"0.1.0"}}}\n';
const INITIALIZED = '{"jsonrpc":"2.0","method":"notifications/initialized"}\n';
const TOOLS_LIST = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n';

function initResult(name: string, version = '1.0.0', protocol = '2025-11-25'): string {
	return `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"${protocol}","capabilities":{"tools":{}},"serverInfo":{"name":"${name}","version":"${version}"}}}`;
}

const TOOLS_RESULT =
	'{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"render","description":"Render a diagram","inputSchema":{"type":"object"}}]}}';

/** The shutdown every probe ends with: stdin closed, then exit 0. */
function shutdown(tMs: number): Step[] {
	return [
		{tMs, mark: {type: 'stdin-closed', tMs}},
		{tMs: tMs + 3.2, exit: {code: 0, signal: null}},
	];
}

/** A scripted session: its meta and steps. */
export interface Scenario {
	readonly name: string;
	readonly meta: SessionMeta;
	readonly steps: readonly Step[];
}

/** The handshake and a tools/list, answered by `reply` lines on stdout. */
function exchange(lines: {readonly init: string; readonly tools: string}, at = 40): Step[] {
	return [
		chunk('stdin', 0.4, INITIALIZE),
		chunk('stdout', at, lines.init),
		chunk('stdin', at + 0.6, INITIALIZED + TOOLS_LIST),
		chunk('stdout', at + 2.1, lines.tools),
	];
}

export const SCENARIOS: readonly Scenario[] = [
	{
		// F01 hustcc/mcp-mermaid#25: a console.log banner before the first message.
		name: 'stray-banner',
		meta: goldenMeta({command: ['node', '/home/alice/mcp-mermaid/dist/index.js'], cwd: '/home/alice/mcp-mermaid'}),
		steps: [
			chunk('stdin', 0.4, INITIALIZE),
			chunk('stdout', 31.5, 'STDIO MCP Server started\n'),
			chunk('stdout', 38.2, `${initResult('mcp-mermaid', '0.1.3')}\n`),
			chunk('stdin', 38.9, INITIALIZED + TOOLS_LIST),
			chunk('stdout', 40.3, `${TOOLS_RESULT}\n`),
			...shutdown(45),
		],
	},
	{
		// F15 python-sdk#2433: every frame ends with CR LF on Windows.
		name: 'crlf',
		meta: goldenMeta({
			platform: 'win32 x64',
			command: ['C:\\Users\\alice\\AppData\\Local\\Programs\\Python\\Python311\\python.exe', 'server.py'],
			cwd: 'C:\\Users\\alice\\weather',
		}),
		steps: [
			...exchange({init: `${initResult('weather', '1.2.0')}\r\n`, tools: `${TOOLS_RESULT}\r\n`}, 212.7),
			...shutdown(220),
		],
	},
	{
		// F08-like: the module is missing; Node prints a crash to stderr and exits 1 before the handshake.
		name: 'early-exit',
		meta: goldenMeta({
			command: ['node', '/home/alice/mcp/dist/index.js', '--token', 'tok_live_51HxQ2eZvKYlo2C'],
			envKeys: ['GITHUB_TOKEN'],
		}),
		steps: [
			chunk('stdin', 0.4, INITIALIZE),
			chunk(
				'stderr',
				27.9,
				[
					'node:internal/modules/cjs/loader:1228',
					'  throw err;',
					'  ^',
					'',
					"Error: Cannot find module '/home/alice/mcp/dist/index.js'",
					'    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)',
					'    at Module._load (node:internal/modules/cjs/loader:1051:27)',
					"  code: 'MODULE_NOT_FOUND',",
					'  requireStack: []',
					'}',
					'',
					'Node.js v18.19.0',
					'',
				].join('\n'),
			),
			{tMs: 29.4, exit: {code: 1, signal: null}},
		],
	},
	{
		// F22 github-mcp-server PR#114: --pretty-print-json indents stdio output.
		name: 'multiline-json',
		meta: goldenMeta({command: ['github-mcp-server', 'stdio', '--pretty-print-json']}),
		steps: [
			chunk('stdin', 0.4, INITIALIZE),
			chunk(
				'stdout',
				18.6,
				'{\n  "jsonrpc": "2.0",\n  "id": 0,\n  "result": {\n    "protocolVersion": "2025-11-25",\n    "capabilities": {},\n    "serverInfo": {\n      "name": "github-mcp-server",\n      "version": "0.2.0"\n    }\n  }\n}\n',
			),
			{tMs: 10_000.4, mark: {type: 'timeout', id: 0, method: 'initialize', timeoutMs: 10_000, tMs: 10_000.4}},
			...shutdown(10_001),
		],
	},
	{
		// F18 open-agreements PR#116: responses framed with LSP headers.
		name: 'content-length',
		meta: goldenMeta({command: ['uvx', 'open-agreements-mcp==0.4.1']}),
		steps: [
			chunk('stdin', 0.4, INITIALIZE),
			chunk(
				'stdout',
				95.3,
				`Content-Length: ${initResult('open-agreements', '0.4.1').length}\r\nContent-Type: application/json\r\n\r\n${initResult('open-agreements', '0.4.1')}`,
			),
			{tMs: 10_000.4, mark: {type: 'timeout', id: 0, method: 'initialize', timeoutMs: 10_000, tMs: 10_000.4}},
			...shutdown(10_001),
		],
	},
	{
		// F21 codebase-memory-mcp#513: C stdout fully buffered, flushed only at stdin EOF.
		name: 'unflushed',
		meta: goldenMeta({command: ['/opt/cbm/bin/codebase-memory-mcp']}),
		steps: [
			chunk('stdin', 0.4, INITIALIZE),
			// The probe's look at the stall: blocked in read(0), initialize read and nothing written (the reply is in the buffer).
			{
				tMs: 1000.4,
				mark: {
					type: 'evidence',
					tMs: 1000.4,
					evidence: {
						reason: 'stall',
						observed: true,
						rootPid: 4242,
						rootAlive: true,
						processes: [
							{
								pid: 4242,
								ppid: 4200,
								command: ['/opt/cbm/bin/codebase-memory-mcp'],
								comm: 'codebase-memory',
								state: 'S',
								syscall: {name: 'read', fd: 0},
								activity: 'reading-stdin',
								startTMs: 0,
								holds: {stdin: [0], stdout: [1], stderr: [2]},
							},
						],
					},
				},
			},
			{tMs: 10_000.4, mark: {type: 'timeout', id: 0, method: 'initialize', timeoutMs: 10_000, tMs: 10_000.4}},
			{tMs: 10_001, mark: {type: 'stdin-closed', tMs: 10_001}},
			chunk('stdout', 10_002.5, `${initResult('codebase-memory', '0.9.1')}\n`),
			{tMs: 10_004, exit: {code: 0, signal: null}},
		],
	},
	{
		// F13 mcp-telegram#1: a coloured logger on stdout.
		name: 'ansi-log',
		meta: goldenMeta({command: ['npx', '-y', '@chaindead/telegram-mcp@1.4.2']}),
		steps: [
			chunk('stdin', 0.4, INITIALIZE),
			chunk(
				'stdout',
				120.2,
				'\u001b[33m[2026-01-02T03:04:05.800] [INFO] - [Connecting to 149.154.167.51:80/TCPFull...]\u001b[39m\n',
			),
			chunk('stdout', 388.9, `${initResult('telegram', '1.4.2')}\n`),
			chunk('stdin', 389.5, INITIALIZED + TOOLS_LIST),
			chunk('stdout', 391.0, `${TOOLS_RESULT}\n`),
			...shutdown(400),
		],
	},
	{
		// F23 codebase-memory-mcp#511: CP949 bytes copied into a JSON string.
		name: 'invalid-utf8',
		meta: goldenMeta({command: ['python3.12', '-m', 'codebase_memory']}),
		steps: [
			...exchange({init: `${initResult('codebase-memory', '0.9.1')}\n`, tools: `${TOOLS_RESULT}\n`}, 61),
			chunk(
				'stdin',
				70,
				'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read","arguments":{"path":"notes.txt"}}}\n',
			),
			chunk(
				'stdout',
				74.5,
				Buffer.concat([
					Buffer.from('{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"'),
					Buffer.from([0xc7, 0xd1, 0xb1, 0xdb, 0x20, 0xc5, 0xd8, 0xbd, 0xba, 0xc6, 0xae]),
					Buffer.from('"}]}}\n'),
				]),
			),
			...shutdown(80),
		],
	},
	{
		// F04 browser-tools-mcp#239: discovery logs on stdout, many lines before the handshake.
		name: 'many-strays',
		meta: goldenMeta({command: ['npx', '@agentdeskai/browser-tools-mcp@1.2.0']}),
		steps: [
			chunk('stdin', 0.4, INITIALIZE),
			chunk(
				'stdout',
				15,
				[
					'Starting Browser Tools MCP Server...',
					'Attempting initial server discovery on startup...',
					'',
					...Array.from({length: 30}, (_, k) => `Checking localhost:${3025 + k}...`),
					'=== Browser Tools server discovery failed ===',
					'',
				].join('\n'),
			),
			chunk('stdout', 1604.2, `${initResult('browser-tools', '1.2.0')}\n`),
			chunk('stdin', 1604.8, INITIALIZED + TOOLS_LIST),
			chunk('stdout', 1606.9, `${TOOLS_RESULT}\n`),
			...shutdown(1610),
		],
	},
	{
		// A healthy server: the report is one verdict line, the environment and the timeline.
		name: 'healthy',
		meta: goldenMeta({command: ['node', 'examples/servers/node/healthy.mjs']}),
		steps: [
			...exchange({init: `${initResult('healthy', '1.0.0')}\n`, tools: `${TOOLS_RESULT}\n`}, 22.4),
			...shutdown(30),
		],
	},
	{
		// Secrets everywhere: a token argument, a secret env value echoed on stderr, a bearer header and a
		// JWT inside a tool result, the user's home in paths. Plus a banner so there is a hex excerpt.
		name: 'secrets',
		meta: goldenMeta({
			command: [
				'/home/alice/.nvm/versions/node/v20.11.0/bin/node',
				'/home/alice/src/gh-mcp/index.js',
				'--api-key=sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx',
				'--token',
				'hunter2-secret-value',
			],
			cwd: '/home/alice/src/gh-mcp',
			envKeys: ['GITHUB_TOKEN'],
		}),
		steps: [
			chunk('stdin', 0.4, INITIALIZE),
			chunk('stderr', 5.1, 'config: GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345 home=/home/alice\n'),
			chunk('stdout', 12.9, 'Using token ghp_0123456789abcdefghijABCDEFGHIJ012345 for alice\n'),
			chunk('stdout', 20.0, `${initResult('gh-mcp', '2.0.0')}\n`),
			chunk(
				'stdin',
				20.6,
				INITIALIZED +
					'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whoami","arguments":{"password":"correct horse battery"}}}\n',
			),
			chunk(
				'stdout',
				31.7,
				'{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLXNpZ24 at /home/alice/.config/gh"}]}}\n',
			),
			...shutdown(40),
		],
	},
];
