// `wrap`/`unwrap --config ~/.codex/config.toml` through the command (docs/clients.md#codex): read as TOML, never
// "broken JSON"; the unwrap gives back the file byte for byte and names the command it runs again.
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {unwrapCommand, wrapCommand} from '../../src/cli/commands/wrap.js';

let dir: string | undefined;
afterEach(() => {
	if (dir !== undefined) rmSync(dir, {recursive: true, force: true});
	dir = undefined;
	process.exitCode = undefined;
});

async function run(command: ReturnType<typeof wrapCommand>, args: string[]): Promise<string> {
	const out: string[] = [];
	const write = process.stdout.write.bind(process.stdout);
	process.stdout.write = ((text: string) => out.push(text) > 0) as typeof process.stdout.write;
	try {
		await command.exitOverride().parseAsync(args, {from: 'user'});
	} finally {
		process.stdout.write = write;
	}
	return out.join('');
}

const TOML = '# my codex config\n[mcp_servers.fs]\ncommand = "node" # the server\nargs = ["/srv/fs.js"]\n';

describe('wrap and unwrap of Codex config.toml', () => {
	it('round-trips through the commands, with comments, byte for byte', async () => {
		dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-wire-codex-'));
		const file = path.join(dir, '.codex', 'config.toml');
		mkdirSync(path.dirname(file), {recursive: true});
		writeFileSync(file, TOML);
		const wrapped = await run(wrapCommand(), ['fs', '--config', file, '--home', dir, '--cwd', dir]);
		expect(wrapped.split('\n')[0]).toBe(`wrapped "fs" in codex user config ${file}`);
		const text = readFileSync(file, 'utf8');
		expect(text.split('\n').slice(0, 2)).toEqual(['# my codex config', '[mcp_servers.fs]']);
		expect(text).toMatch(/^command = "[^"]+" # the server$/m);
		expect(text).toMatch(/^args = \[".*", "tap", "--name", "fs", "--", "node", "\/srv\/fs\.js"\]$/m);
		const unwrapped = await run(unwrapCommand(), ['fs', '--config', file, '--home', dir, '--cwd', dir]);
		expect(unwrapped.split('\n').slice(0, 2)).toEqual([
			`unwrapped "fs" in codex user config ${file} (restored exactly from the backup)`,
			'it runs again without the tap: node /srv/fs.js',
		]);
		expect(readFileSync(file, 'utf8')).toBe(TOML);
	});
});
