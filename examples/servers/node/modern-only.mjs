// modern-only: a 2026-07-28-only (stateless) server: no initialize handshake, only server/discover (R19). Expect: no findings if the probe falls back to the modern era (see manifest note). Field case: none (docs/protocol.md R19).
import {createInterface} from 'node:readline';

const VERSION = '2026-07-28';
const ECHO_TOOL = {
	name: 'echo',
	description: 'Echo the input text back',
	inputSchema: {type: 'object', properties: {text: {type: 'string'}}, required: ['text']},
};

function send(message) {
	process.stdout.write(JSON.stringify(message) + '\n');
}

function unsupported(id, requested) {
	// UnsupportedProtocolVersionError (schema 2026-07-28): names the versions this server speaks
	send({
		jsonrpc: '2.0',
		id,
		error: {code: -32022, message: `Unsupported protocol version: this server speaks ${VERSION} only`, data: {supported: [VERSION], requested}},
	});
}

createInterface({input: process.stdin}).on('line', (line) => {
	let request;
	try {
		request = JSON.parse(line);
	} catch {
		console.error(`modern-only: ignoring a line that is not JSON (${line.length} chars)`);
		return;
	}
	if (request.id === undefined) return; // a notification: never answered
	const requested = request.params?._meta?.['io.modelcontextprotocol/protocolVersion'];
	if (request.method === 'initialize') return unsupported(request.id, request.params?.protocolVersion ?? null);
	if (requested !== undefined && requested !== VERSION) return unsupported(request.id, requested);
	switch (request.method) {
		case 'server/discover':
			return send({jsonrpc: '2.0', id: request.id, result: {supportedVersions: [VERSION], capabilities: {tools: {}}, resultType: 'complete'}});
		case 'tools/list':
			return send({jsonrpc: '2.0', id: request.id, result: {tools: [ECHO_TOOL], resultType: 'complete'}});
		case 'tools/call': {
			const text = String(request.params?.arguments?.text ?? '');
			return send({jsonrpc: '2.0', id: request.id, result: {content: [{type: 'text', text}], resultType: 'complete'}});
		}
		default: // ping and the rest of the legacy methods were removed in 2026-07-28
			return send({jsonrpc: '2.0', id: request.id, error: {code: -32601, message: `Method not found: ${request.method}`}});
	}
});
