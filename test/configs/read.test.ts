import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {
	ConfigError,
	discoverConfigs,
	formatProblem,
	locateServer,
	parseServers,
	readServers,
	type ConfigFile,
	type ServerEntry,
} from '../../src/configs/index.js';
import {makeTempHome, type TempHome} from './fixtures.js';

let t: TempHome;
let files: ConfigFile[];
beforeEach(() => {
	t = makeTempHome();
	files = discoverConfigs({home: t.home, cwd: t.project, platform: 'linux', env: {}});
});
afterEach(() => {
	t.cleanup();
});

function fileFor(client: ConfigFile['client'], scope: ConfigFile['scope'], index = 0): ConfigFile {
	const found = files.filter((file) => file.client === client && file.scope === scope)[index];
	if (found === undefined) {
		throw new Error(`no ${client} ${scope}`);
	}
	return found;
}

const jsonFile = (file: string): ConfigFile => ({
	client: 'claude-desktop',
	scope: 'user',
	path: file,
	exists: true,
	serversPath: ['mcpServers'],
	format: 'json',
});
const jsoncFile = (file: string): ConfigFile => ({
	client: 'vscode',
	scope: 'project',
	path: file,
	exists: true,
	serversPath: ['servers'],
	format: 'jsonc',
});

describe('readServers on each client config', () => {
	it('Claude Desktop: a stdio server and a missing binary', () => {
		const file = fileFor('claude-desktop', 'user');
		const base = {
			client: 'claude-desktop',
			scope: 'user',
			file: t.files.claudeDesktop,
			transport: 'stdio',
			isWrapped: false,
		} as const;
		const expected: ServerEntry[] = [
			{
				...base,
				name: 'fs',
				command: 'node',
				args: ['/srv/fs-server.js', '--root', '/tmp'],
				env: {LOG_LEVEL: 'debug'},
				jsonPath: ['mcpServers', 'fs'],
				position: {line: 3, column: 5},
			},
			{
				...base,
				name: 'missing',
				command: 'definitely-missing-mcp-server',
				args: [],
				env: {},
				jsonPath: ['mcpServers', 'missing'],
				position: {line: 8, column: 5},
			},
		];
		expect(readServers(file)).toEqual({servers: expected, problems: []});
	});

	it('Claude Code: user and local scopes of ~/.claude.json are read separately', () => {
		expect(readServers(fileFor('claude-code', 'user'))).toEqual({
			servers: [
				{
					client: 'claude-code',
					scope: 'user',
					file: t.files.claudeJson,
					name: 'user-tool',
					transport: 'stdio',
					command: path.join(t.bin, 'echo-server'),
					args: [],
					env: {},
					jsonPath: ['mcpServers', 'user-tool'],
					position: {line: 4, column: 5},
					isWrapped: false,
				},
			],
			problems: [],
		});
		expect(readServers(fileFor('claude-code', 'local'))).toEqual({
			servers: [
				{
					client: 'claude-code',
					scope: 'local',
					file: t.files.claudeJson,
					name: 'local-tool',
					transport: 'stdio',
					command: 'echo-server',
					args: ['--local', '--verbose'],
					env: {},
					jsonPath: ['projects', t.project, 'mcpServers', 'local-tool'],
					position: {line: 10, column: 9},
					isWrapped: false,
				},
			],
			problems: [],
		});
	});

	it('Claude Code .mcp.json: an HTTP entry, and entries with no command, not an object, a non-string arg', () => {
		const result = readServers(fileFor('claude-code', 'project'));
		expect(result.servers).toEqual([
			{
				client: 'claude-code',
				scope: 'project',
				file: t.files.mcpJson,
				name: 'remote',
				transport: 'http',
				args: [],
				env: {},
				url: 'https://example.com/mcp',
				jsonPath: ['mcpServers', 'remote'],
				position: {line: 3, column: 5},
				isWrapped: false,
			},
		]);
		expect(result.problems).toEqual([
			{
				kind: 'no-command',
				file: t.files.mcpJson,
				line: 4,
				column: 5,
				message: 'server "no-cmd" has neither "command" nor "url"',
				server: 'no-cmd',
			},
			{
				kind: 'not-object',
				file: t.files.mcpJson,
				line: 5,
				column: 12,
				message: 'server "bad" must be an object, found a string',
				server: 'bad',
			},
			{
				kind: 'bad-field',
				file: t.files.mcpJson,
				line: 6,
				column: 51,
				message: '"args"[1] of server "num-args" must be a string, found a number',
				server: 'num-args',
			},
		]);
		expect(result.problems.map(formatProblem)).toEqual([
			`${t.files.mcpJson}:4:5: server "no-cmd" has neither "command" nor "url"`,
			`${t.files.mcpJson}:5:12: server "bad" must be an object, found a string`,
			`${t.files.mcpJson}:6:51: "args"[1] of server "num-args" must be a string, found a number`,
		]);
	});

	it('Cursor: an SSE entry and a stdio entry; the project file is broken JSON with its exact position', () => {
		const user = readServers(fileFor('cursor', 'user'));
		expect(user.problems).toEqual([]);
		expect(user.servers.map((server) => [server.name, server.transport, server.command ?? server.url])).toEqual([
			['sse-one', 'sse', 'http://localhost:8000/sse'],
			['py', 'stdio', 'uvx'],
		]);
		expect(readServers(fileFor('cursor', 'project'))).toEqual({
			servers: [],
			problems: [
				{
					kind: 'broken-json',
					file: t.files.cursorProject,
					line: 3,
					column: 29,
					message: "broken JSON: expected ',' between values (missing comma?), found '\"'",
				},
			],
		});
	});

	it('VS Code: JSONC with comments and trailing commas; settings.json mcp.servers with number and null env', () => {
		const project = readServers(fileFor('vscode', 'project'));
		expect(project.problems).toEqual([]);
		expect(
			project.servers.map((server) => [
				server.name,
				server.transport,
				server.command ?? server.url,
				server.args,
				server.position,
			]),
		).toEqual([
			['everything', 'stdio', 'npx', ['-y', '@modelcontextprotocol/server-everything'], {line: 5, column: 3}],
			['web', 'http', 'https://api.example.com/mcp', [], {line: 11, column: 3}],
		]);
		const settings = readServers(fileFor('vscode', 'user', 1));
		expect(settings.problems).toEqual([]);
		expect(settings.servers.map((server) => [server.name, server.env, server.jsonPath])).toEqual([
			['settings-srv', {N: '1', GONE: null}, ['mcp', 'servers', 'settings-srv']],
		]);
	});

	it('throws not-found for a file that is not there', () => {
		const missing = fileFor('vscode', 'user', 0);
		expect(() => readServers(missing)).toThrowError(ConfigError);
		try {
			readServers(missing);
		} catch (error) {
			expect((error as ConfigError).code).toBe('not-found');
			expect((error as ConfigError).message).toBe(`${missing.path}: cannot read the config file (ENOENT)`);
		}
	});
});

