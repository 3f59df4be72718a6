/**
 * The Rust SDK client (rmcp), the reader of Codex. Sources: docs/protocol.md C7 (reader by version),
 * docs/clients.md#codex (run here through Codex 0.171: lenient ids, no line limit, lines with bad UTF-8 dropped).
 */
import {notEstablished, unknownOpening, type ClientProfile} from '../profile.js';

/** The rmcp client family. */
export const RMCP: ClientProfile = {
	id: 'rmcp',
	kind: 'sdk',
	displayName: 'rmcp (Rust SDK)',
	family: {value: 'rmcp', source: 'docs/protocol.md C7'},
	sdk: {value: 'rmcp (rust-sdk); behaviour by version in C7', source: 'docs/protocol.md C7'},
	configs: [],
	launch: {
		environment: notEstablished(
			'rmcp’s own child-process transport was not read; Codex passes an allow-list (docs/clients.md#codex)',
		),
		command: notEstablished('not read for mcp-wire'),
	},
	opening: unknownOpening('rmcp’s opening is its host’s: see Codex (docs/clients.md#codex)'),
	limits: {
		startupMs: notEstablished('rmcp itself sets no limit that was read; Codex sets 30 s'),
		requestMs: notEstablished('rmcp itself sets no limit that was read; Codex sets 30 s'),
		progressResets: notEstablished('not read for mcp-wire'),
	},
	stderr: notEstablished('not read for mcp-wire'),
	errorTexts: [
		{
			id: 'rmcp/connection-closed',
			pattern: 'connection closed: initialize response',
			explainedBy: 'transport-closed',
			example: 'Mcp error: -32002: connection closed: initialize response',
			means:
				'rmcp before 1.7.0 closed the transport on a line it could not decode, or the server exited during the handshake',
			source: 'docs/protocol.md C7 (Doist/todoist-mcp#305)',
		},
		{
			// The server side of rmcp: its ServerInitializeError::ExpectedInitializedNotification, gone in rmcp 1.1.1.
			id: 'rmcp/expect-initialized-notification',
			pattern: 'expect initialized notification, but received',
			example: 'Error: expect initialized notification, but received: Some(Request(SetLevelRequest))',
			means:
				'an rmcp server before 1.1.1 (rust-sdk PR#730) took a request between its initialize result and `notifications/initialized` (VS Code sends `logging/setLevel` there) and exited',
			source: 'docs/field-cases.md F47 (rust-sdk crates/rmcp/src/service/server.rs before PR#730)',
		},
	],
	restart: 'restart the host that runs the rmcp client',
	sources: ['docs/protocol.md C7', 'docs/clients.md#codex'],
};
