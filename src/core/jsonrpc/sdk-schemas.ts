import {
	CallToolResultSchema,
	CompleteResultSchema,
	EmptyResultSchema,
	GetPromptResultSchema,
	InitializeResultSchema,
	JSONRPCMessageSchema,
	ListPromptsResultSchema,
	ListResourcesResultSchema,
	ListResourceTemplatesResultSchema,
	ListToolsResultSchema,
	ReadResourceResultSchema,
	SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import {isPlainObject, own} from './classify.js';
import type {SdkVerdict} from './problem.js';
import {installSdkSchemas, type SchemaIssue, type SdkSchemas} from './sdk-checks.js';

// The only core module that loads the TS SDK's zod schemas (~100 modules, ~170 ms): imported eagerly by
// the library entry and by replay, by `import()` in the probe while the server starts (docs/performance.md#probe-start-up).

const ACCEPTED: SdkVerdict = Object.freeze({accepted: true as const});

/**
 * zod's parse option `jitless`: skip its eval-based fast path for objects. That path compiles a parser
 * (`new Function`) for each object schema the first time it parses; a probe checks a handful of messages,
 * so the compiling cost more than it saved (docs/performance.md#probe-start-up). A replay checks every frame of a capture (a million
 * at 1M frames), where the compiled parsers pay: jitless there made `report` and `view` ~3 % slower at 1M
 * frames (tsSdkResult 3× the CPU). So the first {@link JITLESS_PARSES} parses of this process are jitless,
 * and the rest use zod's default. The result is the same either way: zod's fast path is an optimisation of
 * the same parse, and test/core/jsonrpc/sdk-jitless.test.ts compares both on every field case and on
 * generated messages and results.
 */
const JITLESS = Object.freeze({jitless: true});
/** Parses made jitless before the checks use zod's compiled parsers (a probe makes far fewer). */
const JITLESS_PARSES = 256;
let parses = 0;

/** zod parse options for the next check: jitless for the first {@link JITLESS_PARSES}, then zod's default. */
function parseOptions(): typeof JITLESS | undefined {
	if (parses >= JITLESS_PARSES) return undefined;
	parses++;
	return JITLESS;
}

const MAX_ISSUE_LENGTH = 160;

/** The parts of a zod 4 issue this module reads (zod's own types are not imported into core). */
interface ZodIssueLike {
	readonly code: string;
	readonly path: readonly PropertyKey[];
	readonly message: string;
	readonly expected?: string;
	readonly errors?: readonly (readonly ZodIssueLike[])[];
}

/** Index of the `JSONRPCMessageSchema` union branch the message was meant for: request, notification, result, error. */
function intendedBranch(message: unknown): number {
	if (!isPlainObject(message)) return -1;
	if (own(message, 'error') !== undefined) return 3;
	if (own(message, 'result') !== undefined) return 2;
	if (own(message, 'method') !== undefined) return own(message, 'id') !== undefined ? 0 : 1;
	return -1;
}

function withPath(path: readonly PropertyKey[], text: string): string {
	return path.length === 0 ? text : `${path.map(String).join('.')}: ${text}`;
}

/**
 * One short line from zod issues: the first issue, its path and message. A union issue is opened: at the
 * top level the branch the message was meant for, deeper the branch with the fewest issues; a union
 * whose branches all fail on the type alone becomes "expected string | number, received null".
 */
function describeIssues(issues: readonly ZodIssueLike[], preferred: number, basePath: readonly PropertyKey[]): string {
	const first = issues[0];
	if (first === undefined) return 'rejected';
	const path = [...basePath, ...first.path];
	const branches = first.errors;
	if (first.code === 'invalid_union' && branches !== undefined && branches.length > 0) {
		const typeOnly = branches.every(
			(branch) => branch.length === 1 && branch[0]?.code === 'invalid_type' && branch[0].path.length === 0,
		);
		if (typeOnly) {
			const expected = [...new Set(branches.map((branch) => branch[0]?.expected ?? '?'))].join(' | ');
			const received = /received (\S+)/.exec(branches[0]?.[0]?.message ?? '')?.[1];
			return withPath(path, `expected ${expected}${received ? `, received ${received}` : ''}`);
		}
		let pick = preferred >= 0 ? branches[preferred] : undefined;
		if (pick === undefined) {
			for (const branch of branches) if (pick === undefined || branch.length < pick.length) pick = branch;
		}
		return describeIssues(pick ?? [], -1, path);
	}
	return withPath(path, first.message);
}

function shorten(text: string): string {
	return text.length <= MAX_ISSUE_LENGTH ? text : `${text.slice(0, MAX_ISSUE_LENGTH - 1)}…`;
}

/**
 * What a TS SDK v1 client (Claude Desktop, Claude Code, MCP Inspector; also v2, same schemas) does with
 * one parsed line: `JSONRPCMessageSchema.safeParse` from `@modelcontextprotocol/sdk/types.js` 1.32.2 (C1).
 * Accepted, or dropped with `onerror` and the short reason `issue` (`path: message`, ≤160 chars, e.g.
 * `id: expected string | number, received null`). Slower than {@link classifyMessage} (zod); call it on
 * frames that already have problems or on request. Never throws.
 */
export function tsSdkVerdict(message: unknown): SdkVerdict {
	const parsed = JSONRPCMessageSchema.safeParse(message, parseOptions());
	if (parsed.success) return ACCEPTED;
	const issues = parsed.error.issues as unknown as readonly ZodIssueLike[];
	return {accepted: false, issue: shorten(describeIssues(issues, intendedBranch(message), []))};
}

/** The TS SDK's `InitializeResultSchema` (1.32.2): undefined when accepted, else its first issue. Never throws. */
export function tsSdkInitializeResult(result: unknown): {readonly path: string; readonly message: string} | undefined {
	const parsed = InitializeResultSchema.safeParse(result, parseOptions());
	if (parsed.success) return undefined;
	const first = parsed.error.issues[0];
	return {path: first ? first.path.map(String).join('.') : '', message: first ? first.message : 'rejected'};
}

/**
 * The result schema the TS SDK v1 `Client` (1.32.2, `dist/esm/client/index.js`) passes to `request()` for
 * each method it sends: `listTools` → `ListToolsResultSchema`, `ping` → `EmptyResultSchema` (strict), ….
 * `Protocol.request` runs `safeParse(resultSchema, response.result)` and rejects the call with the ZodError.
 */
const RESULT_SCHEMAS: Readonly<
	Record<
		string,
		{
			safeParse(
				value: unknown,
				params?: {readonly jitless?: boolean},
			): {success: boolean; error?: {issues: readonly {path: readonly PropertyKey[]; message: string}[]}};
		}
	>
> = {
	ping: EmptyResultSchema,
	'tools/list': ListToolsResultSchema,
	'tools/call': CallToolResultSchema,
	'prompts/list': ListPromptsResultSchema,
	'prompts/get': GetPromptResultSchema,
	'resources/list': ListResourcesResultSchema,
	'resources/templates/list': ListResourceTemplatesResultSchema,
	'resources/read': ReadResourceResultSchema,
	'resources/subscribe': EmptyResultSchema,
	'resources/unsubscribe': EmptyResultSchema,
	'logging/setLevel': EmptyResultSchema,
	'completion/complete': CompleteResultSchema,
};

/** How many issues of one result are kept (the first is the one a user reads). */
const MAX_RESULT_ISSUES = 5;

/**
 * A result checked as the TS SDK v1 client checks it (see `SdkSchemas.result`): the method's result schema
 * from {@link RESULT_SCHEMAS}, for the revisions the SDK supports (`SUPPORTED_PROTOCOL_VERSIONS`: 2024-10-07
 * to 2025-11-25; the schemas are one union of those revisions). Other methods, an unknown or modern
 * (2026-07-28) revision, or no negotiated revision: not checked (undefined). The issues are zod's top-level
 * ones, as the SDK client's ZodError lists them (a union is not opened: its message is zod's). Never throws.
 */
export function tsSdkResult(
	method: string,
	protocolVersion: string | undefined,
	result: unknown,
): readonly SchemaIssue[] | undefined {
	const schema = RESULT_SCHEMAS[method];
	if (schema === undefined || protocolVersion === undefined || !SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion))
		return undefined;
	if (method === 'tools/call' && isPlainTextCallResult(result)) return undefined;
	const parsed = schema.safeParse(result, parseOptions());
	if (parsed.success || !parsed.error) return undefined;
	return parsed.error.issues
		.slice(0, MAX_RESULT_ISSUES)
		.map((issue) => ({path: issue.path.map(String).join('.'), message: shorten(issue.message)}));
}