describe('broken JSON positions', () => {
	const problemsOf = (text: string, file: ConfigFile = jsonFile('/c.json')) => parseServers(file, text).problems;

	it('reports a trailing comma in strict JSON at the comma', () => {
		expect(problemsOf('{\n  "mcpServers": {\n    "a": {"command": "x"},\n  }\n}\n')).toEqual([
			{
				kind: 'broken-json',
				file: '/c.json',
				line: 3,
				column: 26,
				message: 'broken JSON: trailing comma (not allowed in JSON)',
			},
		]);
	});

	it('reports a comment in strict JSON, accepts both in JSONC', () => {
		const text = '{\n  // mine\n  "mcpServers": {"a": {"command": "x",},},\n}\n';
		expect(problemsOf(text)).toEqual([
			{
				kind: 'broken-json',
				file: '/c.json',
				line: 2,
				column: 3,
				message: 'broken JSON: comments are not allowed in JSON',
			},
		]);
		const jsonc = {...jsoncFile('/c.json'), serversPath: ['mcpServers']};
		expect(parseServers(jsonc, text)).toMatchObject({problems: [], servers: [{name: 'a', command: 'x'}]});
	});

	it('reports an unclosed object at the end of the file', () => {
		expect(problemsOf('{\n  "mcpServers": {\n    "a": {"command": "x"}\n')).toEqual([
			{
				kind: 'broken-json',
				file: '/c.json',
				line: 4,
				column: 1,
				message: "broken JSON: expected '}', found the end of the file",
			},
		]);
	});

	it('reports an unquoted key, a missing colon, text after the value, an empty file', () => {
		expect(problemsOf('{mcpServers: {}}')[0]).toMatchObject({
			line: 1,
			column: 2,
			message: "broken JSON: unexpected character 'm'",
		});
		expect(problemsOf('{"mcpServers" {}}')[0]).toMatchObject({
			line: 1,
			column: 15,
			message: "broken JSON: expected ':', found '{'",
		});
		expect(problemsOf('{"mcpServers": {}}\n}')[0]).toMatchObject({
			line: 2,
			column: 1,
			message: "broken JSON: unexpected '}' after the end of the JSON value",
		});
		expect(problemsOf('  \n')).toEqual([
			{
				kind: 'broken-json',
				file: '/c.json',
				line: 1,
				column: 1,
				message: 'broken JSON: the file is empty (expected a JSON object)',
			},
		]);
	});

	it('counts CR LF as one line break', () => {
		expect(problemsOf('{\r\n  "mcpServers": {\r\n    "a": {"command": "x"},\r\n  }\r\n}\r\n')[0]).toMatchObject({
			line: 3,
			column: 26,
		});
	});

	it('rejects a BOM in strict JSON, ignores it in JSONC', () => {
		expect(problemsOf('\uFEFF{"mcpServers": {}}')).toEqual([
			{
				kind: 'broken-json',
				file: '/c.json',
				line: 1,
				column: 1,
				message: 'broken JSON: the file starts with a byte order mark (BOM), which JSON.parse rejects',
			},
		]);
		expect(parseServers(jsoncFile('/c.json'), '\uFEFF{"servers": {"a": {"command": "x"}}}')).toMatchObject({
			problems: [],
			servers: [{name: 'a', position: {line: 1, column: 14}}],
		});
	});

	it('reports invalid UTF-8 at the first bad byte', () => {
		const file = path.join(t.home, 'bad-utf8.json');
		writeFileSync(
			file,
			Buffer.concat([
				Buffer.from('{\n  "mcpServers": {"é": {"command": "'),
				Buffer.from([0xc3, 0x28]),
				Buffer.from('"}}}\n'),
			]),
		);
		expect(readServers(jsonFile(file))).toEqual({
			servers: [],
			problems: [{kind: 'broken-json', file, line: 2, column: 36, message: 'the file is not valid UTF-8'}],
		});
	});
});

