// answers-notification: replies 'Method not found' (no id) to notifications/initialized (J4). Expect: response-to-notification. Mirrors F29 (zeenix/rust-analyzer-mcp#21).
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
				protocolVersion: KNOWN_VERSIONS.includes(offered) ? offered : '2025-11-25',
				capabilities: {tools: {}},
				serverInfo: {name: 'answers-notification', version: '1.0.0'},
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
		console.error(`answers-notification: ignoring a line that is not JSON (${line.length} chars)`);
		return;
	}
	if (request.id === undefined) {
		// FAULT: a notification MUST NOT be answered; this is what an unknown-method fallback does to it
		send({jsonrpc: '2.0', error: {code: -32601, message: `Method not found: ${request.method}`, data: null}});
		return;
	}
	const value = result(request);
	send(
		value === undefined
			? {jsonrpc: '2.0', id: request.id, error: {code: -32601, message: `Method not found: ${request.method}`}}
			: {jsonrpc: '2.0', id: request.id, result: value},
	);
});
