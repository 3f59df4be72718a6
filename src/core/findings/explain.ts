import {FINDING_CODES, type ClientImpact, type FindingCode, type FindingDraft, type Severity} from '../types.js';
import {CATALOG, dressFinding} from './support/catalog.js';
import {findingDocsRef} from './support/docs-ref.js';
import {CLIENT_MESSAGES, unescapePasted, type ClientMessageId, type ErrorText, type Pasted} from './support/pasted.js';
import {CLIENT_ERROR_MODULES} from './client-errors.js';
import {RULES} from './registry.js';

/**
 * `mcp-wire explain`: maps an error message a user copied from a client log back to the wire fault behind it
 * (docs/findings.md, "how a finding is shown"; docs/protocol.md C8, "Message texts a user will paste"), with the
 * code's title, fix and client impact from its rule (nothing is restated here).
 *
 * Three sources, walked in this order: the client messages of `support/pasted.ts` (V8's `JSON.parse`, the Python
 * SDK, VS Code, Claude Code…), which the rules' `errors` entries explain (`rules/<code>.ts`); then each client
 * module's own `errors` ({@link ClientErrorText}, listed in `client-errors.ts`). Pure: text in, explanations out.
 */

/** One fault that can produce the pasted message. */
export interface Explanation {
	readonly code: FindingCode;
	/** `likely`: the message points at this fault; `possible`: one of several faults that produce it. */
	readonly likelihood: 'likely' | 'possible';
	/** How the message points at the fault, in one or two sentences. */
	readonly why: string;
	/** From the code's rule: the fault's title, severity, fix, client reactions and docs/protocol.md rules. */
	readonly title: string;
	readonly severity: Severity;
	readonly hint: string;
	readonly impact: readonly ClientImpact[];
	readonly rules: readonly string[];
}

/** What {@link explainError} returns. */
export interface ExplainResult {
	/** The message as read (trimmed). */
	readonly input: string;
	/** Which client or reader logs this message, when it can be told (e.g. V8's `JSON.parse` in the TS SDK). */
	readonly source?: string;
	/** The faults, most likely first; empty when nothing known matches. */
	readonly explanations: readonly Explanation[];
	/**
	 * Set when the input is a finding code itself (`stray-output`, as the plain log's `docs:` line names
	 * it): its one explanation is the code's catalog entry, `why` its description, and this is its
	 * documentation pointer (`docs/findings.md#stray-output`).
	 */
	readonly docs?: string;
}

/**
 * One error text a client logs, as a client module declares it (the extension point for client-level texts:
 * a module under `src/core/clients/` exports `errors: readonly ClientErrorText[]` and is listed in
 * `client-errors.ts`; nothing here changes). When `pattern` matches the pasted message (trimmed, escapes such
 * as `\u001b` unescaped), each of `codes` is explained with `meaning` as its `why`, after every rule's
 * explanations; `client` names the source when no earlier message did.
 */
export interface ClientErrorText {
	/** Tested against the pasted message. */
	readonly pattern: RegExp;
	/** The client that logs the text (`Codex CLI`, `Gemini CLI`), shown as the explanation's source. */
	readonly client: string;
	/** What the text means on the wire, in one or two sentences: each code's `why`. */
	readonly meaning: string;
	/** The finding codes that produce the text, most likely first. */
	readonly codes: readonly FindingCode[];
	/** `likely` when the text points at the codes; `possible` (the default) when it is one of several causes. */
	readonly likelihood?: 'likely' | 'possible';
}

/** A client module as explain sees it: any object with client error texts. */
export interface ClientErrorModule {
	readonly errors?: readonly ClientErrorText[];
}

interface Candidate {
	readonly code: FindingCode;
	readonly likelihood: 'likely' | 'possible';
	readonly why: string;
	readonly detail?: Readonly<Record<string, unknown>>;
	readonly severity?: Severity;
}

function explanationOf(candidate: Candidate): Explanation {
	const draft: FindingDraft = {
		code: candidate.code,
		stream: 'stdout',
		offset: 0,
		byteLength: 0,
		tMs: 0,
		...(candidate.detail === undefined ? {} : {detail: candidate.detail}),
		...(candidate.severity === undefined ? {} : {severity: candidate.severity}),
	};
	const finding = dressFinding(draft);
	return {
		code: candidate.code,
		likelihood: candidate.likelihood,
		why: candidate.why,
		title: CATALOG[candidate.code].title,
		severity: finding.severity,
		hint: finding.hint,
		impact: finding.impact,
		rules: finding.rules,
	};
}

