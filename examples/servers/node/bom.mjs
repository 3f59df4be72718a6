// bom: the first write starts with a UTF-8 byte order mark EF BB BF (R4). Expect: bom. Mirrors the BOM row of docs/protocol.md "Client reactions" (R4).
import {createInterface} from 'node:readline';

const KNOWN_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const ECHO_TOOL = {
	name: 'echo',
	description: 'Echo the input text back',
	inputSchema: {type: 'object', properties: {text: {type: 'string'}}, required: ['text']},
};

let prefix = '\uFEFF'; // FAULT: U+FEFF, encoded EF BB BF, before the first message (as a UTF-8-with-BOM writer does)

function send(message) {
	process.stdout.write(prefix + JSON.stringify(message) + '\n');
	prefix = '';
}

function result(request) {
	switch (request.method) {
		case 'initialize': {
			const offered = request.params?.protocolVersion;
			return {
				protocolVersion: KNOWN_VERSIONS.includes(offered) ? offered : '2025-11-25',
				capabilities: {tools: {}},
				serverInfo: {name: 'bom', version: '1.0.0'},
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
		console.error(`bom: ignoring a line that is not JSON (${line.length} chars)`);
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
