import {
	chmodSync,
	existsSync,
	lstatSync,
	readFileSync,
	readdirSync,
	rmSync,
	statSync,
	symlinkSync,
	unlinkSync,
	writeFileSync,
} from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {
	applyPlan,
	backupPathOf,
	ConfigError,
	discoverConfigs,
	planUnwrap,
	planWrap,
	readServers,
	type ConfigFile,
	type EditPlan,
} from '../../src/configs/index.js';
import {makeTempDir, makeTempHome, writeFile, type TempHome} from './fixtures.js';

const tap = (name: string): string[] => ['npx', '-y', 'mcp-wire', 'tap', '--name', name, '--'];

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

const read = (file: string): string => readFileSync(file, 'utf8');
/** The backup of `file`; project configs' backups go to `<home>/state/backups`, outside the project. */
const bak = (file: ConfigFile): string => backupPathOf(file, path.join(t.home, 'state', 'backups'))!;

function wrapAndApply(file: ConfigFile, name: string): EditPlan {
	const plan = planWrap(file, name, tap(name));
	applyPlan(file, plan, bak(file));
	return plan;
}

function unwrapAndApply(file: ConfigFile, name: string): EditPlan {
	const plan = planUnwrap(file, name, bak(file));
	applyPlan(file, plan, bak(file));
	return plan;
}

function thrown(action: () => unknown): ConfigError {
	try {
		action();
	} catch (error) {
		if (error instanceof ConfigError) {
			return error;
		}
		throw error;
	}
	throw new Error('expected a ConfigError');
}

