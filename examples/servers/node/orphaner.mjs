// orphaner: a working server that starts a background worker at startup; the worker shares stdout and
// stderr, ignores SIGTERM and never looks at stdin, so when the server exits on stdin EOF the worker
// lives on, holding the pipes (F41, ihor-sokoliuk/mcp-searxng PR#60: `npx` → `sh -c` → `node`, hundreds
// of leftover processes). Expect: orphaned-process (pid, command, the pipes it holds); the probe then ends
// the worker itself (SIGTERM, then SIGKILL) and leaves nothing behind.
import {spawn} from 'node:child_process';
import {createInterface} from 'node:readline';

if (process.argv[2] === '--worker') {
	process.on('SIGTERM', () => undefined); // FAULT: survives the client's SIGTERM too
	process.on('SIGHUP', () => undefined);
	setInterval(() => undefined, 1000); // a timer keeps it alive
	// Not for ever: a demo must not leave a process behind for good when a client (or a test) leaks it.
	setTimeout(() => process.exit(0), 60_000).unref();
} else {
	// FAULT: the worker inherits stdout/stderr and is never ended.
	spawn(process.execPath, [new URL(import.meta.url).pathname, '--worker'], {stdio: ['ignore', 'inherit', 'inherit']});
	const KNOWN = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
	const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
	const lines = createInterface({input: process.stdin});
	lines.on('line', (line) => {
		let request;
		try {
			request = JSON.parse(line);
		} catch {
			return;
		}
		if (request.id === undefined) return;
		const offered = request.params?.protocolVersion;
		if (request.method === 'initialize') {
			send({jsonrpc: '2.0', id: request.id, result: {protocolVersion: KNOWN.includes(offered) ? offered : '2025-11-25', capabilities: {tools: {}}, serverInfo: {name: 'orphaner', version: '1.0.0'}}});
		} else if (request.method === 'tools/list') {
			send({jsonrpc: '2.0', id: request.id, result: {tools: [{name: 'search', description: 'Search the web', inputSchema: {type: 'object'}}]}});
		} else if (request.method === 'ping') {
			send({jsonrpc: '2.0', id: request.id, result: {}});
		} else {
			send({jsonrpc: '2.0', id: request.id, error: {code: -32601, message: `Method not found: ${request.method}`}});
		}
	});
	lines.on('close', () => process.exit(0));
}
