// exit-before-drain: writes a ~1 MB tools/list line, then process.exit(0) before the async stdout write drains (O4). Expect: missing-newline + unanswered-request + early-exit. Mirrors F25 (ruvnet/ruflo#2426).
import {createInterface} from 'node:readline';

const KNOWN_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const ECHO_TOOL = {
	name: 'echo',
	description: 'Echo the input text back',
	inputSchema: {type: 'object', properties: {text: {type: 'string'}}, required: ['text']},
};

// 2,000 tools with 480-character descriptions: one tools/list frame of about 1 MB. It must exceed what the
// kernel buffers: 64 KiB for a pipe, about 200-440 KB for the socketpair Node's child_process gives a child.
const MANY_TOOLS = Array.from({length: 2000}, (_, i) => ({
	name: `tool_${String(i).padStart(4, '0')}`,
	description: `Tool number ${String(i).padStart(4, '0')}. ` + 'x'.repeat(480 - 18),
	inputSchema: {type: 'object', properties: {}},
}));

function send(message) {
	process.stdout.write(JSON.stringify(message) + '\n');
}

function result(request) {
	switch (request.method) {
		case 'initialize': {
			const offered = request.params?.protocolVersion;
			return {
				protocolVersion: KNOWN_VERSIONS.includes(offered) ? offered : '2025-11-25',
				capabilities: {tools: {}},
				serverInfo: {name: 'exit-before-drain', version: '1.0.0'},
			};
		}
		case 'tools/list':
			return {tools: MANY_TOOLS};
		case 'tools/call':
			return {content: [{type: 'text', text: String(request.params?.arguments?.text ?? '')}]};
		case 'ping':
			return {};
		default:
			return undefined;
	}
}

createInterface({input: process.stdin}).on('line', (line) => {
	let request;
	try {
		request = JSON.parse(line);
	} catch {
		console.error(`exit-before-drain: ignoring a line that is not JSON (${line.length} chars)`);
		return;
	}
	if (request.id === undefined) return; // a notification: never answered
	const value = result(request);
	const reply =
		value === undefined
			? {jsonrpc: '2.0', id: request.id, error: {code: -32601, message: `Method not found: ${request.method}`}}
			: {jsonrpc: '2.0', id: request.id, result: value};
	send(reply);
	if (request.method === 'tools/list') process.exit(0); // FAULT: exits while most of that frame still waits in Node's write queue
});
