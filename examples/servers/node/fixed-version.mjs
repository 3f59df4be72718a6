// fixed-version: answers initialize with a fixed protocolVersion the client never offered and that no revision has (R11). Expect: protocol-version. Mirrors F32 (punkpeye/mcp-remote#66).
import {createInterface} from 'node:readline';

const KNOWN_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const ECHO_TOOL = {
	name: 'echo',
	description: 'Echo the input text back',
	inputSchema: {type: 'object', properties: {text: {type: 'string'}}, required: ['text']},
};

function send(message) {
	process.stdout.write(JSON.stringify(message) + '\n');
}

function result(request) {
	switch (request.method) {
		case 'initialize': {
			const offered = request.params?.protocolVersion;
			return {
				protocolVersion: '2024-01-01', // FAULT: ignores `offered`; a version the client never offered and no revision has
				capabilities: {tools: {}},
				serverInfo: {name: 'fixed-version', version: '1.0.0'},
			};
		}
		case 'tools/list':
			return {tools: [ECHO_TOOL]};
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
		console.error(`fixed-version: ignoring a line that is not JSON (${line.length} chars)`);
		return;
	}
	if (request.id === undefined) return; // a notification: never answered
	const value = result(request);
	if (value === undefined) {
		send({jsonrpc: '2.0', id: request.id, error: {code: -32601, message: `Method not found: ${request.method}`}});
	} else {
		send({jsonrpc: '2.0', id: request.id, result: value});
	}
});
