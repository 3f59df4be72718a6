/**
 * The client registry (docs/clients.md#the-clients): every host and SDK family mcp-wire knows, one module each.
 * Adding a client is adding its module under `hosts/` (or `sdks/`) and one line here.
 */
import {CLAUDE_CODE} from './hosts/claude-code.js';
import {CLAUDE_DESKTOP} from './hosts/claude-desktop.js';
import {CLINE} from './hosts/cline.js';
import {CODEX} from './hosts/codex.js';
import {CONTINUE} from './hosts/continue.js';
import {CURSOR} from './hosts/cursor.js';
import {GEMINI_CLI} from './hosts/gemini-cli.js';
import {GOOSE} from './hosts/goose.js';
import {LM_STUDIO} from './hosts/lm-studio.js';
import {VSCODE} from './hosts/vscode.js';
import {WINDSURF} from './hosts/windsurf.js';
import {ZED} from './hosts/zed.js';
import {PYTHON_SDK} from './sdks/python-sdk.js';
import {RMCP} from './sdks/rmcp.js';
import {TS_SDK_V1} from './sdks/ts-sdk-v1.js';
import {TS_SDK_V2} from './sdks/ts-sdk-v2.js';
import type {ClientId, ClientProfile, HostId, SdkId} from './profile.js';

/** Every host, in the order `doctor` and docs/clients.md list them. */
export const HOSTS: readonly ClientProfile[] = [
	CLAUDE_DESKTOP,
	CLAUDE_CODE,
	CURSOR,
	VSCODE,
	GEMINI_CLI,
	CODEX,
	WINDSURF,
	CLINE,
	ZED,
	CONTINUE,
	GOOSE,
	LM_STUDIO,
];

/** Every SDK client family. */
export const SDKS: readonly ClientProfile[] = [TS_SDK_V1, TS_SDK_V2, PYTHON_SDK, RMCP];

/** Every client: hosts, then SDK families. */
export const CLIENTS: readonly ClientProfile[] = [...HOSTS, ...SDKS];

const BY_ID = new Map<ClientId, ClientProfile>(CLIENTS.map((profile) => [profile.id, profile]));

/** The profile of `id`. Throws an Error for an id the registry does not hold (a programming error). */
export function clientProfile(id: HostId | SdkId): ClientProfile {
	const profile = BY_ID.get(id);
	if (profile === undefined) throw new Error(`no client profile for ${id}`);
	return profile;
}

/** The profile of a name a user typed (`--client`), or undefined. */
export function findClient(name: string): ClientProfile | undefined {
	return BY_ID.get(name as ClientId);
}
