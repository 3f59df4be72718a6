import type {
	ClientFamily,
	ClientImpact,
	FindingDraft,
	Reaction,
	Severity,
	SessionMeta,
	StreamName,
} from '../../types.js';

/**
 * A finding code's metadata, like an ESLint rule's `meta`: its default severity, one-line message, fix,
 * the rule ids it comes from (`docs/`), and how each client family reacts. Detectors only say what and
 * where ({@link FindingDraft}); `dressFinding` in `catalog.ts` adds the rest from this entry.
 */
export interface CatalogEntry {
	readonly severity: Severity;
	readonly title: string;
	readonly message: (draft: FindingDraft) => string;
	readonly hint: (draft: FindingDraft) => string;
	readonly rules: readonly string[];
	readonly impact: (draft: FindingDraft) => readonly ClientImpact[];
	/**
	 * What `docs/findings.md` says about the code beyond the runtime text above (generated from the
	 * catalog by `npm run docs`; a test fails when the committed file is stale). Optional so that a new
	 * code builds before it is described; the page then says it is not described yet.
	 */
	readonly doc?: FindingDoc;
	/**
	 * Set when the finding usually follows from another fault of the same session rather than being the fault,
	 * saying from what (a request left open because the server died or was stuck). A front end that shows one
	 * finding for a session (doctor's verdict, docs/cli.md#doctor) shows such a finding only when no other one
	 * qualifies.
	 */
	readonly consequenceOf?: string;
}

/** The documentation of one finding code: what it is, how it is recognised, and the bytes of an example. */
export interface FindingDoc {
	/** What the fault is, in one or two sentences (Markdown). */
	readonly what: string;
	/** The evidence mcp-wire needs before it reports the code (Markdown). */
	readonly recognised: string;
	/** The fix, when the entry's `hint` depends on `detail` and one generic hint would say too little (Markdown). */
	readonly fix?: string;
	/**
	 * Variants whose client impact differs (e.g. invalid UTF-8 inside or outside a JSON string): each is
	 * a `detail` and/or `severity` fed to `impact`, and the page prints one impact table per variant.
	 */
	readonly variants?: readonly {
		readonly label: string;
		readonly severity?: Severity;
		readonly detail?: Readonly<Record<string, unknown>>;
	}[];
	/** A tiny example of the wire: the bytes (and process events) that make mcp-wire report the code. */
	readonly example: FindingExample;
}

/**
 * A tiny session that shows a code. `steps` are in time order; `bytes` is a binary string (each char one
 * byte, 0–255: write `\xEF\xBB\xBF` for a BOM) so that invalid UTF-8 can be shown too. A test replays
 * every example through a Session and expects the code, unless `live` is set: then only a live probe
 * observes the code (spawn-failed, no-response) and the steps only illustrate the wire. Rule links in
 * the Markdown fields use the short anchor of docs/protocol.md (`#r5` for R5); the page generator resolves them.
 */
export interface FindingExample {
	readonly steps: readonly ExampleStep[];
	/** One sentence under the bytes (Markdown). */
	readonly note?: string;
	/** Only a live probe reports the code (or the bytes are shortened); replaying `steps` does not. */
	readonly live?: boolean;
}

/** One step of a {@link FindingExample}: bytes on a stream, a process event, or the exit. `tMs` defaults to the previous step's. */
export type ExampleStep =
	| {readonly stream: StreamName; readonly bytes: string; readonly tMs?: number}
	| {readonly event: 'stdin-closed' | 'SIGTERM' | 'SIGKILL'; readonly tMs?: number}
	| {readonly exit: number | null; readonly signal?: string; readonly tMs?: number};

/** One reaction and its note per client family: a row of the impact table. */
export type ImpactRow = Readonly<Record<ClientFamily, readonly [Reaction, string]>>;

/** The client families in table order. */
export const FAMILIES: readonly ClientFamily[] = ['ts-sdk-v1', 'ts-sdk-v2', 'python-sdk', 'vscode', 'rmcp', 'cursor'];

/** An impact function that always returns the same row (most codes: the reaction does not depend on the draft). */
export function row(r: ImpactRow): () => readonly ClientImpact[] {
	const impact = FAMILIES.map((client) => ({client, reaction: r[client][0], note: r[client][1]}));
	return () => impact;
}

