// slow-call: the slow_report tool answers 65 s after the call, with a progress notification every 20 s (FAULT line).
// Expect, with `probe --call slow_report --timeout 90000`: slow-response (error: past the TS SDK's 60 s request
// limit, which progress does not reset by default) at the call's reply. `node slow-call.mjs MS` answers after MS
// instead (a shorter run for a quick look). docs/protocol.md R15, R18.
import {createInterface} from 'node:readline';

const KNOWN_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const DELAY_MS = Number(process.argv[2] ?? 65_000);
const PROGRESS_EVERY_MS = 20_000;
const TOOLS = [
	{
		name: 'slow_report',
		description: 'Build the monthly report (takes a while)',
		inputSchema: {type: 'object', properties: {}},
		annotations: {readOnlyHint: true},
	},
];

function send(message) {
	process.stdout.write(JSON.stringify(message) + '\n');
}

/** Answers after DELAY_MS, reporting progress under the call's token meanwhile (R18: that part is right). */
function slowCall(request) {
	const token = request.params?._meta?.progressToken;
	let done = 0;
	const ticker =
		token === undefined
			? undefined
			: setInterval(() => {
					done += PROGRESS_EVERY_MS;
					send({jsonrpc: '2.0', method: 'notifications/progress', params: {progressToken: token, progress: done, total: DELAY_MS}});
				}, PROGRESS_EVERY_MS);
	setTimeout(() => {
		if (ticker !== undefined) clearInterval(ticker);
		send({jsonrpc: '2.0', id: request.id, result: {content: [{type: 'text', text: 'report ready'}]}});
	}, DELAY_MS); // FAULT: longer than the TS SDK client waits for a request (60 s)
}

function result(request) {
	switch (request.method) {
		case 'initialize': {
			const offered = request.params?.protocolVersion;
			return {
				protocolVersion: KNOWN_VERSIONS.includes(offered) ? offered : '2025-11-25',
				capabilities: {tools: {}},
				serverInfo: {name: 'slow-call', version: '1.0.0'},
			};
		}
		case 'tools/list':
			return {tools: TOOLS};
		case 'ping':
			return {};
		default:
			return undefined;
	}
}

// One JSON message per line in, one per line out. Stdin EOF ends the readline; a pending call still answers.
createInterface({input: process.stdin}).on('line', (line) => {
	let request;
	try {
		request = JSON.parse(line);
	} catch {
		console.error(`slow-call: ignoring a line that is not JSON (${line.length} chars)`);
		return;
	}
	if (request.id === undefined) return; // a notification: never answered
	if (request.method === 'tools/call') return slowCall(request);
	const value = result(request);
	if (value === undefined) {
		send({jsonrpc: '2.0', id: request.id, error: {code: -32601, message: `Method not found: ${request.method}`}});
	} else {
		send({jsonrpc: '2.0', id: request.id, result: value});
	}
});