describe('planWrap', () => {
	it('rewrites one Claude Desktop entry: tap command first, original command and args after --', () => {
		const file = fileFor('claude-desktop', 'user');
		const plan = planWrap(file, 'fs', tap('fs'));
		const expectedAfter = t.texts.claudeDesktop
			.replace('"command": "node",', '"command": "npx",')
			.replace(
				'"args": ["/srv/fs-server.js"',
				'"args": ["-y", "mcp-wire", "tap", "--name", "fs", "--", "node", "/srv/fs-server.js"',
			);
		expect(plan).toEqual({
			action: 'wrap',
			status: 'changed',
			changed: true,
			file: t.files.claudeDesktop,
			server: 'fs',
			jsonPath: ['mcpServers', 'fs'],
			before: t.texts.claudeDesktop,
			after: expectedAfter,
			diff: [
				`--- ${t.files.claudeDesktop}`,
				`+++ ${t.files.claudeDesktop}`,
				'@@ -1,8 +1,8 @@',
				' {',
				'   "mcpServers": {',
				'     "fs": {',
				'-      "command": "node",',
				'-      "args": ["/srv/fs-server.js", "--root", "/tmp"],',
				'+      "command": "npx",',
				'+      "args": ["-y", "mcp-wire", "tap", "--name", "fs", "--", "node", "/srv/fs-server.js", "--root", "/tmp"],',
				'       "env": {"LOG_LEVEL": "debug"}',
				'     },',
				'     "missing": {',
				'',
			].join('\n'),
		});
		// Planning writes nothing.
		expect(read(t.files.claudeDesktop)).toBe(t.texts.claudeDesktop);
		expect(existsSync(bak(file))).toBe(false);
	});

	it('adds "args" right after "command" when the entry has none', () => {
		const plan = planWrap(fileFor('claude-desktop', 'user'), 'missing', tap('missing'));
		expect(plan.after).toBe(
			t.texts.claudeDesktop.replace(
				'      "command": "definitely-missing-mcp-server"\n',
				'      "command": "npx",\n      "args": ["-y", "mcp-wire", "tap", "--name", "missing", "--", "definitely-missing-mcp-server"]\n',
			),
		);
	});

	it('follows a multi-line args array and the Claude Code local scope', () => {
		const plan = planWrap(fileFor('claude-code', 'local'), 'local-tool', tap('local-tool'));
		expect(plan.jsonPath).toEqual(['projects', t.project, 'mcpServers', 'local-tool']);
		expect(plan.after).toBe(
			t.texts.claudeJson
				.replace('"command": "echo-server",', '"command": "npx",')
				.replace(
					'          "args": [\n            "--local",',
					[
						'          "args": [',
						'            "-y",',
						'            "mcp-wire",',
						'            "tap",',
						'            "--name",',
						'            "local-tool",',
						'            "--",',
						'            "echo-server",',
						'            "--local",',
					].join('\n'),
				),
		);
	});

	it('keeps JSONC comments, tabs and trailing commas byte for byte (VS Code)', () => {
		const plan = planWrap(fileFor('vscode', 'project'), 'everything', tap('everything'));
		expect(plan.after).toBe(
			t.texts.vscodeProject.replace(
				'\t\t\t"args": ["-y", "@modelcontextprotocol/server-everything"], // pinned later',
				'\t\t\t"args": ["-y", "mcp-wire", "tap", "--name", "everything", "--", "npx", "-y", "@modelcontextprotocol/server-everything"], // pinned later',
			),
		);
	});

	it('changes nothing outside the edited entry', () => {
		const text = t.texts.claudeJson;
		const plan = planWrap(fileFor('claude-code', 'user'), 'user-tool', tap('user-tool'));
		const entryStart = text.indexOf('{"type": "stdio"');
		const entryEnd = text.indexOf('}}', entryStart) + 2;
		const afterEnd = plan.after.length - (text.length - entryEnd);
		expect(plan.after.slice(0, entryStart)).toBe(text.slice(0, entryStart));
		expect(plan.after.slice(afterEnd)).toBe(text.slice(entryEnd));
		expect(plan.after.slice(entryStart, afterEnd)).toBe(
			`{"type": "stdio", "command": "npx", "args": ["-y", "mcp-wire", "tap", "--name", "user-tool", "--", ${JSON.stringify(path.join(t.bin, 'echo-server'))}], "env": {}}`,
		);
	});

	it('moves the original command literal unchanged (escapes included) and keeps CR LF line ends', () => {
		const file = path.join(t.home, 'crlf', 'claude_desktop_config.json');
		const text =
			'{\r\n  "mcpServers": {\r\n    "e": {\r\n      "command": "C:\\\\tools\\\\srv\\u0031.exe"\r\n    }\r\n  }\r\n}\r\n';
		writeFile(file, text);
		const config = discoverConfigs({
			home: t.home,
			cwd: t.project,
			platform: 'linux',
			env: {},
			config: file,
		})[0] as ConfigFile;
		const plan = planWrap(config, 'e', tap('e'));
		expect(plan.after).toBe(
			'{\r\n  "mcpServers": {\r\n    "e": {\r\n      "command": "npx",\r\n      "args": ["-y", "mcp-wire", "tap", "--name", "e", "--", "C:\\\\tools\\\\srv\\u0031.exe"]\r\n    }\r\n  }\r\n}\r\n',
		);
		expect(readServers({...config}).servers).toHaveLength(1);
	});

	it('is idempotent: wrapping a wrapped entry changes nothing', () => {
		const file = fileFor('claude-desktop', 'user');
		wrapAndApply(file, 'fs');
		const wrapped = read(t.files.claudeDesktop);
		const again = planWrap(file, 'fs', tap('fs'));
		expect(again).toMatchObject({status: 'already-wrapped', changed: false, before: wrapped, after: wrapped, diff: ''});
		expect(applyPlan(file, again, bak(file))).toEqual({
			written: false,
			path: t.files.claudeDesktop,
			backupPath: `${t.files.claudeDesktop}.mcp-wire.bak`,
			backupWritten: false,
		});
		expect(read(t.files.claudeDesktop)).toBe(wrapped);
		// A different launcher spelling is still recognised as wrapped.
		expect(planWrap(file, 'fs', ['mcp-wire', 'tap', '--']).status).toBe('already-wrapped');
	});

	it('rejects a tap command without the marker', () => {
		const file = fileFor('claude-desktop', 'user');
		expect(() => planWrap(file, 'fs', ['npx', '-y', 'mcp-wire', 'tap'])).toThrowError(TypeError);
		expect(() => planWrap(file, 'fs', ['npx', 'other-tool', 'tap', '--'])).toThrowError(TypeError);
		expect(() => planWrap(file, 'fs', [])).toThrowError(TypeError);
	});
});

