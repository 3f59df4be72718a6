/**
 * What a stray (non-JSON) line on a protocol stream looks like (`stray-output` `detail.kind`, rule R5),
 * and terminal escape sequences (`ansi-escape`, R5).
 */

/** `detail.kind` of a `stray-output` finding (docs/findings.md). */
export type StrayKind = 'launcher' | 'log' | 'progress' | 'banner' | 'text';

/** Inputs besides the line text that decide the kind. */
export interface StrayContext {
	/** The line holds a CR that is not the CR of its CR LF terminator (CR-overwritten text), or a backspace. */
	readonly hasLoneCr: boolean;
	/** A JSON frame was already seen on this stream (otherwise the line is a `banner` candidate). */
	readonly seenJson: boolean;
}

const LAUNCHER_PATTERNS: readonly RegExp[] = [
	// npm/yarn lifecycle echo: "> pkg@1.0.0 start", "> tsc && node dist/index.js", yarn "$ node index.js"
	/^> \S/,
	/^\$ \S/,
	// dotenv v17: "[dotenv@17.2.3] injecting env (0) from .env"
	/^\[dotenv@\d[^\]]*\]/,
	// version managers and virtual environments (nvm, pyenv, conda, venv wrappers, uv)
	/^Now using node v?\d/i,
	/^Found '[^']*\.nvmrc'/,
	/^(?:nvm|pyenv|rbenv|asdf|volta|fnm|conda|mamba|poetry)(?::| is | warning| error)/i,
	/^(?:Activating|Activated|Deactivating|Creating|Using) (?:the )?(?:a )?(?:python )?(?:virtual ?env(?:ironment)?|venv|conda)/i,
	/\b(?:no|not in a|without a) virtual ?env(?:ironment)?\b/i,
	/^(?:source |\. |conda )activate\b/,
	/^\((?:base|venv|\.venv|env|\.env)\)\s/,
	/^Using (?:CPython|Python|PyPy) \d/,
	/^(?:Resolved|Prepared|Installed|Uninstalled|Audited|Built|Downloaded) \d+ packages? in /,
	// npx / npm noise
	/^Need to install the following packages:/,
	/^Ok to proceed\? /,
	/^npm (?:WARN|warn|notice|ERR!|error)\b/,
	/^(?:yarn|pnpm) (?:run|exec|dlx) v?\d/,
	/^Done in \d/,
	// JVM launcher
	/^Picked up (?:JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS)/,
	// `dotnet run` (F36): its own progress before the app starts
	/^Using launch settings from /,
	/^Building\.\.\.$/,
	// Gradle `run`, `go run` module downloads, `cargo run`, `docker run` pulling the image
	/^> Task :/,
	/^go: (?:downloading|finding|extracting) \S/,
	/^(?:Compiling|Finished|Running|Downloaded|Downloading|Updating|Blocking) .*(?:\bv\d|`|crates|index|target\b)/,
	/^Unable to find image '[^']+' locally$/,
	/^[\w.-]+: Pulling from \S/,
];

/** Which launcher printed a `launcher` line, when one fix is specific to it (`stray-output` `detail.launcher`). */
export type LauncherName = 'dotnet-run' | 'npm' | 'dotenv' | 'gradle' | 'go-run' | 'cargo-run' | 'docker';

const LAUNCHER_NAMES: ReadonlyArray<readonly [LauncherName, RegExp]> = [
	['dotnet-run', /^(?:Using launch settings from |Building\.\.\.$)/],
	['gradle', /^> Task :/],
	['go-run', /^go: (?:downloading|finding|extracting) \S/],
	[
		'cargo-run',
		/^(?:Compiling|Finished|Running|Downloaded|Downloading|Updating|Blocking) .*(?:\bv\d|`|crates|index|target\b)/,
	],
	['docker', /^(?:Unable to find image '[^']+' locally$|[\w.-]+: Pulling from \S)/],
	['npm', /^(?:> \S|npm (?:WARN|warn|notice|ERR!|error)\b|Need to install the following packages:|Ok to proceed\? )/],
	['dotenv', /^\[dotenv@\d/],
];

/** The launcher that printed `text` (a line already classified `launcher`), or undefined. */
export function launcherOf(text: string): LauncherName | undefined {
	const plain = stripAnsiSequences(text).replace(/^[\s\uFEFF]+/, '');
	return LAUNCHER_NAMES.find(([, pattern]) => pattern.test(plain))?.[0];
}

/** The logging framework a `log` line comes from, when its format says so (`stray-output` `detail.logger`). */
export type LoggerName = 'jvm' | 'python' | 'dotnet' | 'rust' | 'node' | 'go' | 'php' | 'ruby';

const LOGGER_NAMES: ReadonlyArray<readonly [LoggerName, RegExp]> = [
	// Spring Boot / Logback console: "2026-01-01T10:00:00.123+00:00  INFO 4242 --- [app] [main] o.s.b.App : Starting"
	['jvm', /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}[.,]\d{3}\S*\s+(?:TRACE|DEBUG|INFO|WARN|ERROR)\s+\d+\s+---/],
	// Logback / Log4j default pattern: "10:00:00.123 [main] INFO  com.example.App - Starting"
	['jvm', /^(?:\d{4}-\d{2}-\d{2} )?\d{2}:\d{2}:\d{2}[.,]\d{3} \[[^\]]+\] (?:TRACE|DEBUG|INFO|WARN|ERROR)\b/],
	// Python logging: "2025-06-09 21:38:09,942 - name - INFO - …", basicConfig "INFO:root:…"
	['python', / - (?:DEBUG|INFO|WARNING|ERROR|CRITICAL) - |^(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):[\w.]*:/],
	// Microsoft.Extensions.Logging console: "info: Microsoft.Hosting.Lifetime[14]"
	['dotnet', /^(?:trce|dbug|info|warn|fail|crit): [\w.]+\[\d+\]/],
	// .NET TraceSource / Debug / simple formats: "Information: 0 : Loaded", Serilog "[10:00:00 INF] Loaded"
	['dotnet', /^(?:Information|Critical): |^\[\d{2}:\d{2}:\d{2} (?:VRB|DBG|INF|WRN|ERR|FTL)\] /],
	// Rust tracing-subscriber fmt: "2026-01-01T10:00:00.123456Z  INFO my_crate::server: listening"
	['rust', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+Z\s+(?:TRACE|DEBUG|INFO|WARN|ERROR) [\w:]+/],
	// Rust env_logger "[2026-01-01T10:00:00Z INFO  my_crate] …"; tracing without time " WARN my_crate: …"
	[
		'rust',
		/^\[\d{4}-\d{2}-\d{2}T[\d:.]+Z (?:TRACE|DEBUG|INFO|WARN|ERROR)\s+[\w:]+\]|^(?:TRACE|DEBUG|INFO|WARN|ERROR) [a-z_][\w]*(?:::\w+)*: /,
	],
	// Go: the standard `log` package "2009/11/10 23:00:00 msg"; slog/logrus text "time=… level=INFO msg=…"
	['go', /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)? |^time="?[\d-]+T\S+ level=\w+ msg=/],
	// PHP notices "PHP Warning:  …", "Deprecated: … on line 12"; WP-CLI "Success: …" / "Warning: …"
	[
		'php',
		/^PHP (?:Warning|Notice|Deprecated|Fatal error|Parse error):\s|^(?:Warning|Notice|Deprecated|Fatal error): .* on line \d+$|^Success: /,
	],
	// Ruby Logger: "I, [2026-01-01T10:00:00.123456 #1234]  INFO -- : Listening"
	['ruby', /^[DIWEFA], \[\d{4}-\d{2}-\d{2}T[\d:.]+ #\d+\]\s+(?:DEBUG|INFO|WARN|ERROR|FATAL|ANY) -- /],
	// SLF4J's own notices (it prints them when no binding is found)
	['jvm', /^SLF4J(?:\(\w\))?: /],
];

/** The logging framework that wrote `text` (a line already classified `log`), or undefined when unsure. */
export function loggerOf(text: string): LoggerName | undefined {
	const plain = stripAnsiSequences(text).replace(/^[\s\uFEFF]+/, '');
	return LOGGER_NAMES.find(([, pattern]) => pattern.test(plain))?.[0];
}

/**
 * Lines only a process's stderr carries, so that seeing one on stdout is evidence that stderr is merged
 * into stdout upstream (`stderr-merged`): a Python traceback header, the JVM's `Picked up …_OPTIONS`
 * notice, Node's `(node:<pid>) …Warning`. Returns what the line is, or undefined.
 */
export function stderrOnlyLine(text: string): 'python-traceback' | 'jvm-options-notice' | 'node-warning' | undefined {
	const plain = stripAnsiSequences(text);
	if (/^Traceback \(most recent call last\):/.test(plain)) return 'python-traceback';
	if (/^Picked up (?:JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS):/.test(plain)) return 'jvm-options-notice';
	if (/^\(node:\d+\) (?:\[[A-Z0-9_]+\] )?\w*Warning\b/.test(plain)) return 'node-warning';
	return undefined;
}

const LEVEL = 'trace|debug|dbug|verbose|info|notice|warn|warning|error|err|fail|fatal|crit|critical|severe';
const LOG_PATTERNS: readonly RegExp[] = [
	// timestamps at line start: "2025-06-09 21:38:09,942", "[2026-01-02T03:04:05Z]", "2026/01/02 03:04:05"
	/^\[?\d{4}[-/]\d{2}[-/]\d{2}[T ]\d{2}:\d{2}/,
	/^\[?\d{4}-\d{2}-\d{2}\]/,
	/^\[?\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\]?\s/,
	/^\[?(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d{1,2},? (?:\d{4} )?\d{2}:\d{2}:\d{2}/,
	// level prefixes: "[INFO] …", "info: …", "INFO:root:…", "WARN …", "ERROR - …"
	new RegExp(`^\\[(?:${LEVEL})\\s*\\]`, 'i'),
	new RegExp(`^(?:${LEVEL})(?:\\s*:|\\s+-\\s)`, 'i'),
	/^(?:TRACE|DEBUG|VERBOSE|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|CRITICAL)\b/,
	// level inside well-known formats: Python logging "… - INFO - …", logfmt "level=info"
	/ - (?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL) - /,
	/\blevel=(?:trace|debug|info|warn|warning|error|fatal|panic)\b/i,
	// runtime formats with no timestamp first: .NET "Information: …", PHP "PHP Warning: …" / WP-CLI
	// "Success: …", Ruby Logger "I, [… #pid]  INFO -- :", SLF4J notices, Rust tracing " WARN crate: …"
	/^(?:Trace|Debug|Information|Warning|Error|Critical): /,
	/^PHP (?:Warning|Notice|Deprecated|Fatal error|Parse error):\s|^(?:Notice|Deprecated|Fatal error|Parse error):\s|^Success: /,
	/^[DIWEFA], \[\d{4}-\d{2}-\d{2}T/,
	/^SLF4J(?:\(\w\))?: /,
	/^\[\d{2}:\d{2}:\d{2} (?:VRB|DBG|INF|WRN|ERR|FTL)\] /,
];

const PROGRESS_PATTERNS: readonly RegExp[] = [
	/\d{1,3}(?:\.\d+)?\s?%.*[█▉▊▋▌▍▎▏░▒▓#=]{3,}|[█▉▊▋▌▍▎▏░▒▓#=]{3,}.*\d{1,3}(?:\.\d+)?\s?%/,
	/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏|/\\-] \S/,
];

/** ESC sequences (CSI, OSC, DCS/SOS/PM/APC, nF, Fp/Fe/Fs) for stripping before classification. */
const ANSI_SEQUENCE =
	/\u001B(?:\[[0-?]*[ -/]*[@-~]?|\][^\u0007\u001B]*(?:\u0007|\u001B\\)?|[PX^_][^\u001B]*(?:\u001B\\)?|[ -/]*[0-~]?)/g;

/** Removes terminal escape sequences from decoded text (for classification only; never for display). */
export function stripAnsiSequences(text: string): string {
	return text.includes('\u001B') ? text.replace(ANSI_SEQUENCE, '') : text;
}

/**
 * Classifies a stray line (rule R5; docs/findings.md `stray-output`). Precedence, first match wins:
 * `launcher` (npm/yarn echo, dotenv, nvm/pyenv/conda/venv/uv greetings) > `log` (timestamp or level
 * prefix) > `progress` (CR-overwritten text, percentage bars, spinners) > `banner` (no JSON frame yet
 * on this stream) > `text`.
 *
 * @param text the decoded line without terminator (escape sequences are ignored).
 */
export function classifyStrayLine(text: string, context: StrayContext): StrayKind {
	const plain = stripAnsiSequences(text).replace(/^[\s\uFEFF]+/, '');
	if (LAUNCHER_PATTERNS.some((pattern) => pattern.test(plain))) {
		return 'launcher';
	}

	if (LOG_PATTERNS.some((pattern) => pattern.test(plain))) {
		return 'log';
	}

	if (context.hasLoneCr || PROGRESS_PATTERNS.some((pattern) => pattern.test(plain))) {
		return 'progress';
	}

	return context.seenJson ? 'text' : 'banner';
}

/** The kind of terminal escape sequence that starts with an ESC byte (`ansi-escape` `detail.sequence`). */
export type EscapeSequenceKind = 'CSI' | 'OSC' | 'DCS' | 'ESC';

/** One escape sequence as found in the bytes. */
export interface EscapeSequence {
	readonly kind: EscapeSequenceKind;
	/** Bytes from the ESC to the sequence's final byte (inclusive); to `end` when it is cut. */
	readonly length: number;
	/** False when the bytes end before the sequence's final byte. */
	readonly isComplete: boolean;
	/** DEC private mode (`ESC [ ?`), e.g. `ESC[?25l` hide cursor, `ESC[?1049h` alternate screen. */
	readonly isPrivate: boolean;
}

/**
 * Reads the escape sequence whose ESC (0x1B) is at `bytes[index]`, without reading past `end`.
 * CSI = `ESC [` params intermediates final; OSC = `ESC ]` … BEL or ST; DCS (also SOS/PM/APC) = `ESC P`
 * … ST; anything else is a two-byte (or nF) `ESC` sequence.
 */
export function readEscapeSequence(bytes: Uint8Array, index: number, end: number): EscapeSequence {
	const next = index + 1 < end ? bytes[index + 1]! : -1;
	if (next === 0x5b) {
		let i = index + 2;
		const isPrivate = i < end && bytes[i] === 0x3f;
		while (i < end && bytes[i]! >= 0x30 && bytes[i]! <= 0x3f) {
			i++;
		}

		while (i < end && bytes[i]! >= 0x20 && bytes[i]! <= 0x2f) {
			i++;
		}

		if (i < end && bytes[i]! >= 0x40 && bytes[i]! <= 0x7e) {
			return {kind: 'CSI', length: i + 1 - index, isComplete: true, isPrivate};
		}

		return {kind: 'CSI', length: i - index, isComplete: false, isPrivate};
	}

	if (next === 0x5d || next === 0x50 || next === 0x58 || next === 0x5e || next === 0x5f) {
		const kind: EscapeSequenceKind = next === 0x5d ? 'OSC' : 'DCS';
		for (let i = index + 2; i < end; i++) {
			const b = bytes[i]!;
			if (b === 0x07 && kind === 'OSC') {
				return {kind, length: i + 1 - index, isComplete: true, isPrivate: false};
			}

			if (b === 0x1b) {
				const isSt = i + 1 < end && bytes[i + 1] === 0x5c;
				return {kind, length: (isSt ? i + 2 : i) - index, isComplete: isSt, isPrivate: false};
			}
		}

		return {kind, length: end - index, isComplete: false, isPrivate: false};
	}

	let i = index + 1;
	while (i < end && bytes[i]! >= 0x20 && bytes[i]! <= 0x2f) {
		i++;
	}

	if (i < end && bytes[i]! >= 0x30 && bytes[i]! <= 0x7e) {
		return {kind: 'ESC', length: i + 1 - index, isComplete: true, isPrivate: false};
	}

	return {kind: 'ESC', length: i - index, isComplete: false, isPrivate: false};
}
