// tool-names: tools/list names a tool with spaces and lists another name twice (R20, R21; F44). Expect: invalid-tool-name, duplicate-tool-name (the SDK clients list the tools; hosts fail at the first prompt).
import {createInterface} from 'node:readline';

const KNOWN_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const SCHEMA = {type: 'object', properties: {text: {type: 'string'}}};
const TOOLS = [
	// FAULT: a title as the name (a space: outside MCP's [A-Za-z0-9_.-], rejected by every model API)
	{name: 'Echo Text', description: 'Echo the input text back', inputSchema: SCHEMA},
	{name: 'search', description: 'Search', inputSchema: SCHEMA},
	// FAULT: the same name twice (the Anthropic API: "tools: Tool names must be unique.")
	{name: 'search', description: 'Search again', inputSchema: SCHEMA},
];

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
				serverInfo: {name: 'healthy', version: '1.0.0'},
			};
		}
		case 'tools/list':
			return {tools: TOOLS};
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
		console.error(`tool-names: ignoring a line that is not JSON (${line.length} chars)`);
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