describe('applyPlan and planUnwrap', () => {
	it('wrap then unwrap restores the exact original bytes in every client file', () => {
		const cases: Array<[ConfigFile, string]> = [
			[fileFor('claude-desktop', 'user'), 'fs'],
			[fileFor('claude-desktop', 'user'), 'missing'],
			[fileFor('claude-code', 'user'), 'user-tool'],
			[fileFor('claude-code', 'local'), 'local-tool'],
			[fileFor('cursor', 'user'), 'py'],
			[fileFor('vscode', 'project'), 'everything'],
			[fileFor('vscode', 'user', 1), 'settings-srv'],
		];
		for (const [file, name] of cases) {
			wrapAndApply(file, name);
			expect(readServers(file).servers.find((server) => server.name === name)?.isWrapped).toBe(true);
		}
		for (const [file, name] of cases) {
			const plan = unwrapAndApply(file, name);
			expect(plan.restoredFrom).toBe('backup');
		}
		for (const name of Object.keys(t.files) as Array<keyof TempHome['files']>) {
			expect(read(t.files[name])).toBe(t.texts[name]);
		}
	});

	it("keeps a project config's backup outside the project, one per file, and none without a backups folder", () => {
		const file = fileFor('vscode', 'project');
		const backup = bak(file);
		expect(path.dirname(backup)).toBe(path.join(t.home, 'state', 'backups'));
		expect(path.basename(backup)).toMatch(/^mcp\.json-[0-9a-f]{16}\.bak$/);
		expect(bak(fileFor('cursor', 'project'))).not.toBe(backup);
		const listing = (): string[] => readdirSync(path.dirname(t.files.vscodeProject)).sort();
		const before = listing();
		expect(applyPlan(file, planWrap(file, 'everything', tap('everything')), backup)).toEqual({
			written: true,
			path: t.files.vscodeProject,
			backupPath: backup,
			backupWritten: true,
		});
		expect(listing()).toEqual(before);
		expect(read(backup)).toBe(t.texts.vscodeProject);
		expect(statSync(path.dirname(backup)).mode & 0o777).toBe(0o700);
		expect(unwrapAndApply(file, 'everything').restoredFrom).toBe('backup');
		expect(read(t.files.vscodeProject)).toBe(t.texts.vscodeProject);
		// No home to keep it in: no backup at all, never one in the project.
		expect(backupPathOf(file, undefined)).toBeUndefined();
		expect(backupPathOf(fileFor('cursor', 'user'), undefined)).toBe(`${t.files.cursorUser}.mcp-wire.bak`);
		const plan = planWrap(file, 'everything', tap('everything'));
		expect(applyPlan(file, plan, undefined)).toMatchObject({
			written: true,
			backupPath: undefined,
			backupWritten: false,
		});
		expect(listing()).toEqual(before);
		expect(planUnwrap(file, 'everything', undefined).restoredFrom).toBe('args');
	});

	it('writes the backup with the original bytes and the file mode, and leaves no temp files', () => {
		const file = fileFor('claude-code', 'user');
		chmodSync(t.files.claudeJson, 0o600);
		const plan = planWrap(file, 'user-tool', tap('user-tool'));
		expect(applyPlan(file, plan, bak(file))).toEqual({
			written: true,
			path: t.files.claudeJson,
			backupPath: `${t.files.claudeJson}.mcp-wire.bak`,
			backupWritten: true,
		});
		expect(read(t.files.claudeJson)).toBe(plan.after);
		expect(read(`${t.files.claudeJson}.mcp-wire.bak`)).toBe(t.texts.claudeJson);
		expect(statSync(t.files.claudeJson).mode & 0o777).toBe(0o600);
		expect(statSync(`${t.files.claudeJson}.mcp-wire.bak`).mode & 0o777).toBe(0o600);
		expect(readdirSync(t.home).filter((name) => name.endsWith('.tmp'))).toEqual([]);
	});

	it("keeps the backup while an entry is wrapped, refreshes it once the file is the user's again", () => {
		const file = fileFor('claude-desktop', 'user');
		const backup = bak(file);
		wrapAndApply(file, 'fs');
		const afterFirst = read(t.files.claudeDesktop);
		const second = planWrap(file, 'missing', tap('missing'));
		expect(applyPlan(file, second, bak(file)).backupWritten).toBe(false);
		expect(read(backup)).toBe(t.texts.claudeDesktop);
		expect(afterFirst).not.toBe(t.texts.claudeDesktop);
		unwrapAndApply(file, 'fs');
		unwrapAndApply(file, 'missing');
		expect(read(t.files.claudeDesktop)).toBe(t.texts.claudeDesktop);
		// The user edits the file; the next wrap backs up that new state.
		const edited = t.texts.claudeDesktop.replace('"globalShortcut": ""', '"globalShortcut": "Ctrl+Space"');
		writeFileSync(t.files.claudeDesktop, edited);
		expect(applyPlan(file, planWrap(file, 'fs', tap('fs')), bak(file)).backupWritten).toBe(true);
		expect(read(backup)).toBe(edited);
	});

	it('unwraps structurally when the backup is gone: exact when the entry had args', () => {
		const file = fileFor('vscode', 'project');
		wrapAndApply(file, 'everything');
		unlinkSync(bak(file));
		const plan = unwrapAndApply(file, 'everything');
		expect(plan.restoredFrom).toBe('args');
		expect(read(t.files.vscodeProject)).toBe(t.texts.vscodeProject);

		const local = fileFor('claude-code', 'local');
		wrapAndApply(local, 'local-tool');
		unlinkSync(bak(local));
		expect(unwrapAndApply(local, 'local-tool').restoredFrom).toBe('args');
		expect(read(t.files.claudeJson)).toBe(t.texts.claudeJson);
	});

	it('unwraps structurally without a backup: an added "args" stays as []', () => {
		const file = fileFor('claude-desktop', 'user');
		wrapAndApply(file, 'missing');
		unlinkSync(bak(file));
		expect(unwrapAndApply(file, 'missing').restoredFrom).toBe('args');
		expect(read(t.files.claudeDesktop)).toBe(
			t.texts.claudeDesktop.replace(
				'"command": "definitely-missing-mcp-server"\n',
				'"command": "definitely-missing-mcp-server",\n      "args": []\n',
			),
		);
	});

	it('keeps edits made while wrapped: the backup no longer matches, so the wrap is undone in place', () => {
		const file = fileFor('claude-desktop', 'user');
		wrapAndApply(file, 'fs');
		const wrapped = read(t.files.claudeDesktop);
		writeFileSync(t.files.claudeDesktop, wrapped.replace('"LOG_LEVEL": "debug"', '"LOG_LEVEL": "trace"'));
		expect(unwrapAndApply(file, 'fs').restoredFrom).toBe('args');
		expect(read(t.files.claudeDesktop)).toBe(
			t.texts.claudeDesktop.replace('"LOG_LEVEL": "debug"', '"LOG_LEVEL": "trace"'),
		);
	});

	it('is idempotent: unwrapping an entry that is not wrapped changes nothing', () => {
		const file = fileFor('cursor', 'user');
		const plan = planUnwrap(file, 'py', bak(file));
		expect(plan).toMatchObject({
			action: 'unwrap',
			status: 'not-wrapped',
			changed: false,
			diff: '',
			after: t.texts.cursorUser,
		});
		expect(applyPlan(file, plan, bak(file)).written).toBe(false);
		expect(existsSync(bak(file))).toBe(false);
	});

	it('writes through a symlinked config and keeps the link', () => {
		const realDir = makeTempDir('mcp-wire-dotfiles-');
		try {
			const real = path.join(realDir, 'mcp.json');
			writeFileSync(real, t.texts.cursorUser);
			unlinkSync(t.files.cursorUser);
			symlinkSync(real, t.files.cursorUser);
			const file = fileFor('cursor', 'user');
			const plan = wrapAndApply(file, 'py');
			expect(lstatSync(t.files.cursorUser).isSymbolicLink()).toBe(true);
			expect(read(real)).toBe(plan.after);
			expect(read(bak(file))).toBe(t.texts.cursorUser);
		} finally {
			rmSync(realDir, {recursive: true, force: true});
		}
	});

	it('round-trips random args and layouts exactly (property)', () => {
		const argText = fc.string({unit: 'grapheme', maxLength: 12});
		fc.assert(
			fc.property(
				fc.array(argText, {maxLength: 5}),
				fc.boolean(),
				fc.boolean(),
				fc.constantFrom('  ', '\t', '    '),
				fc.boolean(),
				(args, hasArgs, multiLine, indent, keepBackup) => {
					const i2 = indent.repeat(2);
					const i3 = indent.repeat(3);
					const argsText =
						multiLine && args.length > 0
							? `[\n${args.map((arg) => i3 + indent + JSON.stringify(arg)).join(',\n')}\n${i3}]`
							: `[${args.map((arg) => JSON.stringify(arg)).join(', ')}]`;
					const entry = hasArgs
						? `{\n${i3}"command": "srv",\n${i3}"args": ${argsText}\n${i2}}`
						: `{\n${i3}"command": "srv"\n${i2}}`;
					const text = `{\n${indent}"mcpServers": {\n${i2}"s": ${entry}\n${indent}}\n}\n`;
					writeFileSync(t.files.claudeDesktop, text);
					try {
						unlinkSync(`${t.files.claudeDesktop}.mcp-wire.bak`);
					} catch {
						// No backup yet.
					}
					const file = fileFor('claude-desktop', 'user');
					const wrap = wrapAndApply(file, 's');
					const wrapped = readServers(file).servers[0];
					expect(wrapped?.command).toBe('npx');
					expect(wrapped?.args).toEqual([...tap('s').slice(1), 'srv', ...(hasArgs ? args : [])]);
					if (!keepBackup) {
						unlinkSync(bak(file));
					}
					const unwrap = unwrapAndApply(file, 's');
					expect(wrap.changed && unwrap.changed).toBe(true);
					if (keepBackup || hasArgs) {
						expect(read(t.files.claudeDesktop)).toBe(text);
					} else {
						expect(readServers(file).servers[0]?.args).toEqual([]);
					}
				},
			),
			{numRuns: 60},
		);
	});
});

