// unknown-content-type: a content block of type `markdown`, which no MCP revision has (FAULT line). Expect, with
// `probe --call get_weather`: invalid-result at the call's reply (the TS SDK rejects the whole result). R23.
import {createInterface} from 'node:readline';

const KNOWN_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const TOOLS = [
	{
		name: 'get_weather',
		description: 'Current weather for a city',
		inputSchema: {type: 'object', properties: {city: {type: 'string'}}, required: ['city']},
		annotations: {readOnlyHint: true},
	},
];

function send(message) {
	process.stdout.write(JSON.stringify(message) + '\n');
}

function call(request) {
	const city = String(request.params?.arguments?.city ?? '');
	return {content: [{type: 'markdown', text: `**${city}**: 21 C, clear`}]}; // FAULT: no content type `markdown`
}

function result(request) {
	switch (request.method) {
		case 'initialize': {
			const offered = request.params?.protocolVersion;
			return {
				protocolVersion: KNOWN_VERSIONS.includes(offered) ? offered : '2025-11-25',
				capabilities: {tools: {}},
				serverInfo: {name: 'unknown-content-type', version: '1.0.0'},
			};
		}
		case 'tools/list':
			return {tools: TOOLS};
		case 'tools/call':
			return call(request);
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
		console.error(`unknown-content-type: ignoring a line that is not JSON (${line.length} chars)`);
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
