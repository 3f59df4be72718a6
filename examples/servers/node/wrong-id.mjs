// wrong-id: every response carries id 0 (string ids: null) instead of the request's id (J5). Expect: unknown-id + unanswered-request from tools/list on. Mirrors F30 (radareorg/radare2-mcp#68).
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
				serverInfo: {name: 'wrong-id', version: '1.0.0'},
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
		console.error(`wrong-id: ignoring a line that is not JSON (${line.length} chars)`);
		return;
	}
	if (request.id === undefined) return; // a notification: never answered
	const value = result(request);
	const id = typeof request.id === 'number' ? 0 : null; // FAULT: the request id is not echoed (right only for initialize, id 0)
	send(
		value === undefined
			? {jsonrpc: '2.0', id, error: {code: -32601, message: `Method not found: ${request.method}`}}
			: {jsonrpc: '2.0', id, result: value},
	);
});