/** Every rule's {@link ErrorText} entries per client message, ordered by rank (then registry order). */
function entriesByMessage(): ReadonlyMap<ClientMessageId, readonly {code: FindingCode; text: ErrorText}[]> {
	const byMessage = new Map<ClientMessageId, {code: FindingCode; text: ErrorText}[]>();
	for (const rule of RULES) {
		for (const text of rule.errors ?? []) {
			for (const id of typeof text.on === 'string' ? [text.on] : text.on) {
				const list = byMessage.get(id) ?? [];
				list.push({code: rule.code, text});
				byMessage.set(id, list);
			}
		}
	}
	for (const list of byMessage.values()) list.sort((a, b) => a.text.rank - b.text.rank);
	return byMessage;
}

let entries: ReturnType<typeof entriesByMessage> | undefined;

/** The candidates one rule entry gives for a reading: one, or none when `why` says it does not apply. */
function candidateOf(code: FindingCode, text: ErrorText, pasted: Pasted): Candidate | undefined {
	const why = typeof text.why === 'string' ? text.why : text.why(pasted);
	if (why === undefined) return undefined;
	const detail = typeof text.detail === 'function' ? text.detail(pasted) : text.detail;
	return {
		code,
		likelihood: text.likelihood,
		why,
		...(detail === undefined ? {} : {detail}),
		...(text.severity === undefined ? {} : {severity: text.severity}),
	};
}

/** The explanation of a finding code typed as such (`mcp-wire explain stray-output`): its description and docs pointer. */
function explainCode(input: string, code: FindingCode): ExplainResult {
	// Markdown links of the catalog's description read as their text in a terminal.
	const what = CATALOG[code].doc?.what.replaceAll(/\[([^\]]+)\]\([^)]*\)/g, '$1') ?? CATALOG[code].title;
	return {
		input,
		explanations: [explanationOf({code, likelihood: 'likely', why: what})],
		docs: findingDocsRef(code),
	};
}

/**
 * Maps a pasted client error message to the faults behind it: each known client message that matches
 * (`support/pasted.ts`, in its order) contributes the rules' explanations for it, then each client module's
 * matching {@link ClientErrorText}; a code is explained once (where it first appears), likely ones first.
 *
 * @param text the message as pasted (escapes such as `\u001b` are understood), or a finding code.
 * @param clients the client modules whose own error texts are walked after the rules' (default: `client-errors.ts`).
 * @returns the explanations, most likely first, one per code; `source` names who logs the message when known.
 */
export function explainError(
	text: string,
	clients: readonly ClientErrorModule[] = CLIENT_ERROR_MODULES,
): ExplainResult {
	const input = text.trim();
	const code = FINDING_CODES.find((known) => known === input.toLowerCase());
	if (code !== undefined) return explainCode(input, code);
	const message = unescapePasted(input);
	entries ??= entriesByMessage();
	const candidates: Candidate[] = [];
	let source: string | undefined;
	for (const [id, known] of Object.entries(CLIENT_MESSAGES) as [
		ClientMessageId,
		(typeof CLIENT_MESSAGES)[ClientMessageId],
	][]) {
		const pasted = known.read(message);
		if (pasted === undefined) continue;
		if ('client' in known) source = 'namesClient' in known ? known.client : (source ?? known.client);
		for (const entry of entries.get(id) ?? []) {
			const candidate = candidateOf(entry.code, entry.text, pasted);
			if (candidate !== undefined) candidates.push(candidate);
		}
	}
	for (const client of clients) {
		for (const error of client.errors ?? []) {
			if (!error.pattern.test(message)) continue;
			source ??= error.client;
			for (const each of error.codes) {
				candidates.push({code: each, likelihood: error.likelihood ?? 'possible', why: error.meaning});
			}
		}
	}
	const seen = new Set<FindingCode>();
	const unique = candidates.filter((candidate) => !seen.has(candidate.code) && seen.add(candidate.code));
	const ordered = [
		...unique.filter((candidate) => candidate.likelihood === 'likely'),
		...unique.filter((candidate) => candidate.likelihood === 'possible'),
	];
	return {input, ...(source === undefined ? {} : {source}), explanations: ordered.map(explanationOf)};
}
