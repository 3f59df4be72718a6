/**
 * The server's runtime, inferred from its command line or from the text it put on stdout, so that a fix is
 * given in the server's own language first (docs/findings.md#stray-output). An inference, always said as
 * one: `from` names what it was read from.
 */

/** The runtimes a fix is written for. */
export type Runtime = 'python' | 'node' | 'jvm' | 'dotnet' | 'go' | 'rust' | 'php' | 'ruby';

/** A runtime and what it was inferred from, in words (`the command \`uvx\``, `the log format`). */
export interface RuntimeGuess {
	readonly runtime: Runtime;
	readonly from: string;
}

/** Human names, as the fixes say them. */
export const RUNTIME_LABEL: Readonly<Record<Runtime, string>> = {
	python: 'Python',
	node: 'Node.js',
	jvm: 'JVM',
	dotnet: '.NET',
	go: 'Go',
	rust: 'Rust',
	php: 'PHP',
	ruby: 'Ruby',
};

/** Command words (base names) that name a runtime or its launcher. `go` and `cargo` only with `run`. */
const WORDS: ReadonlyArray<readonly [Runtime, RegExp]> = [
	['python', /^(?:python[\d.]*w?|pythonw|py|uv|uvx|pipx|poetry|hatch|pdm|conda)(?:\.exe)?$|\.pyz?$/],
	['node', /^(?:node|nodejs|npx|npm|pnpm|pnpx|yarn|tsx|ts-node|bun|bunx|deno)(?:\.exe|\.cmd)?$|\.[cm]?[jt]s$/],
	['jvm', /^(?:java|javaw|kotlin|jbang|gradle|gradlew|mvn|mvnw|sbt|clojure|lein)(?:\.exe|\.bat|\.cmd)?$|\.jar$/],
	['dotnet', /^(?:dotnet|dnx)(?:\.exe)?$|\.(?:dll|csproj|fsproj)$/],
	['php', /^(?:php[\d.]*|wp|composer)(?:\.exe|\.bat|\.phar)?$|\.php$/],
	['ruby', /^(?:ruby|bundle|bundler|rails|rake)(?:\.exe|\.bat)?$|\.rb$/],
];

/**
 * Infer the runtime from a command line. Input: the argv (a `sh -c` script is split into words; flags and
 * `NAME=value` words are skipped; wrappers such as `env`, `sudo`, `docker run`, `mcp-wire tap --` are read past).
 * Output: the first runtime a word names (`uvx` → Python, `java -jar` → JVM, `dnx` → .NET, `go run` → Go,
 * `cargo run` → Rust, `php` → PHP, `ruby` → Ruby), or undefined (a bare binary, a container image).
 */
export function runtimeOfCommand(command: readonly string[]): RuntimeGuess | undefined {
	// A server wrapped by `mcp-wire wrap` runs as `node …/mcp-wire.js tap --name N -- python3 server.py`: the
	// runtime is the wrapped server's, not the tap's Node.
	const tap = command.findIndex(
		(word, i) => /^mcp-wire(?:\.js|\.cmd)?$/i.test(baseName(word)) && command[i + 1] === 'tap',
	);
	const server = tap < 0 ? -1 : command.indexOf('--', tap);
	if (server >= 0) return runtimeOfCommand(command.slice(server + 1));
	const words = command.flatMap((word) => (/\s/.test(word) ? word.split(/\s+/) : [word])).slice(0, 12);
	for (let i = 0; i < words.length; i++) {
		const word = words[i]!;
		const base = baseName(word).toLowerCase();
		if (base === '' || /^-/.test(base) || /^\w+=/.test(word)) continue;
		if ((base === 'go' || base === 'go.exe') && words[i + 1] === 'run')
			return {runtime: 'go', from: 'the command `go run`'};
		if ((base === 'cargo' || base === 'cargo.exe') && words[i + 1] === 'run')
			return {runtime: 'rust', from: 'the command `cargo run`'};
		// An install location that names its toolchain: `dotnet tool install` and `cargo install` targets.
		if (/[\\/]\.dotnet[\\/]tools[\\/]/i.test(word))
			return {runtime: 'dotnet', from: "the command's path (`.dotnet/tools`)"};
		if (/[\\/]\.cargo[\\/]bin[\\/]/.test(word)) return {runtime: 'rust', from: "the command's path (`.cargo/bin`)"};
		const found = WORDS.find(([, pattern]) => pattern.test(base));
		// Wrappers (`env`, `sh -c`, `docker run …`) name no runtime: the words after them are read on.
		if (found !== undefined)
			return {
				runtime: found[0],
				from: `the command \`${base === 'java' && words[i + 1] === '-jar' ? 'java -jar' : base}\``,
			};
	}
	return undefined;
}

