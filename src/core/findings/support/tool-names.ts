/**
 * What the hosts and model APIs accept as a tool name (docs/findings.md#invalid-tool-name). MCP's own rule
 * is a SHOULD; the model APIs behind the hosts enforce theirs, so a name the spec allows can still fail
 * every prompt. Each rule quotes its source; the hosts' error texts are the ones users pasted.
 */

/** One documented limit on tool names: the characters and the length it allows, and who enforces it. */
export interface NameRule {
	/** Short id, used in `detail.rejectedBy`. */
	readonly id: 'mcp' | 'anthropic' | 'claude-desktop' | 'claude-code' | 'openai' | 'gemini';
	/** Who enforces it, in a few words. */
	readonly label: string;
	/** The characters allowed (the whole name must match `^[chars]+$`). */
	readonly chars: RegExp;
	/** Longest name allowed, in UTF-16 code units (all allowed characters are ASCII). */
	readonly maxLength: number;
	/** Characters the host adds in front of the name before it reaches the model API (Claude Code: `mcp__<server>__`). */
	readonly prefixLength: number;
	/** Where the rule is written down. */
	readonly source: string;
}

/**
 * The rules, MCP's first. MCP 2025-11-25 `server/tools.mdx` "Tool Names": "SHOULD be between 1 and 128
 * characters", "uppercase and lowercase ASCII letters (A-Z, a-z), digits (0-9), underscore (_), hyphen (-),
 * and dot (.)" (SEP-986 proposed 1–64 and also `/`; the shipped text dropped `/` and took 128).
 */
export const NAME_RULES: readonly NameRule[] = [
	{
		id: 'mcp',
		label: 'MCP 2025-11-25 (SEP-986)',
		chars: /^[A-Za-z0-9_.-]+$/,
		maxLength: 128,
		prefixLength: 0,
		source: 'modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names',
	},
	{
		id: 'anthropic',
		label: 'the Anthropic API',
		chars: /^[A-Za-z0-9_-]+$/,
		maxLength: 128,
		prefixLength: 0,
		source: "Anthropic tool use docs: `^[a-zA-Z0-9_-]{1,128}$` (quoted in IlyaGulya/gradle-mcp-server#2's 400)",
	},
	{
		id: 'claude-desktop',
		label: 'Claude Desktop',
		chars: /^[A-Za-z0-9_-]+$/,
		maxLength: 64,
		prefixLength: 0,
		source:
			"`tools.34.FrontendRemoteMcpToolDefinition.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'` (NetApp/netapp-dataops-toolkit#38)",
	},
	{
		id: 'claude-code',
		label: 'Claude Code (`mcp__<server>__<tool>`)',
		chars: /^[A-Za-z0-9_-]+$/,
		maxLength: 64,
		// `mcp__` + a server name of at least one character + `__`: the least any server adds.
		prefixLength: 8,
		source: '`tools.N.custom.name: String should have at most 64 characters` (anthropics/claude-code#2326, #2536)',
	},
	{
		id: 'openai',
		label: 'the OpenAI API (Codex)',
		chars: /^[A-Za-z0-9_-]+$/,
		maxLength: 64,
		prefixLength: 0,
		source:
			"openai-python `FunctionDefinition.name`: a-z, A-Z, 0-9, `_`, `-`, at most 64; Codex: `Invalid 'tools[48].name': string does not match pattern` (openai/codex#8174)",
	},
	{
		id: 'gemini',
		label: 'the Gemini API',
		chars: /^[A-Za-z_][A-Za-z0-9_.:-]*$/,
		maxLength: 64,
		prefixLength: 0,
		source:
			'Gemini `FunctionDeclaration.name`: starts with a letter or `_`; a-z, A-Z, 0-9, `_`, `.`, `:`, `-`; at most 64',
	},
];

/** What is wrong with one name, worst first. */
export interface NameProblem {
	/** `error`: outside MCP's own rule (every model API rejects it); `warning`: MCP allows it, some hosts reject it. */
	readonly severity: 'error' | 'warning';
	/** `empty`, `characters` (the characters at fault, in `chars`), `length`, `start` (Gemini: a first character other than a letter or `_`). */
	readonly reason: 'empty' | 'characters' | 'length' | 'start';
	/** The distinct characters no rule-abiding host takes, as written (for `characters`). */
	readonly chars: string;
	/** The ids of the rules the name breaks. */
	readonly rejectedBy: readonly NameRule['id'][];
}

/** Characters of `name` outside `allowed` (a one-character class test), distinct, in order of first use. */
function charsOutside(name: string, allowed: RegExp): string {
	const seen = new Set<string>();
	for (const char of name) if (!allowed.test(char)) seen.add(char);
	return [...seen].join('');
}

/**
 * Judge one tool name against {@link NAME_RULES}. Input: the `name` member as sent (a string). Output:
 * undefined when every rule accepts it, else the worst problem: `error` when MCP's own rule rejects it
 * (empty, over 128 characters, or a character outside `[A-Za-z0-9_.-]`: a space, `/`, `:`), `warning` when
 * MCP accepts it and a host or model API does not (a `.`, more than 64 characters, or too long once
 * Claude Code's prefix is added).
 */
export function judgeToolName(name: string): NameProblem | undefined {
	if (name.length === 0)
		return {severity: 'error', reason: 'empty', chars: '', rejectedBy: NAME_RULES.map((r) => r.id)};
	const rejectedBy = NAME_RULES.filter(
		(rule) => !rule.chars.test(name) || name.length + rule.prefixLength > rule.maxLength,
	).map((rule) => rule.id);
	if (rejectedBy.length === 0) return undefined;
	const mcp = NAME_RULES[0]!;
	const badForMcp = charsOutside(name, /[A-Za-z0-9_.-]/);
	const badForApis = charsOutside(name, /[A-Za-z0-9_-]/);
	const severity = badForMcp !== '' || name.length > mcp.maxLength ? 'error' : 'warning';
	const chars = badForMcp !== '' ? badForMcp : badForApis;
	const tooLong = NAME_RULES.some((rule) => name.length + rule.prefixLength > rule.maxLength);
	return {severity, reason: chars !== '' ? 'characters' : tooLong ? 'length' : 'start', chars, rejectedBy};
}
