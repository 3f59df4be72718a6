/**
 * What a failing server's stderr tells the doctor: the line worth showing in the FIX column
 * (the error, not npm's log-file pointer or a stack frame), the environment variables it says are
 * missing (`KeyError: 'WEATHER_API_KEY'`), and which variables of a shell are noise that never makes a
 * server work (`SHLVL`, `OLDPWD`, `SSL_*`). Pure: strings in, strings out.
 */

/** ANSI colour/cursor sequences, dropped before a line is judged or shown. */

const ANSI = /\u001B\[[0-9;?]*[ -/]*[@-~]/g;

/**
 * Lines that carry no cause: blank, log-file pointers (`npm error A complete log of this run can be
 * found in: …`, `npm ERR! A complete log …`, `… see the log file …`), JS stack frames (`    at f (…)`),
 * Python traceback frames and carets, npm's bare prefixes (`npm error`, `npm error 404`), and Node's
 * version footer after an uncaught error (`Node.js v20.20.0`).
 */
const NOISE: readonly RegExp[] = [
	/^\s*$/,
	/complete log of this run/i,
	/\b(?:see|check) (?:the )?(?:full )?(?:debug )?log(?: file)?\b.*\b(?:at|in)\b/i,
	/^\s+at\s+\S/,
	/^\s*Traceback \(most recent call last\):\s*$/,
	/^\s+File "[^"]*", line \d+/,
	/^\s*[~^]+\s*$/,
	/^\s*npm (?:error|ERR!|warn|WARN)(?:\s+\d{3})?\s*$/,
	/^\s*Node\.js v\d+\.\d+\.\d+\s*$/,
	/^\s*[{}[\]]\s*$/,
];

/** A named exception or a status the reader acts on: `KeyError: …`, `Error: Cannot find module`, `404 Not Found`, `ENOENT`. */
const HEADLINE: readonly RegExp[] = [
	/(?:^|[\s:.])[A-Z]\w*(?:Error|Exception)\b(?::|$)/,
	/^\s*(?:[\w.]+:\s*)?Error:/,
	/\b[1-5]\d\d Not Found\b/i,
	/\b(?:command not found|No such file or directory|Permission denied|Cannot find module|No module named)\b/i,
	/\bE(?:NOENT|ACCES|PERM|ADDRINUSE|CONNREFUSED|NOTFOUND)\b/,
];

/** Words of an error without a name: `failed`, `fatal`, `is not set`, `missing`, `denied`. */
const ERRORISH =
	/\b(?:error|errors|fail|failed|failure|fatal|cannot|can't|could not|couldn't|unable|denied|refused|invalid|missing|required|not set|must be set|not found|unauthorized|forbidden|panic|abort(?:ed)?)\b/i;

/** One line as it is shown: ANSI sequences dropped, runs of white space made one space, trimmed. */
export function cleanLine(line: string): string {
	return line.replace(ANSI, '').replace(/\s+/g, ' ').trim();
}

/** True when `line` carries no cause (see {@link NOISE}). */
export function isNoiseLine(line: string): boolean {
	const text = line.replace(ANSI, '');
	return NOISE.some((pattern) => pattern.test(text));
}

/** 3 for a headline (a named exception, `404 Not Found`, `ENOENT`…), 2 for an error-ish line, 1 for other text, 0 for noise. */
export function lineScore(line: string): number {
	if (isNoiseLine(line)) return 0;
	const text = line.replace(ANSI, '');
	if (HEADLINE.some((pattern) => pattern.test(text))) return 3;
	if (ERRORISH.test(text)) return 2;
	return 1;
}

/**
 * The most informative line of a stderr tail (oldest line first), cleaned ({@link cleanLine}): the
 * last line of the highest {@link lineScore}, so the exception line of a Python traceback, `Error:
 * Cannot find module …` of a Node crash (not the `Node.js v20.20.0` footer nor `    at …` frames), and
 * `npm error 404 Not Found - GET …` of a failed `npx` (not `npm error A complete log of this run can be
 * found in: …`). Undefined when every line is noise.
 */
export function informativeLine(lines: readonly string[]): string | undefined {
	let best: string | undefined;
	let bestScore = 0;
	for (const line of lines) {
		const score = lineScore(line);
		if (score > 0 && score >= bestScore) {
			best = line;
			bestScore = score;
		}
	}
	return best === undefined ? undefined : cleanLine(best);
}

/** An environment variable's name as programs spell it: upper case, digits and `_`, two characters or more. */
const VARIABLE = /^[A-Z][A-Z0-9_]+$/;

/** Upper-case words of log lines that look like names but are not variables. */
const NOT_VARIABLES: ReadonlySet<string> = new Set([
	'ERROR',
	'ERR',
	'WARN',
	'WARNING',
	'INFO',
	'DEBUG',
	'FATAL',
	'CRITICAL',
	'NOTE',
	'TODO',
	'API',
	'ENV',
	'KEY',
	'THE',
	'IS',
	'NOT',
	'SET',
	'JSON',
	'HTTP',
	'HTTPS',
	'URL',
	'MCP',
	'NPM',
]);

const NAME = String.raw`[A-Za-z_][A-Za-z0-9_]*`;
const Q = String.raw`['"\`]`;

