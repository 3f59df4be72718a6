// result-and-error: the tools/list reply carries both a `result` (one tool) and an `error` object, as a handler that records a failure but still returns its value does (J5). Expect: invalid-jsonrpc (result-and-error) at the tools/list reply. The TS SDKs drop the reply and rmcp skips it; the Python SDK reads it as the error, so list_tools fails.
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
				serverInfo: {name: 'result-and-error', version: '1.0.0'},
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

// One JSON message per line in, one per line out. Stdin EOF ends the readline, and with it the process.
createInterface({input: process.stdin}).on('line', (line) => {
	let request;
	try {
		request = JSON.parse(line);
	} catch {
		console.error(`result-and-error: ignoring a line that is not JSON (${line.length} chars)`);
		return;
	}
	if (request.id === undefined) return; // a notification: never answered
	const value = result(request);
	if (value === undefined) {
		send({jsonrpc: '2.0', id: request.id, error: {code: -32601, message: `Method not found: ${request.method}`}});
	} else if (request.method === 'tools/list') {
		// FAULT: the result goes out with the error a failed step recorded; a response has one or the other.
		send({
			jsonrpc: '2.0',
			id: request.id,
			result: value,
			error: {code: -32603, message: 'Internal error: tool index refresh failed'},
		});
	} else {
		send({jsonrpc: '2.0', id: request.id, result: value});
	}
});
