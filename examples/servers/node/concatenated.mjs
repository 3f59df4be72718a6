// concatenated: the initialize result and a log notification are written on ONE line, {...}{...}LF (J9). Expect: concatenated-json. Mirrors the 'two JSON values on a line' row of docs/protocol.md "Client reactions".
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
				capabilities: {tools: {}, logging: {}},
				serverInfo: {name: 'concatenated', version: '1.0.0'},
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
		console.error(`concatenated: ignoring a line that is not JSON (${line.length} chars)`);
		return;
	}
	if (request.id === undefined) return; // a notification: never answered
	const value = result(request);
	const reply =
		value === undefined
			? {jsonrpc: '2.0', id: request.id, error: {code: -32601, message: `Method not found: ${request.method}`}}
			: {jsonrpc: '2.0', id: request.id, result: value};
	if (request.method === 'initialize') {
		const note = {jsonrpc: '2.0', method: 'notifications/message', params: {level: 'info', logger: 'startup', data: 'server ready'}};
		process.stdout.write(JSON.stringify(reply) + JSON.stringify(note) + '\n'); // FAULT: two values, one LF
		return;
	}
	send(reply);
});