/**
 * The shapes in which programs name a missing variable, each capturing the name (judged by
 * {@link VARIABLE} afterwards, so the words around it may be any case):
 * `KeyError: 'X'` (Python `os.environ['X']`), `os.environ['X']` / `os.environ.get("X")`,
 * `process.env.X` / `process.env['X']`, `Missing required environment variable X`, `environment
 * variable X is required`, `env var: X`, `X environment variable is not set`, `X is not set`, `X must be
 * set`, `X is required`, `X is missing`, `X not found in environment`, `please set X`.
 */
const SHAPES: readonly RegExp[] = [
	new RegExp(String.raw`\bKeyError: ${Q}(${NAME})${Q}`),
	new RegExp(String.raw`\benviron(?:\.get\(|\[)\s*${Q}(${NAME})${Q}`),
	new RegExp(
		String.raw`\bgetenv\(\s*${Q}(${NAME})${Q}\s*\)\s*(?:is|was|returned)\s+(?:None|null|undefined|empty)`,
		'i',
	),
	new RegExp(String.raw`\bprocess\.env\.(${NAME})\b`),
	new RegExp(String.raw`\bprocess\.env\[\s*${Q}(${NAME})${Q}\s*\]`),
	new RegExp(String.raw`\benv(?:ironment)?[ _-]?var(?:iable)?s?\b[^A-Za-z0-9_'"\`]*(?:${Q})?(${NAME})`, 'i'),
	new RegExp(String.raw`(?<![\w$])(?:${Q})?\$?(${NAME})(?:${Q})?\s+(?:env(?:ironment)?\s+)?var(?:iable)?\b`, 'i'),
	new RegExp(
		String.raw`(?<![\w$])(?:${Q})?\$?(${NAME})(?:${Q})?\s+(?:is\s+|was\s+)?(?:not set|unset|not defined in (?:the )?env(?:ironment)?|not found in (?:the )?env(?:ironment)?|missing|required|must be (?:set|provided|defined)|is empty|empty)\b`,
		'i',
	),
	new RegExp(
		String.raw`\b(?:please\s+)?(?:set|export|provide|define)\s+(?:the\s+)?(?:${Q})?\$?(${NAME})(?:${Q})?\s+(?:env(?:ironment)?\s+var(?:iable)?|in (?:the |your )?env(?:ironment)?)`,
		'i',
	),
];

/**
 * The environment variables a stderr tail (oldest line first) says are missing, in the order they
 * are first named, each once: every match of the {@link SHAPES} whose name reads as a variable (upper
 * case; `KeyError: 'id'` is a dictionary key, not a variable). A guess from text, never a verdict:
 * the caller reports it as the likely missing variable.
 */
export function variablesNamedIn(lines: readonly string[]): string[] {
	const found: string[] = [];
	for (const raw of lines) {
		const line = raw.replace(ANSI, '');
		for (const shape of SHAPES) {
			const global = new RegExp(shape.source, shape.flags.includes('g') ? shape.flags : `${shape.flags}g`);
			for (const match of line.matchAll(global)) {
				const name = match[1];
				if (name === undefined || !VARIABLE.test(name) || NOT_VARIABLES.has(name) || found.includes(name)) continue;
				found.push(name);
			}
		}
	}
	return found;
}

/** Names of interactive-shell state that never decides whether a server starts. */
const SHELL_NOISE: ReadonlySet<string> = new Set([
	'_',
	'SHLVL',
	'PWD',
	'OLDPWD',
	'TERM',
	'COLORTERM',
	'COLUMNS',
	'LINES',
	'PS1',
	'PS2',
	'PS4',
	'PROMPT_COMMAND',
	'HISTFILE',
	'HISTSIZE',
	'HISTFILESIZE',
	'HISTCONTROL',
	'LS_COLORS',
	'LSCOLORS',
	'CLICOLOR',
	'LESS',
	'LESSOPEN',
	'LESSCLOSE',
	'PAGER',
	'MANPATH',
	'EDITOR',
	'VISUAL',
	'MAIL',
	'MOTD_SHOWN',
	'DISPLAY',
	'WINDOWID',
	'XAUTHORITY',
	'DBUS_SESSION_BUS_ADDRESS',
	'GPG_TTY',
	'TMUX',
	'TMUX_PANE',
	'STY',
	'VTE_VERSION',
	'COMMAND_MODE',
	'SECURITYSESSIONID',
	'LaunchInstanceID',
	'Apple_PubSub_Socket_Render',
	'WT_SESSION',
	'WT_PROFILE_ID',
]);

/** Prefixes of shell and terminal noise (`SSL_*`, `SSH_*`, `TERM_*`, `XDG_SESSION_*`, `ITERM_*`…). */
const SHELL_NOISE_PREFIXES: readonly string[] = [
	'SSL_',
	'SSH_',
	'TERM_',
	'XDG_SESSION_',
	'ITERM_',
	'XPC_',
	'__CF',
	'KITTY_',
	'WEZTERM_',
	'ALACRITTY_',
	'LC_TERMINAL',
	'BASH_FUNC_',
	'GNOME_TERMINAL_',
	'KONSOLE_',
];

/**
 * True for a variable of interactive-shell or terminal state (`SHLVL`, `_`, `OLDPWD`, `PWD`, `TERM`,
 * `SSL_*`, `SSH_*`…): ranked last among the candidates of the environment-difference search.
 */
export function isShellNoise(name: string): boolean {
	return SHELL_NOISE.has(name) || SHELL_NOISE_PREFIXES.some((prefix) => name.startsWith(prefix));
}