describe('entry problems', () => {
	const read = (text: string) => parseServers(jsonFile('/c.json'), text);

	it('reports a top-level array and a servers map that is not an object', () => {
		expect(read('[]').problems).toEqual([
			{
				kind: 'not-object',
				file: '/c.json',
				line: 1,
				column: 1,
				message: 'the file must hold a JSON object, found an array',
			},
		]);
		expect(read('{"mcpServers": []}').problems).toEqual([
			{
				kind: 'not-object',
				file: '/c.json',
				line: 1,
				column: 16,
				message: '"mcpServers" must be an object mapping server names to entries, found an array',
			},
		]);
	});

	it('reads no servers and no problems when the servers map is absent', () => {
		expect(read('{"other": 1}')).toEqual({servers: [], problems: []});
	});

	it('reports fields of the wrong type and leaves the entry out', () => {
		const text = [
			'{"mcpServers": {',
			'"a": {"command": 7},',
			'"b": {"command": "x", "args": "--flag"},',
			'"c": {"command": "x", "env": {"K": 1}},',
			'"d": {"type": "websocket", "url": "ws://x"},',
			'"e": {"type": "stdio", "url": "http://x"},',
			'"f": {"type": "http"},',
			'"g": {"command": ""},',
			'"h": {"type": "streamable-http", "url": "http://h"}',
			'}}',
		].join('\n');
		const result = read(text);
		expect(result.problems.map((problem) => [problem.kind, problem.line, problem.column, problem.message])).toEqual([
			['bad-field', 2, 18, '"command" of server "a" must be a string, found a number'],
			['bad-field', 3, 31, '"args" of server "b" must be an array of strings, found a string'],
			['bad-field', 4, 36, '"env" → "K" of server "c" must be a string, found a number'],
			['bad-field', 5, 15, 'server "d" has an unknown "type" "websocket" (expected "stdio", "http" or "sse")'],
			['no-command', 6, 1, 'server "e" is a stdio server without "command"'],
			['no-command', 7, 1, 'server "f" has "type" "http" but no "url"'],
			['no-command', 8, 18, 'server "g" has an empty "command"'],
		]);
		expect(result.servers.map((server) => [server.name, server.transport, server.url])).toEqual([
			['h', 'http', 'http://h'],
		]);
	});

	it('keeps the later of two entries with one name, as JSON.parse does', () => {
		const result = read('{"mcpServers": {\n"a": {"command": "one"},\n"a": {"command": "two"}\n}}');
		expect(result.servers.map((server) => [server.name, server.command, server.position])).toEqual([
			['a', 'two', {line: 3, column: 1}],
		]);
		expect(result.problems).toEqual([
			{
				kind: 'duplicate-name',
				file: '/c.json',
				line: 2,
				column: 1,
				message: 'server "a" is defined twice; the client uses the later one at line 3',
				server: 'a',
			},
		]);
	});

	it('finds the local scope under a project key spelled with a trailing slash or backslashes', () => {
		const local: ConfigFile = {
			client: 'claude-code',
			scope: 'local',
			path: '/c.json',
			exists: true,
			serversPath: ['projects', 'C:\\src\\p', 'mcpServers'],
			format: 'json',
		};
		const result = parseServers(local, '{"projects": {"C:/src/p/": {"mcpServers": {"a": {"command": "x"}}}}}');
		expect(result.servers.map((server) => server.jsonPath)).toEqual([['projects', 'C:/src/p/', 'mcpServers', 'a']]);
	});

	it('marks an entry that already runs through the tap', () => {
		const result = read(
			'{"mcpServers": {"a": {"command": "npx", "args": ["-y", "mcp-wire@0.1.0", "tap", "--name", "a", "--", "node", "s.js"]}}}',
		);
		expect(result.servers[0]?.isWrapped).toBe(true);
	});
});

describe('locateServer', () => {
	it('finds the files that define a name, valid or not, skipping missing and broken files', () => {
		expect(locateServer(files, 'fs').map((file) => [file.client, file.scope])).toEqual([['claude-desktop', 'user']]);
		expect(locateServer(files, 'bad').map((file) => [file.client, file.scope])).toEqual([['claude-code', 'project']]);
		expect(locateServer(files, 'local-tool').map((file) => [file.client, file.scope])).toEqual([
			['claude-code', 'local'],
		]);
		expect(locateServer(files, 'x')).toEqual([]);
		writeFileSync(t.files.cursorUser, '{"mcpServers": {"fs": {"command": "node"}}}');
		expect(locateServer(files, 'fs').map((file) => file.path)).toEqual([t.files.claudeDesktop, t.files.cursorUser]);
	});
});
