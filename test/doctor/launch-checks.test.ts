// What a server's command line says before it runs: an interpreter with no program reads
// the client's messages as its program; a relative script depends on the client's working directory.
import {describe, expect, it} from 'vitest';
import {
	interpreterOf,
	programArgument,
	readsStdinMessage,
	relativePathFix,
	relativePathNote,
	relativePathOf,
} from '../../src/doctor/launch-checks.js';

describe('programArgument', () => {
	it.each([
		[['node'], true],
		[['/usr/local/bin/node', '--inspect'], true],
		[['node', '-r', 'dotenv/config'], true],
		[['node', '--no-warnings', '-'], true],
		[['nodejs', '--'], true],
		[['python3'], true],
		[['python3', '-u', '-W', 'ignore'], true],
		[['python3.12', '-uB'], true],
		[['bash'], true],
		[['sh', '-s', 'x'], true],
		[['node', 'build/index.js'], false],
		[['node', '--env-file', '.env', 'server.mjs'], false],
		[['node', '-e', 'require("x")'], false],
		[['node', '--eval=1'], false],
		[['node', '--unknown-flag', 'value'], false],
		[['python3', '-m', 'mcp_server_time'], false],
		[['python', '-uc', 'import x'], false],
		[['python3', '-Wignore', 'server.py'], false],
		[['bash', '-ec', 'exec x'], false],
		[['sh', 'run.sh'], false],
	])('%j reads its program from stdin: %s', (command, readsStdin) => {
		expect(programArgument(command, 'linux')?.readsStdin).toBe(readsStdin);
	});

	it('finds the script and its index', () => {
		expect(programArgument(['node', '--env-file', '.env', 'server.mjs', '--port', '1'], 'linux')).toEqual({
			interpreter: 'node',
			script: {arg: 'server.mjs', index: 3},
			readsStdin: false,
		});
		expect(programArgument(['python3', '-W', 'ignore', '--', 'srv.py'], 'linux')).toEqual({
			interpreter: 'python',
			script: {arg: 'srv.py', index: 4},
			readsStdin: false,
		});
	});

	it('knows interpreters by name only', () => {
		expect(programArgument(['npx', '-y', 'pkg'], 'linux')).toBeUndefined();
		expect(programArgument(['uvx'], 'linux')).toBeUndefined();
		expect(interpreterOf('C:\\Program Files\\nodejs\\NODE.EXE', 'win32')).toBe('node');
		expect(interpreterOf('/opt/homebrew/bin/python3.13', 'darwin')).toBe('python');
		expect(interpreterOf('/usr/bin/nodemon', 'linux')).toBeUndefined();
	});

	it("says what node with no script does with the client's messages", () => {
		expect(readsStdinMessage(programArgument(['node'], 'linux')!, 'node')).toBe(
			'"command": "node" has no script in "args": node then reads a program from stdin, so it would take the client\'s JSON-RPC messages as JavaScript and no client gets an answer; put the server\'s program in "args" ("args": ["/path/to/server.js"])',
		);
		expect(readsStdinMessage(programArgument(['python3', '-u'], 'linux')!, 'python3')).toContain(
			"python3 then reads a program from stdin, so it would take the client's JSON-RPC messages as Python",
		);
	});
});

describe('relative paths', () => {
	it('finds a relative script of an interpreter, or a relative command', () => {
		expect(relativePathOf(['node', 'build/index.js'], '/home/u', 'linux')).toEqual({
			arg: 'build/index.js',
			field: 'args',
			resolved: '/home/u/build/index.js',
		});
		expect(relativePathOf(['python3', '-u', 'server.py'], '/', 'darwin')).toEqual({
			arg: 'server.py',
			field: 'args',
			resolved: '/server.py',
		});
		expect(relativePathOf(['./start.sh', '--stdio'], '/home/u/p', 'linux')).toEqual({
			arg: './start.sh',
			field: 'command',
			resolved: '/home/u/p/start.sh',
		});
		expect(relativePathOf(['node', '/abs/index.js'], '/home/u', 'linux')).toBeUndefined();
		expect(relativePathOf(['npx', '-y', 'pkg'], '/home/u', 'linux')).toBeUndefined();
		expect(relativePathOf(['node', 'C:\\srv\\index.js'], 'C:\\Users\\u', 'win32')).toBeUndefined();
		expect(relativePathOf(['node', 'srv\\index.js'], 'C:\\Users\\u', 'win32')).toEqual({
			arg: 'srv\\index.js',
			field: 'args',
			resolved: 'C:\\Users\\u\\srv\\index.js',
		});
	});

	it('says which folder doctor used and that clients differ', () => {
		const relative = {arg: 'build/index.js', field: 'args' as const, resolved: '/home/u/build/index.js'};
		expect(relativePathNote(relative, false, '/home/u', true, 'Claude Desktop')).toBe(
			'"build/index.js" in "args" is relative: doctor resolved it against /home/u (→ /home/u/build/index.js, no such file), the folder Claude Desktop is assumed to start it in; clients start servers in different folders (Claude Desktop on macOS in /, VS Code in your home folder, Claude Code in the folder you start it from): put the absolute path in "args"',
		);
		expect(relativePathFix(relative, '/home/u', 'Claude Desktop')).toBe(
			'"build/index.js" is relative to the folder the client starts the server in, and there is no /home/u/build/index.js (doctor used /home/u for Claude Desktop; clients differ): put the absolute path in "args"',
		);
	});
});