/**
 * True when `result` is a `CallToolResult` of the most common shape, which `CallToolResultSchema` accepts:
 * an object with only `content` (an array of `{type: 'text', text: string}` items with no other key) and
 * an optional boolean `isError`. False for anything else, valid or not, which zod then checks. The replay
 * checks every result (docs/performance.md#replay): zod's parse of this shape was most of `invalid-result`'s
 * time. test/core/jsonrpc/sdk-fast-path.test.ts holds it to zod: it never says true where zod rejects.
 */
export function isPlainTextCallResult(result: unknown): boolean {
	if (!isPlainObject(result)) return false;
	let hasContent = false;
	for (const key in result) {
		if (key === 'content') hasContent = true;
		else if (key !== 'isError') return false;
	}
	const isError = result['isError'];
	if (!hasContent || (isError !== undefined && typeof isError !== 'boolean')) return false;
	const content = result['content'];
	if (!Array.isArray(content)) return false;
	for (const item of content as unknown[]) {
		if (!isPlainObject(item) || item['type'] !== 'text' || typeof item['text'] !== 'string') return false;
		for (const key in item) if (key !== 'type' && key !== 'text') return false;
	}
	return true;
}

/** The real TS SDK checks, to inject into a Session (`SessionOptions.schemas`). */
export const SDK_SCHEMAS: SdkSchemas = Object.freeze({
	message: tsSdkVerdict,
	initializeResult: tsSdkInitializeResult,
	result: tsSdkResult,
	loaded: true,
});

installSdkSchemas(SDK_SCHEMAS);
