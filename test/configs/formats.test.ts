import {existsSync, readFileSync, unlinkSync} from 'node:fs';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {
	applyPlan,
	backupPathOf,
	clientFromPath,
	ConfigError,
	discoverConfigs,
	planUnwrap,
	planWrap,
	readServers,
	type ConfigFile,
} from '../../src/configs/index.js';
import {makeTempDir, writeFile} from './fixtures.js';

// Codex's config.toml and Gemini CLI's settings.json (docs/clients.md#codex, docs/clients.md#gemini-cli), with
// comments: wrap edits by span, unwrap gives back the same bytes.
const tap = (name: string): string[] => ['npx', '-y', 'mcp-wire', 'tap', '--name', name, '--'];

const CODEX = [
	'# Codex settings',
	'model = "o4-mini" # the default model',
	'',
	'[mcp_servers.fs]',
	"command = 'node'   # the server",
	'args = [',
	'  "/srv/fs.js", # entry',
	'  \'--root\', "/tmp",',
	']',
	'startup_timeout_sec = 20',
	'',
	'[mcp_servers.fs.env]',
	'LOG_LEVEL = "debug"',
	'',
	'[mcp_servers.bare]',
	'command = "python3"',
	'',
].join('\n');

const GEMINI = [
	'{',
	'  // Gemini CLI settings',
	'  "theme": "Default",',
	'  "mcpServers": {',
	'    "fs": {',
	'      "command": "node", /* the server */',
	'      "args": ["/srv/fs.js"],',
	'      "cwd": "/srv",',
	'      "timeout": 30000,',
	'      "trust": false,',
	'    },',
	'  },',
	'}',
	'',
].join('\n');

let home: string;
let project: string;
beforeEach(() => {
	home = makeTempDir();
	project = path.join(home, 'work', 'p');
	writeFile(path.join(home, '.codex', 'config.toml'), CODEX);
	writeFile(path.join(home, '.gemini', 'settings.json'), GEMINI);
	writeFile(path.join(home, '.continue', 'config.yaml'), 'mcpServers:\n  - name: fs\n    command: node\n');
});
afterEach(() => {
	// makeTempDir's folders are removed by the OS's tmp cleaning; nothing else runs here.
});

const fileOf = (client: ConfigFile['client'], env: Record<string, string> = {}): ConfigFile => {
	const found = discoverConfigs({home, cwd: project, platform: 'linux', env, client}).find((file) => file.exists);
	if (found === undefined) throw new Error(`no ${client} file`);
	return found;
};
const read = (file: string): string => readFileSync(file, 'utf8');

describe('Codex config.toml', () => {
	it('is found at ~/.codex/config.toml, or in $CODEX_HOME', () => {
		const file = fileOf('codex');
		expect(file).toEqual({
			client: 'codex',
			scope: 'user',
			path: path.join(home, '.codex', 'config.toml'),
			exists: true,
			serversPath: ['mcp_servers'],
			format: 'toml',
		});
		const elsewhere = discoverConfigs({
			home,
			cwd: project,
			platform: 'linux',
			env: {CODEX_HOME: '/etc/codex'},
			client: 'codex',
		});
		expect(elsewhere.map((f) => f.path)).toEqual(['/etc/codex/config.toml']);
	});

	it('reads its servers with their env table and the position of each name', () => {
		const {servers, problems} = readServers(fileOf('codex'));
		expect(problems).toEqual([]);
		expect(servers.map((s) => s.startupTimeoutMs)).toEqual([20_000, undefined]);
		expect(servers.map((s) => [s.name, s.command, s.args, s.env, s.position])).toEqual([
			['fs', 'node', ['/srv/fs.js', '--root', '/tmp'], {LOG_LEVEL: 'debug'}, {line: 4, column: 14}],
			['bare', 'python3', [], {}, {line: 15, column: 14}],
		]);
	});

	it('--config on it is read as TOML, never "broken JSON"', () => {
		const [file] = discoverConfigs({
			home,
			cwd: project,
			platform: 'linux',
			env: {},
			config: path.join(home, '.codex', 'config.toml'),
		});
		expect(file?.client).toBe('codex');
		expect(file?.format).toBe('toml');
		expect(readServers(file as ConfigFile).problems).toEqual([]);
		expect(clientFromPath('/any/where/config.toml', 'linux')).toBe('codex');
	});

	it('a broken file is "broken TOML" at its line and column, and is not edited', () => {
		const file = fileOf('codex');
		writeFile(file.path, '[mcp_servers.fs]\ncommand = "node\n');
		expect(readServers(file).problems.map((p) => [p.kind, p.line, p.column, p.message])).toEqual([
			['broken-json', 2, 16, 'broken TOML: unterminated string constant'],
		]);
		expect(() => planWrap(file, 'fs', tap('fs'))).toThrow(/:2:16: broken TOML: .*; not editing it$/);
	});

	it('wrap edits command and args by span; unwrap gives back the same bytes, with and without the backup', () => {
		const file = fileOf('codex');
		const plan = planWrap(file, 'fs', tap('fs'));
		expect(plan.after).toBe(
			CODEX.replace("command = 'node'   # the server", 'command = "npx"   # the server').replace(
				'args = [\n  "/srv/fs.js"',
				'args = [\n  "-y",\n  "mcp-wire",\n  "tap",\n  "--name",\n  "fs",\n  "--",\n  \'node\',\n  "/srv/fs.js"',
			),
		);
		applyPlan(file, plan, backupPathOf(file, undefined));
		expect(readServers(file).servers[0]?.isWrapped).toBe(true);
		const undo = planUnwrap(file, 'fs', backupPathOf(file, undefined));
		expect([undo.restoredFrom, undo.after]).toEqual(['backup', CODEX]);
		// Without the backup, the wrap edit is undone in place: the same bytes too.
		unlinkSync(backupPathOf(file, undefined) as string);
		expect(planUnwrap(file, 'fs', backupPathOf(file, undefined))).toMatchObject({restoredFrom: 'args', after: CODEX});
		applyPlan(file, planUnwrap(file, 'fs', backupPathOf(file, undefined)), backupPathOf(file, undefined));
		expect(read(file.path)).toBe(CODEX);
	});

	it('an entry without args gets an args line under its command; unwrap restores it from the backup', () => {
		const file = fileOf('codex');
		const plan = planWrap(file, 'bare', tap('bare'));
		expect(plan.after).toBe(
			CODEX.replace(
				'[mcp_servers.bare]\ncommand = "python3"\n',
				'[mcp_servers.bare]\ncommand = "npx"\nargs = ["-y", "mcp-wire", "tap", "--name", "bare", "--", "python3"]\n',
			),
		);
		applyPlan(file, plan, backupPathOf(file, undefined));
		applyPlan(file, planUnwrap(file, 'bare', backupPathOf(file, undefined)), backupPathOf(file, undefined));
		expect(read(file.path)).toBe(CODEX);
	});

	it('wraps an inline table and a dotted key in place', () => {
		const file = fileOf('codex');
		const text = '[mcp_servers]\nlint = { command = "uvx" } # inline\nmcp_servers_note = 1\n';
		writeFile(file.path, text);
		const plan = planWrap(file, 'lint', tap('lint'));
		expect(plan.after).toBe(
			'[mcp_servers]\nlint = { command = "npx", args = ["-y", "mcp-wire", "tap", "--name", "lint", "--", "uvx"] } # inline\nmcp_servers_note = 1\n',
		);
		applyPlan(file, plan, backupPathOf(file, undefined));
		applyPlan(file, planUnwrap(file, 'lint', backupPathOf(file, undefined)), backupPathOf(file, undefined));
		expect(read(file.path)).toBe(text);
	});
});