/** A cell for a client whose reaction nobody has checked: shown as "not established", never invented. */
export const UNKNOWN: readonly [Reaction, string] = ['unknown', 'not established'];

/**
 * The row of a finding that claims no client's reaction: every client {@link UNKNOWN} (a give-up at
 * mcp-wire's own limit, shorter than the clients' own: no client outcome is established).
 */
export const NOT_ESTABLISHED_IMPACT: () => readonly ClientImpact[] = row(
	Object.fromEntries(FAMILIES.map((client) => [client, UNKNOWN])) as ImpactRow,
);

/** `draft.detail[key]` when it is a string. */
export const detailString = (draft: FindingDraft, key: string): string | undefined => {
	const value = draft.detail?.[key];
	return typeof value === 'string' ? value : undefined;
};

/** `draft.detail[key]` when it is a number. */
export const detailNumber = (draft: FindingDraft, key: string): number | undefined => {
	const value = draft.detail?.[key];
	return typeof value === 'number' ? value : undefined;
};

/**
 * The variables that matter (CA bundles, proxies, registries) the capturing user's shell sets and the server
 * did not get (`SessionMeta.envStripped`, C3), as a `detail` field for a failure they can explain; `{}`
 * when there are none or the server got the whole environment.
 */
export function envStrippedDetail(meta: SessionMeta): {envStripped?: readonly string[]} {
	const names = meta.envStripped ?? [];
	return names.length === 0 || meta.envMode === 'inherit' ? {} : {envStripped: names};
}

/**
 * The advice for a server that stalled or exited while variables that matter were stripped: names them
 * and says how to try with them (`--inherit-env` or `--env NAME`), then how to keep them (the config's
 * `env`). Undefined without `detail.envStripped`. Says what was seen, not that it is the cause.
 */
export function envStrippedAdvice(d: FindingDraft): string | undefined {
	const names = d.detail?.['envStripped'];
	if (!Array.isArray(names) || names.length === 0) return undefined;
	const list = names.map((name) => `\`${String(name)}\``).join(', ');
	const envFlags = names.map((name) => `--env ${String(name)}`).join(' ');
	return `Your shell sets ${list}, which the server did not get (a client passes only a few variables, C3); a server that needs a CA certificate, a proxy or a package registry stalls or exits without ${names.length === 1 ? 'it' : 'them'}. Probe again with \`--inherit-env\` (or \`${envFlags}\`); if it then works, add ${names.length === 1 ? 'it' : 'them'} to the server's \`env\` in the client config.`;
}

/** Words a stderr line uses for a TLS, proxy, DNS or registry failure: what a stripped CA or proxy variable causes. */
const NETWORK_FAILURE =
	/certific|\bssl\b|\btls\b|x509|self[- ]signed|issuer|proxy|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|getaddrinfo|registry|socket hang up/i;

/**
 * Whether the finding's own evidence points at the network (C3): a stderr line naming a TLS, proxy, DNS or
 * registry failure (`detail.stderrTail`), or a process still connecting (`detail.procInfo`, SYN_SENT).
 * Without it a stripped variable is one possible cause among others, not the first one to try.
 */
export function networkEvidence(d: FindingDraft): boolean {
	const tail = d.detail?.['stderrTail'];
	if (Array.isArray(tail) && tail.some((line) => typeof line === 'string' && NETWORK_FAILURE.test(line))) return true;
	const info = d.detail?.['procInfo'] as {processes?: readonly {connecting?: readonly unknown[]}[]} | undefined;
	return (info?.processes ?? []).some((p) => (p.connecting?.length ?? 0) > 0);
}

/**
 * A failure's fix with the stripped-variable advice ({@link envStrippedAdvice}) placed by the evidence: first
 * (then `Otherwise:` the fix) when the stderr or the process points at the network, else after the fix
 * (`Also:`). The fix alone when no variable was stripped.
 * @param base the fix without the variables, a sentence or more starting with a capital.
 */
export function withEnvAdvice(d: FindingDraft, base: string): string {
	const env = envStrippedAdvice(d);
	if (env === undefined) return base;
	const lower = (text: string): string => `${text.charAt(0).toLowerCase()}${text.slice(1)}`;
	return networkEvidence(d) ? `${env} Otherwise: ${lower(base)}` : `${base} Also: ${lower(env)}`;
}
