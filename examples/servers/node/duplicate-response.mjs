// duplicate-response: tools/list is answered twice with the same id (J5). Expect: duplicate-response. Mirrors no single field case (a retry path that re-sends its result).
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
				serverInfo: {name: 'duplicate-response', version: '1.0.0'},
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
		console.error(`duplicate-response: ignoring a line that is not JSON (${line.length} chars)`);
		return;
	}
	if (request.id === undefined) return; // a notification: never answered
	const value = result(request);
	const reply =
		value === undefined
			? {jsonrpc: '2.0', id: request.id, error: {code: -32601, message: `Method not found: ${request.method}`}}
			: {jsonrpc: '2.0', id: request.id, result: value};
	send(reply);
	if (request.method === 'tools/list') send(reply); // FAULT: a second response to the same id
});
