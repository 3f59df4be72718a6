// exit-after-initialize: answers initialize with a ~780 KB line (long `instructions`), then process.exit(0) before stdout drains (O4). Expect: missing-newline + oversize-frame + early-exit. Mirrors F25.
import {createInterface} from 'node:readline';

const KNOWN_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];

// About 780 KB of instructions: more than the kernel buffers on a pipe (64 KiB) or on the socket pair Node's
// child_process gives a child (about 200-440 KB), so most of the line still waits in Node's write queue.
const INSTRUCTIONS = Array.from({length: 7800}, (_, i) => `Rule ${String(i).padStart(4, '0')}: ` + 'y'.repeat(89)).join(
	'\n',
);

createInterface({input: process.stdin}).on('line', (line) => {
	let request;
	try {
		request = JSON.parse(line);
	} catch {
		console.error(`exit-after-initialize: ignoring a line that is not JSON (${line.length} chars)`);
		return;
	}
	if (request.id === undefined) return; // a notification: never answered
	if (request.method !== 'initialize') {
		const error = {code: -32601, message: `Method not found: ${request.method}`};
		process.stdout.write(JSON.stringify({jsonrpc: '2.0', id: request.id, error}) + '\n');
		return;
	}
	const offered = request.params?.protocolVersion;
	const result = {
		protocolVersion: KNOWN_VERSIONS.includes(offered) ? offered : '2025-11-25',
		capabilities: {tools: {}},
		serverInfo: {name: 'exit-after-initialize', version: '1.0.0'},
		instructions: INSTRUCTIONS,
	};
	process.stdout.write(JSON.stringify({jsonrpc: '2.0', id: request.id, result}) + '\n');
	process.exit(0); // FAULT: exits while most of that line still waits in Node's write queue
});
