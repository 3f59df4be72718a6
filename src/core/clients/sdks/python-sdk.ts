/**
 * The MCP Python SDK client (`mcp.client.stdio` + `ClientSession`). Sources: docs/protocol.md C4 (reader,
 * versions, no timeout, environment), docs/clients.md#the-agreement-table (run here: 2.3, ids from 1).
 */
import {NOT_ESTABLISHED, notEstablished, type ClientProfile} from '../profile.js';

/** The Python SDK client family. */
export const PYTHON_SDK: ClientProfile = {
	id: 'python-sdk',
	kind: 'sdk',
	displayName: 'Python SDK',
	family: {value: 'python-sdk', source: 'docs/protocol.md C4'},
	sdk: {
		value: 'mcp (Python) 1.29 read, 2.3 run here',
		source: 'docs/protocol.md C4; docs/clients.md#the-agreement-table',
	},
	configs: [],
	launch: {
		environment: {value: {mode: 'sdk-allowlist'}, source: 'docs/protocol.md C4 (an allow-list like the TS SDK’s)'},
		command: notEstablished('how the Python client resolves the command was not read for mcp-wire'),
	},
	opening: {
		protocolVersion: NOT_ESTABLISHED,
		capabilities: NOT_ESTABLISHED,
		clientInfo: NOT_ESTABLISHED,
		ids: {kind: 'integer', first: 1},
		order: ['initialize', 'notifications/initialized', 'tools/list'],
		supportedVersions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'],
		source: 'docs/protocol.md C4 (supported versions, 1.29); docs/clients.md#the-agreement-table (initialize is id 1)',
	},
	limits: {
		startupMs: {value: null, source: 'docs/protocol.md C4 (no default request timeout)'},
		requestMs: {value: null, source: 'docs/protocol.md C4; R15'},
		progressResets: notEstablished('no default timeout to reset'),
	},
	stderr: {value: 'inherited', source: 'docs/protocol.md C4 (errlog, sys.stderr by default)'},
	errorTexts: [
		{
			id: 'python-sdk/unsupported-version',
			pattern: 'Unsupported protocol version from the server',
			explainedBy: 'unsupported-protocol-version',
			example: 'RuntimeError: Unsupported protocol version from the server: 2023-01-01',
			means: 'the initialize result named a version outside its supported list; the session fails',
			source: 'docs/protocol.md C4',
		},
		{
			id: 'python-sdk/parse-failed',
			pattern: 'Failed to parse JSONRPC message from server',
			explainedBy: 'python-parse-failed',
			example: 'Failed to parse JSONRPC message from server',
			means: 'a line on stdout was not a JSON-RPC message; it was logged and skipped',
			source: 'docs/protocol.md C4',
		},
		{
			id: 'python-sdk/call-tool-result-invalid',
			pattern: 'validation error for CallToolResult',
			example: 'ValidationError: 1 validation error for CallToolResult content Field required',
			means:
				'the tools/call result did not fit its CallToolResult model (no `content`, a content block of an unknown type); `call_tool()` raised',
			source: 'docs/clients.md#tool-calls (mcp 2.3.0, run on unknown-content-type and a result without content)',
		},
		{
			id: 'python-sdk/structured-content-invalid',
			pattern: 'Invalid structured content returned by tool',
			example: "RuntimeError: Invalid structured content returned by tool get_weather: '21' is not of type 'number'",
			means: "the tool's structuredContent broke its outputSchema; `call_tool()` raised",
			source: 'docs/clients.md#tool-calls (mcp 2.3.0, run on structured-content-mismatch)',
		},
	],
	restart: 'restart the program that runs the Python client (it spawns the server when the session opens)',
	sources: ['docs/protocol.md C4', 'docs/clients.md#the-agreement-table', 'docs/clients.md#tool-calls'],
};
