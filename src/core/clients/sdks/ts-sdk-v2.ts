/**
 * The TypeScript SDK 2.x client (`@modelcontextprotocol/client`). Sources: docs/protocol.md C2 (non-JSON lines
 * skipped silently), C3 (process), docs/clients.md#typescript-sdk-2x (run here: 2.4.0).
 */
import {NOT_ESTABLISHED, type ClientProfile} from '../profile.js';

/** The TS SDK 2.x client family. */
export const TS_SDK_V2: ClientProfile = {
	id: 'ts-sdk-v2',
	kind: 'sdk',
	displayName: 'TypeScript SDK 2.x',
	family: {value: 'ts-sdk-v2', source: 'docs/protocol.md C2'},
	sdk: {value: '@modelcontextprotocol/client 2.x (2.4.0 run here)', source: 'docs/clients.md#typescript-sdk-2x'},
	configs: [],
	launch: {
		environment: {value: {mode: 'sdk-allowlist'}, source: 'docs/protocol.md C3; docs/clients.md#typescript-sdk-2x'},
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
			'docs/clients.md#typescript-sdk-2x: default options send a plain initialize offering 2025-11-25 (server/discover only with versionNegotiation auto); run here: ids 0, 1, 2… and no logging/setLevel to a server that advertises logging',
	},
	limits: {
		startupMs: {value: 60_000, source: 'docs/clients.md#typescript-sdk-2x'},
		requestMs: {value: 60_000, source: 'docs/clients.md#typescript-sdk-2x'},
		progressResets: {
			value: false,
			source:
				'2.4.0 run on slow-call (docs/clients.md "Tool calls"): `callTool()` rejects `Request timed out` at 60 s though the tool sends progress',
		},
	},
	stderr: {value: 'inherited', source: 'docs/protocol.md C3 (v1.x and v2)'},
	errorTexts: [],
	finiteNumbersAt: {
		value: {
			// ToolSchema: `inputSchema.properties` is `z.record(z.string(), JSONValueSchema)`, every number a `z.number()`.
			'tools/list': '^tools\\.\\d+\\.inputSchema\\.properties\\.',
			// ServerCapabilitiesSchema: `experimental`, `extensions` (records of JSONObjectSchema), `logging`,
			// `completions` and the task capabilities (JSONObjectSchema).
			initialize:
				'^capabilities\\.(?:experimental\\.[^.]+|extensions\\.[^.]+|logging|completions|tasks\\.(?:list|cancel|requests\\.tools\\.call))\\.',
		},
		source:
			'@modelcontextprotocol/core 2.4.0 `src/schemas.ts` (JSONValueSchema: `z.number()` of zod 4, which rejects ±Infinity); run here: a tools/list reply with `"maximum":1e400` in a property rejects `Invalid result for tools/list … expected number, received Infinity`, one with `1e400` in `capabilities.experimental` fails connect (docs/clients.md#non-finite-numbers)',
	},
	restart: 'restart the host that runs the SDK client (it spawns the server at connect)',
	sources: ['docs/protocol.md C2', 'docs/protocol.md C3', 'docs/clients.md#typescript-sdk-2x'],
};