describe('errors leave the file untouched', () => {
	function expectUntouched(file: string, text: string): void {
		expect(read(file)).toBe(text);
		expect(existsSync(`${file}.mcp-wire.bak`)).toBe(false);
	}

	it('unknown-server names the file and lists the servers there', () => {
		const error = thrown(() => planWrap(fileFor('claude-desktop', 'user'), 'nope', tap('nope')));
		expect(error.code).toBe('unknown-server');
		expect(error.message).toBe(
			`${t.files.claudeDesktop}: no server "nope" under "mcpServers" (servers there: fs, missing)`,
		);
		const local = thrown(() => planUnwrap(fileFor('claude-code', 'local'), 'user-tool', undefined));
		expect(local.message).toBe(
			`${t.files.claudeJson}: no server "user-tool" under "projects" → ${JSON.stringify(t.project)} → "mcpServers" (servers there: local-tool)`,
		);
		const none = thrown(() => planWrap(fileFor('vscode', 'user', 1), 'x', tap('x')));
		expect(none.message).toBe(
			`${t.files.vscodeSettings}: no server "x" under "mcp" → "servers" (servers there: settings-srv)`,
		);
		expectUntouched(t.files.claudeDesktop, t.texts.claudeDesktop);
	});

	it('not-stdio for HTTP and SSE entries', () => {
		const http = thrown(() => planWrap(fileFor('vscode', 'project'), 'web', tap('web')));
		expect(http.code).toBe('not-stdio');
		expect(http.message).toBe(
			`${t.files.vscodeProject}:11:3: server "web" is an HTTP server (https://api.example.com/mcp); only stdio servers can run through the tap`,
		);
		expect(http.position).toEqual({line: 11, column: 3});
		expect(thrown(() => planUnwrap(fileFor('cursor', 'user'), 'sse-one', undefined)).code).toBe('not-stdio');
		expectUntouched(t.files.vscodeProject, t.texts.vscodeProject);
	});

	it('broken-json names the file, line and column', () => {
		const error = thrown(() => planWrap(fileFor('cursor', 'project'), 'x', tap('x')));
		expect(error.code).toBe('broken-json');
		expect(error.message).toBe(
			`${t.files.cursorProject}:3:29: broken JSON: expected ',' between values (missing comma?), found '"'; not editing it`,
		);
		expect(error.position).toEqual({line: 3, column: 29});
		expectUntouched(t.files.cursorProject, t.texts.cursorProject);
	});

	it('invalid-entry for an entry that is not an object or has bad fields', () => {
		const file = fileFor('claude-code', 'project');
		const bad = thrown(() => planWrap(file, 'bad', tap('bad')));
		expect(bad.code).toBe('invalid-entry');
		expect(bad.message).toBe(`${t.files.mcpJson}:5:12: server "bad" must be an object, found a string; not editing it`);
		expect(thrown(() => planWrap(file, 'num-args', tap('num-args'))).message).toBe(
			`${t.files.mcpJson}:6:51: "args"[1] of server "num-args" must be a string, found a number; not editing it`,
		);
		expect(thrown(() => planWrap(file, 'no-cmd', tap('no-cmd'))).code).toBe('invalid-entry');
		expectUntouched(t.files.mcpJson, t.texts.mcpJson);
	});

	it('not-found for a missing file', () => {
		const file = fileFor('vscode', 'user', 0);
		const error = thrown(() => planWrap(file, 'x', tap('x')));
		expect(error.code).toBe('not-found');
		expect(existsSync(file.path)).toBe(false);
	});

	it('changed-on-disk when the file changed after planning; the new content is kept', () => {
		const file = fileFor('claude-desktop', 'user');
		const plan = planWrap(file, 'fs', tap('fs'));
		const edited = t.texts.claudeDesktop.replace('"globalShortcut": ""', '"globalShortcut": "x"');
		writeFileSync(t.files.claudeDesktop, edited);
		const error = thrown(() => applyPlan(file, plan, bak(file)));
		expect(error.code).toBe('changed-on-disk');
		expect(error.message).toBe(
			`${t.files.claudeDesktop} changed since the change was planned; nothing written, run the command again`,
		);
		expectUntouched(t.files.claudeDesktop, edited);
	});

	it('write-failed when the folder is not writable; the file stays as it was', () => {
		if (process.getuid?.() === 0) {
			// root ignores directory permissions; use a path whose parent is a file instead.
			const file = fileFor('claude-desktop', 'user');
			const plan = planWrap(file, 'fs', tap('fs'));
			const blocker = `${t.files.claudeDesktop}.mcp-wire.bak`;
			writeFile(path.join(blocker, 'x'), '');
			const error = thrown(() => applyPlan(file, plan, bak(file)));
			expect(error.code).toBe('write-failed');
			expect(error.message).toBe(
				`${t.files.claudeDesktop}: cannot write the backup ${blocker} (EISDIR); the config file is unchanged`,
			);
			expect(read(t.files.claudeDesktop)).toBe(t.texts.claudeDesktop);
			return;
		}
		const file = fileFor('claude-desktop', 'user');
		const plan = planWrap(file, 'fs', tap('fs'));
		chmodSync(path.dirname(t.files.claudeDesktop), 0o500);
		try {
			const error = thrown(() => applyPlan(file, plan, bak(file)));
			expect(error.code).toBe('write-failed');
			expect(read(t.files.claudeDesktop)).toBe(t.texts.claudeDesktop);
		} finally {
			chmodSync(path.dirname(t.files.claudeDesktop), 0o755);
		}
	});
});
