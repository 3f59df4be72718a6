// exits-on-early-setlevel: a request between the initialize result and notifications/initialized ends the process, as an rmcp server before rust-sdk PR#730 does (R10). Expect: pre-initialized-request-rejected (from the check of VS Code's order). Field case F47.
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
				serverInfo: {name: 'exits-on-early-setlevel', version: '1.0.0'},
			};
		}
		case 'tools/list':
			return {tools: [ECHO_TOOL]};
		case 'tools/call':
			return {content: [{type: 'text', text: String(request.params?.arguments?.text ?? '')}]};
		case 'ping':
			return {};
		case 'logging/setLevel':
			return {};
		default:
			return undefined;
	}
}

let isInitialized = false;

// One JSON message per line in, one per line out. Stdin EOF ends the readline, and with it the process.
createInterface({input: process.stdin}).on('line', (line) => {
	let request;
	try {
		request = JSON.parse(line);
	} catch {
		console.error(`exits-on-early-setlevel: ignoring a line that is not JSON (${line.length} chars)`);
		return;
	}
	if (request.method === 'notifications/initialized') isInitialized = true;
	if (request.id === undefined) return; // a notification: never answered
	// FAULT: after initialize, anything but initialized is a protocol error that ends the process (F47)
	if (request.method !== 'initialize' && request.method !== 'ping' && !isInitialized) {
		console.error(`Error: expect initialized notification, but received: ${request.method}`);
		process.exit(1);
	}
	const value = result(request);
	if (value === undefined) {
		send({jsonrpc: '2.0', id: request.id, error: {code: -32601, message: `Method not found: ${request.method}`}});
	} else {
		send({jsonrpc: '2.0', id: request.id, result: value});
	}
});
