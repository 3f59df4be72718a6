// `unwrap --config FILE` for a file whose name does not tell its client: an entry that visibly runs
// `mcp-wire tap` is unwrapped without --client (it asked for --client before).
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {unwrapCommand} from '../../src/cli/commands/wrap.js';
import {UsageError} from '../../src/cli/exit-codes.js';

let dir: string | undefined;
afterEach(() => {
	if (dir !== undefined) rmSync(dir, {recursive: true, force: true});
	dir = undefined;
	process.exitCode = undefined;
});

async function unwrap(args: string[]): Promise<string> {
	const out: string[] = [];
	const write = process.stdout.write.bind(process.stdout);
	process.stdout.write = ((text: string) => out.push(text) > 0) as typeof process.stdout.write;
	try {
		await unwrapCommand().exitOverride().parseAsync(args, {from: 'user'});
	} finally {
		process.stdout.write = write;
	}
	return out.join('');
}

describe('unwrap --config FILE without --client', () => {
	it('unwraps an entry that runs mcp-wire tap', async () => {
		dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-wire-unwrap-'));
		const file = path.join(dir, 'servers.json');
		const entry = {
			command: '/usr/bin/node',
			args: ['/opt/mcp-wire/bin/mcp-wire.js', 'tap', '--name', 'fs', '--', 'npx', '-y', 'fs-server'],
		};
		writeFileSync(file, `${JSON.stringify({mcpServers: {fs: entry}}, null, 2)}\n`);
		const out = await unwrap(['fs', '--config', file, '--home', dir, '--cwd', dir]);
		expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
			mcpServers: {fs: {command: 'npx', args: ['-y', 'fs-server']}},
		});
		expect(out.split('\n')[0]).toBe(`unwrapped "fs" in ${file} (tap arguments removed)`);
		expect(out).toContain('Restart your client (or reconnect the server) to apply it.');
	});

	it('an entry that is not wrapped still asks for --client', async () => {
		dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-wire-unwrap-'));
		const file = path.join(dir, 'servers.json');
		writeFileSync(file, `${JSON.stringify({mcpServers: {fs: {command: 'npx', args: ['fs-server']}}})}\n`);
		await expect(unwrap(['fs', '--config', file, '--home', dir, '--cwd', dir])).rejects.toThrow(UsageError);
		await expect(unwrap(['fs', '--config', file, '--home', dir, '--cwd', dir])).rejects.toThrow(/pass --client/);
	});
});
