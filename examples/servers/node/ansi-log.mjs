// ansi-log: a coloured log line (ESC[33m ... ESC[0m) written to stdout (R5). Expect: ansi-escape + stray-output. Mirrors F13 (mcp-telegram/mcp-telegram#1).
import {createInterface} from 'node:readline';

const KNOWN_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const ECHO_TOOL = {
	name: 'echo',
	description: 'Echo the input text back',
	inputSchema: {type: 'object', properties: {text: {type: 'string'}}, required: ['text']},
};

console.error('telegram-demo: starting'); // its own stderr line: stderr is not silent, so this is not stderr-merged
const stamp = new Date().toISOString().slice(0, -1); // 2026-06-04T15:31:01.716, always 23 characters
console.log(`\x1b[33m[${stamp}] [INFO] - [Running gramJS version 2.26.21]\x1b[0m`); // FAULT: a coloured logger on stdout

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
				serverInfo: {name: 'ansi-log', version: '1.0.0'},
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
		console.error(`ansi-log: ignoring a line that is not JSON (${line.length} chars)`);
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
