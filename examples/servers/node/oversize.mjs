// oversize: tools/list is answered with one ~100 KB line, over the 64 KiB asyncio readline limit (C1). Expect: oversize-frame (warning). Mirrors F24 (TokenRhythm/opensquilla PR#953).
import {createInterface} from 'node:readline';

const KNOWN_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const ECHO_TOOL = {
	name: 'echo',
	description: 'Echo the input text back',
	inputSchema: {type: 'object', properties: {text: {type: 'string'}}, required: ['text']},
};

// FAULT (warning): 200 tools with 400-character descriptions make one tools/list frame of about 100 KB
const MANY_TOOLS = Array.from({length: 200}, (_, i) => ({
	name: `tool_${String(i).padStart(3, '0')}`,
	description: `Tool number ${String(i).padStart(3, '0')}. ` + 'x'.repeat(400 - 17),
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
				serverInfo: {name: 'oversize', version: '1.0.0'},
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
		console.error(`oversize: ignoring a line that is not JSON (${line.length} chars)`);
		return;
	}
	if (request.id === undefined) return; // a notification: never answered
	const value = result(request);
	const reply =
		value === undefined
			? {jsonrpc: '2.0', id: request.id, error: {code: -32601, message: `Method not found: ${request.method}`}}
			: {jsonrpc: '2.0', id: request.id, result: value};
	send(reply);
});