/** The last part of a path, either separator (a Windows config's command runs here too). */
function baseName(word: string): string {
	return word.split(/[\\/]/).pop() ?? '';
}

/** How to move a logger's console output to stderr, per runtime (F35, F43, F11). */
export const LOG_FIX: Readonly<Record<Runtime, string>> = {
	jvm: 'point the console appender at stderr: Logback `<appender class="ch.qos.logback.core.ConsoleAppender"><target>System.err</target>`, Log4j2 `<Console name="err" target="SYSTEM_ERR">`; with Spring Boot, also `spring.main.banner-mode=off`',
	python:
		'point the logging handler at stderr: `logging.basicConfig(stream=sys.stderr)` or `logging.StreamHandler(sys.stderr)` (a `StreamHandler(sys.stdout)` writes onto the protocol stream)',
	dotnet:
		'send the console logger to stderr: `builder.Logging.AddConsole(o => o.LogToStandardErrorThreshold = LogLevel.Trace)`',
	rust: 'send `tracing` output to stderr: `tracing_subscriber::fmt().with_writer(std::io::stderr).init()` (the default writer is stdout); env_logger: `Builder::from_default_env().target(Target::Stderr)`',
	node: 'point the logger at stderr: `console.error`, pino `pino(pino.destination(2))`, winston `new transports.Console({stderrLevels: [...all levels]})`',
	go: 'send the logger to stderr: `log.SetOutput(os.Stderr)`, slog `slog.New(slog.NewTextHandler(os.Stderr, nil))`, logrus `logrus.SetOutput(os.Stderr)`',
	php: 'write diagnostics to stderr: `fwrite(STDERR, …)` or `error_log(…)` with `display_errors=stderr`; in WP-CLI, `WP_CLI::debug()` / `WP_CLI::warning()` instead of `WP_CLI::log()` / `success()`',
	ruby: 'log to stderr: `Logger.new($stderr)`, and `$stderr.puts` for your own text',
};

/** How to print start-up or debug text to stderr instead of stdout, per runtime (F01, F48). */
export const PRINT_FIX: Readonly<Record<Runtime, string>> = {
	python: 'print to stderr: `print(..., file=sys.stderr)`',
	node: 'print to stderr: `console.error(...)` (not `console.log`)',
	jvm: 'print to stderr: `System.err.println(...)` (not `System.out`)',
	dotnet: 'write to stderr: `Console.Error.WriteLine(...)` (not `Console.WriteLine`)',
	go: 'print to stderr: `fmt.Fprintln(os.Stderr, ...)` (not `fmt.Println`)',
	rust: 'print to stderr: `eprintln!(...)` (not `println!`)',
	php: 'write to stderr: `fwrite(STDERR, ...)` (not `echo`)',
	ruby: 'print to stderr: `$stderr.puts(...)` / `warn(...)` (not `puts`)',
};

/** `(runtime: .NET, inferred from the command \`dnx\`)`: how a fix says where its language came from. */
export function inferredFrom(guess: RuntimeGuess): string {
	return `(runtime: ${RUNTIME_LABEL[guess.runtime]}, inferred from ${guess.from})`;
}
