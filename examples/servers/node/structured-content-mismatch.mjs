// structured-content-mismatch: structuredContent whose `temp` is a string where the outputSchema says number
// (FAULT line). Expect, with `probe --call get_weather`: invalid-structured-content at the call's reply (both SDK
// clients throw from their call method). Field case: none; docs/protocol.md R23.
import {createInterface} from 'node:readline';

const KNOWN_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const TOOLS = [
	{
		name: 'get_weather',
		description: 'Current weather for a city',
		inputSchema: {type: 'object', properties: {city: {type: 'string'}}, required: ['city']},
		outputSchema: {type: 'object', properties: {temp: {type: 'number'}, sky: {type: 'string'}}, required: ['temp']},
		annotations: {readOnlyHint: true},
	},
];

function send(message) {
	process.stdout.write(JSON.stringify(message) + '\n');
}

function call(request) {
	const city = String(request.params?.arguments?.city ?? '');
	const structuredContent = {temp: '21', sky: 'clear'}; // FAULT: "21" is a string; the outputSchema says number
	return {content: [{type: 'text', text: `${city}: 21 C, clear`}], structuredContent};
}

function result(request) {
	switch (request.method) {
		case 'initialize': {
			const offered = request.params?.protocolVersion;
			return {
				protocolVersion: KNOWN_VERSIONS.includes(offered) ? offered : '2025-11-25',
				capabilities: {tools: {}},
				serverInfo: {name: 'structured-content-mismatch', version: '1.0.0'},
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
		console.error(`structured-content-mismatch: ignoring a line that is not JSON (${line.length} chars)`);
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
