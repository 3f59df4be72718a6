import {checkInitializeError} from '../jsonrpc/lifecycle.js';
import type {Frame} from '../types.js';

type Info = {name?: string; version?: string};

/** A `{name, version}` of the strings given (clientInfo, serverInfo). */
function infoOf(given: {name?: unknown; version?: unknown}): Info {
	return {
		...(typeof given.name === 'string' ? {name: given.name} : {}),
		...(typeof given.version === 'string' ? {version: given.version} : {}),
	};
}

/**
 * Where the session stands in the MCP lifecycle (R8–R11, R19), from the messages themselves: the version the
 * client offered and the server answered, the era (legacy `initialize` or modern `server/discover`), whether the
 * handshake is done, the server's capabilities, who the two sides say they are, and the list counts. Facts for
 * the rules and the summary; no finding is decided here. Pure.
 */
export class LifecycleState {
	offeredVersion: string | undefined;
	negotiatedVersion: string | undefined;
	era: 'legacy' | 'modern' | undefined;
	handshakeDone = false;
	serverCapabilities: Readonly<Record<string, unknown>> | undefined;
	serverInfo: Info | undefined;
	clientInfo: Info | undefined;
	/** The length of the last `tools/list`, `prompts/list` and `resources/list` result seen. */
	readonly counts: {tools?: number; prompts?: number; resources?: number} = {};

	/** A request the client sent on stdin: `initialize` tells the offered version and the client's name. */
	clientRequest(frame: Frame): void {
		if (frame.method !== 'initialize') return;
		const params = (frame.message as {params?: {protocolVersion?: unknown; clientInfo?: unknown}}).params;
		if (typeof params?.protocolVersion === 'string') this.offeredVersion = params.protocolVersion;
		const info = params?.clientInfo;
		if (info && typeof info === 'object') this.clientInfo = infoOf(info);
	}

	/** A server reply (on stdout) to the client's request for `method`. */
	serverReply(frame: Frame, method: string): void {
		const message = frame.message as {result?: unknown; error?: unknown};
		if (method === 'initialize') {
			if (frame.kind === 'error') {
				// A rejection naming 2026-07-28 is a modern-only server (R19); any other is protocol-version's.
				if (checkInitializeError(message.error)?.modernEra) this.era = 'modern';
				return;
			}
			this.era = 'legacy';
			this.handshakeDone = true;
			const result = message.result as
				{protocolVersion?: unknown; serverInfo?: unknown; capabilities?: unknown} | undefined;
			if (typeof result?.protocolVersion === 'string') this.negotiatedVersion = result.protocolVersion;
			const capabilities = result?.capabilities;
			if (capabilities && typeof capabilities === 'object' && !Array.isArray(capabilities))
				this.serverCapabilities = capabilities as Record<string, unknown>;
			if (result?.serverInfo && typeof result.serverInfo === 'object') this.serverInfo = infoOf(result.serverInfo);
			return;
		}
		if (method === 'server/discover' && frame.kind === 'response') {
			this.era = 'modern';
			this.handshakeDone = true;
			return;
		}
		if (frame.kind !== 'response' || !message.result || typeof message.result !== 'object') return;
		const result = message.result as Record<string, unknown>;
		for (const list of ['tools', 'prompts', 'resources'] as const) {
			if (method === `${list}/list` && Array.isArray(result[list]))
				this.counts[list] = (result[list] as unknown[]).length;
		}
	}
}
