/**
 * The TypeScript SDK 1.x client (`@modelcontextprotocol/sdk`, `Client` + `StdioClientTransport`): the reader of
 * Claude Desktop, Claude Code, the MCP Inspector and Gemini CLI. Sources: docs/protocol.md C1 (reader), C3
 * (process, environment, stderr), R15 (60 s per request), docs/clients.md#checked-against-the-real-clients
 * (run here: 1.32, ids from 0).
 */
import {NOT_ESTABLISHED, type ClientProfile} from '../profile.js';

/** The TS SDK 1.x client family. */
export const TS_SDK_V1: ClientProfile = {
	id: 'ts-sdk-v1',
	kind: 'sdk',
	displayName: 'TypeScript SDK 1.x',
	family: {value: 'ts-sdk-v1', source: 'docs/protocol.md C1'},
	sdk: {value: '@modelcontextprotocol/sdk 1.x (1.32 run here)', source: 'docs/clients.md#the-agreement-table'},
	configs: [],
	launch: {
		environment: {value: {mode: 'sdk-allowlist'}, source: 'docs/protocol.md C3 (getDefaultEnvironment)'},
		command: {
			value: 'cross-spawn without a shell: the command is looked up on the PATH it passes',
			source: 'docs/protocol.md C3',
		},
	},
	opening: {
		protocolVersion: '2025-11-25',
		capabilities: NOT_ESTABLISHED,
		clientInfo: NOT_ESTABLISHED,
		ids: {kind: 'integer', first: 0},
		order: ['initialize', 'notifications/initialized', 'tools/list'],
		supportedVersions: NOT_ESTABLISHED,
		source:
			'docs/clients.md#the-agreement-table (the wrong-id row: initialize is id 0); capabilities and clientInfo are the host’s',
	},
	limits: {
		startupMs: {value: 60_000, source: 'docs/protocol.md R15 (initialize is a request like any other)'},
		requestMs: {value: 60_000, source: 'docs/protocol.md R15'},
		progressResets: {
			value: false,
			source:
				'@modelcontextprotocol/sdk 1.32.2 shared/protocol.js: `resetTimeoutOnProgress` is false unless the caller passes it per request; what the hosts pass is not established',
		},
	},
	stderr: {value: 'inherited', source: 'docs/protocol.md C3 (stderr: inherit by default)'},
	errorTexts: [
		{
			id: 'ts-sdk-v1/read-buffer-exceeded',
			pattern: 'ReadBuffer exceeded maximum size',
			explainedBy: 'read-buffer-exceeded',
			example: 'ReadBuffer exceeded maximum size of 10485760 bytes',
			means: 'one line on stdout was over the 10 MiB read buffer (1.30 and later); the connection closed',
			source: 'docs/protocol.md C1',
		},
		{
			id: 'ts-sdk-v1/unsupported-version',
			pattern: "Server's protocol version is not supported",
			explainedBy: 'unsupported-protocol-version',
			example: "Server's protocol version is not supported: 2023-01-01",
			means: 'the initialize result named a version this SDK does not know; connect fails',
			source: 'docs/protocol.md C1, docs/clients.md#the-agreement-table (fixed-version)',
		},
	],
	restart: 'restart the host that runs the SDK client (it spawns the server at connect)',
	sources: [
		'docs/protocol.md C1',
		'docs/protocol.md C3',
		'docs/protocol.md R15',
		'docs/clients.md#the-agreement-table',
	],
};