describe('Gemini CLI settings.json', () => {
	it('is found at ~/.gemini/settings.json and read with its comments and trailing commas', () => {
		const file = fileOf('gemini-cli');
		expect([file.path, file.format, file.serversPath]).toEqual([
			path.join(home, '.gemini', 'settings.json'),
			'jsonc',
			['mcpServers'],
		]);
		const {servers, problems} = readServers(file);
		expect(problems).toEqual([]);
		expect(servers.map((s) => [s.name, s.command, s.args, s.cwd, s.startupTimeoutMs])).toEqual([
			['fs', 'node', ['/srv/fs.js'], '/srv', 30_000],
		]);
		expect(clientFromPath(path.join(home, '.gemini', 'settings.json'), 'linux')).toBe('gemini-cli');
	});

	it('wrap then unwrap round-trips byte for byte', () => {
		const file = fileOf('gemini-cli');
		const plan = planWrap(file, 'fs', tap('fs'));
		expect(plan.after).toBe(
			GEMINI.replace('"command": "node", /* the server */', '"command": "npx", /* the server */').replace(
				'"args": ["/srv/fs.js"]',
				'"args": ["-y", "mcp-wire", "tap", "--name", "fs", "--", "node", "/srv/fs.js"]',
			),
		);
		applyPlan(file, plan, backupPathOf(file, undefined));
		applyPlan(file, planUnwrap(file, 'fs', backupPathOf(file, undefined)), backupPathOf(file, undefined));
		expect(read(file.path)).toBe(GEMINI);
	});
});

describe('formats mcp-wire does not edit yet', () => {
	it('Continue config.yaml: "YAML is not supported yet", never broken', () => {
		const file = fileOf('continue');
		expect(file.unsupported).toBe('YAML is not supported yet');
		expect(readServers(file).problems.map((p) => [p.kind, p.message])).toEqual([
			['unsupported', 'YAML is not supported yet'],
		]);
		let error: unknown;
		try {
			planWrap(file, 'fs', tap('fs'));
		} catch (caught) {
			error = caught;
		}
		expect(error).toBeInstanceOf(ConfigError);
		expect((error as ConfigError).code).toBe('unsupported');
		expect((error as ConfigError).message).toBe(`${file.path}: YAML is not supported yet; not editing it`);
		expect(existsSync(backupPathOf(file, undefined) as string)).toBe(false);
	});

	it('tells each documented file’s client from its name', () => {
		const owner = (file: string) => clientFromPath(file, 'linux');
		expect(owner('/h/.codeium/windsurf/mcp_config.json')).toBe('windsurf');
		expect(owner('/h/.lmstudio/mcp.json')).toBe('lm-studio');
		expect(owner('/h/.config/zed/settings.json')).toBe('zed');
		expect(owner('/h/.continue/config.yaml')).toBe('continue');
		expect(owner('/h/.config/goose/config.yaml')).toBe('goose');
		expect(owner('/h/x/cline_mcp_settings.json')).toBe('cline');
		expect(owner('/h/Code/User/settings.json')).toBe('vscode');
		expect(owner('/h/x/settings.json')).toBeUndefined();
	});
});
