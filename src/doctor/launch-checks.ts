/**
 * What a server's command line says before anything runs: an interpreter started without a
 * program (`"command": "node"` and no script reads its program from stdin, so it takes the client's
 * JSON-RPC messages as source code and never answers), and a script or command given as a relative
 * path (resolved against a working directory that differs between clients). Pure string work.
 */
import path from 'node:path';

/** The interpreters whose command line is read here. */
export type Interpreter = 'node' | 'python' | 'shell';

/** `node`, `python3`, `bash`… from a command (a bare name or a path; `.exe` and case ignored on Windows). */
export function interpreterOf(command: string, platform: NodeJS.Platform): Interpreter | undefined {
	const p = platform === 'win32' ? path.win32 : path.posix;
	let base = p.basename(command);
	if (platform === 'win32') base = base.toLowerCase().replace(/\.exe$/, '');
	if (base === 'node' || base === 'nodejs') return 'node';
	if (/^python(?:\d+(?:\.\d+)*)?$/.test(base) || base === 'py') return 'python';
	if (/^(?:sh|bash|zsh|dash|ksh|ash|mksh)$/.test(base)) return 'shell';
	return undefined;
}

/** Options after which the interpreter has its program (inline code, a module, or nothing to run: `--version`). */
const PROGRAM_OPTIONS: Readonly<Record<Interpreter, readonly string[]>> = {
	node: [
		'-e',
		'--eval',
		'-p',
		'--print',
		'-pe',
		'-v',
		'--version',
		'-h',
		'--help',
		'--test',
		'--run',
		'-c',
		'--check',
		'--v8-options',
		'--completion-bash',
	],
	python: ['-c', '-m', '-V', '--version', '-h', '--help', '-?'],
	shell: ['-c', '--version', '--help'],
};

/** Options whose value is the next argument (when not written `--name=value`). */
const VALUE_OPTIONS: Readonly<Record<Interpreter, readonly string[]>> = {
	node: [
		'-r',
		'--require',
		'--import',
		'--loader',
		'--experimental-loader',
		'-C',
		'--conditions',
		'--input-type',
		'--title',
		'--env-file',
		'--env-file-if-exists',
		'--inspect-port',
		'--debug-port',
		'--redirect-warnings',
		'--diagnostic-dir',
		'--report-dir',
		'--icu-data-dir',
		'--openssl-config',
		'--unhandled-rejections',
		'--watch-path',
		'--stack-trace-limit',
		'--disable-warning',
	],
	python: ['-W', '-X', '--check-hash-based-pycs'],
	shell: ['-o', '+o', '-O', '+O', '--rcfile', '--init-file'],
};

/**
 * How an interpreter's command line gives it a program:
 * - `script`: the first argument that is neither an option nor an option's value, and its index in
 *   `command` (`node build/index.js` → `build/index.js`);
 * - `readsStdin`: no script and no option that gives a program (`node`, `node --inspect`, `python3
 *   -u`, `bash`, or an explicit `-` / shell `-s`): the interpreter reads its program from stdin.
 */
export interface ProgramArgument {
	readonly interpreter: Interpreter;
	readonly script?: {readonly arg: string; readonly index: number};
	readonly readsStdin: boolean;
}

/**
 * Reads `[command, ...args]` as {@link interpreterOf}'s interpreter would (see
 * {@link ProgramArgument}); undefined for any other command. Conservative: an option it does not know
 * is taken as a flag, so its value would count as the script and nothing is said about stdin.
 */
export function programArgument(command: readonly string[], platform: NodeJS.Platform): ProgramArgument | undefined {
	const interpreter = interpreterOf(command[0] ?? '', platform);
	if (interpreter === undefined) return undefined;
	const programs = PROGRAM_OPTIONS[interpreter];
	const values = VALUE_OPTIONS[interpreter];
	for (let index = 1; index < command.length; index++) {
		const arg = command[index]!;
		if (arg === '-' || (interpreter === 'shell' && arg === '-s')) return {interpreter, readsStdin: true};
		if (arg === '--') {
			const next = command[index + 1];
			return next === undefined
				? {interpreter, readsStdin: true}
				: {interpreter, script: {arg: next, index: index + 1}, readsStdin: false};
		}
		if (!arg.startsWith('-') && !(interpreter === 'shell' && arg.startsWith('+')))
			return {interpreter, script: {arg, index}, readsStdin: false};
		const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
		if (programs.includes(name)) return {interpreter, readsStdin: false};
		if (interpreter === 'python' && /^-[WX]./.test(arg)) continue;
		// Short clusters: `python3 -uc CODE`, `python3 -um mod`, `bash -ec CODE`.
		if (interpreter !== 'node' && /^-[A-Za-z]{2,}$/.test(arg)) {
			if (/[cm]/.test(arg.slice(1)) && (interpreter === 'python' || arg.includes('c')))
				return {interpreter, readsStdin: false};
			if (interpreter === 'python' && /[WX]$/.test(arg)) index++;
			continue;
		}
		if (!arg.includes('=') && values.includes(arg)) index++;
	}
	return {interpreter, readsStdin: true};
}

const WHAT: Readonly<Record<Interpreter, {readonly as: string; readonly example: string}>> = {
	node: {
		as: "a program from stdin, so it would take the client's JSON-RPC messages as JavaScript",
		example: '"args": ["/path/to/server.js"]',
	},
	python: {
		as: "a program from stdin, so it would take the client's JSON-RPC messages as Python",
		example: '"args": ["/path/to/server.py"] or ["-m", "package"]',
	},
	shell: {
		as: "commands from stdin, so it would run the client's JSON-RPC messages as shell commands",
		example: '"args": ["/path/to/script.sh"] or ["-c", "..."]',
	},
};

/**
 * The one-line problem of an interpreter started without a program, e.g. `"command": "node" has no
 * script in "args": node reads a program from stdin, so it would take the client's JSON-RPC messages
 * as JavaScript and no client gets an answer; put the server's script in "args" ("args":
 * ["/path/to/server.js"])`.
 */
export function readsStdinMessage(program: ProgramArgument, command: string): string {
	const what = WHAT[program.interpreter];
	return `"command": ${JSON.stringify(command)} has no script in "args": ${command} then reads ${what.as} and no client gets an answer; put the server's program in "args" (${what.example})`;
}

/** True when `file` is not an absolute path on `platform`. */
export function isRelativePath(file: string, platform: NodeJS.Platform): boolean {
	return !(platform === 'win32' ? path.win32 : path.posix).isAbsolute(file);
}

/**
 * A relative path the launch depends on: the `command` itself when it names a file by a relative
 * path (`./start.sh`, `build/server`), or an interpreter's script (`node build/index.js`, `python3
 * server.py`). `resolved` is the path against the working directory doctor used.
 */
export interface RelativePath {
	readonly arg: string;
	readonly field: 'command' | 'args';
	readonly resolved: string;
}

/** The {@link RelativePath} of `[command, ...args]` launched in `cwd`, if any (the command first). */
export function relativePathOf(
	command: readonly string[],
	cwd: string,
	platform: NodeJS.Platform,
): RelativePath | undefined {
	const p = platform === 'win32' ? path.win32 : path.posix;
	const program = command[0] ?? '';
	const hasSeparator = platform === 'win32' ? /[/\\]/.test(program) : program.includes('/');
	if (hasSeparator && isRelativePath(program, platform))
		return {arg: program, field: 'command', resolved: p.resolve(cwd, program)};
	const script = programArgument(command, platform)?.script;
	if (script === undefined || !isRelativePath(script.arg, platform) || script.arg.includes('${')) return undefined;
	return {arg: script.arg, field: 'args', resolved: p.resolve(cwd, script.arg)};
}

/**
 * The note of a launch that depends on a relative path, e.g. `"build/index.js" in "args"
 * is relative: doctor resolved it against /home/me (→ /home/me/build/index.js, no such file), the
 * folder Claude Desktop is assumed to start servers in; clients start servers in different folders
 * (Claude Desktop on macOS in /, VS Code in your home folder, Claude Code in the folder you start it
 * from): put the absolute path in "args"`. `client` is the client's label.
 */
export function relativePathNote(
	relative: RelativePath,
	exists: boolean,
	cwd: string,
	cwdAssumed: boolean,
	client: string,
): string {
	return `${JSON.stringify(relative.arg)} in "${relative.field}" is relative: doctor resolved it against ${cwd} (→ ${relative.resolved}, ${exists ? 'found' : 'no such file'}), the folder ${client} ${cwdAssumed ? 'is assumed to start' : 'starts'} it in; clients start servers in different folders (Claude Desktop on macOS in /, VS Code in your home folder, Claude Code in the folder you start it from): put the absolute path in "${relative.field}"`;
}

/** The FIX of a failing server whose relative path is not there, e.g. `"build/index.js" is relative to <cwd> …`. */
export function relativePathFix(relative: RelativePath, cwd: string, client: string): string {
	return `${JSON.stringify(relative.arg)} is relative to the folder the client starts the server in, and there is no ${relative.resolved} (doctor used ${cwd} for ${client}; clients differ): put the absolute path in "${relative.field}"`;
}
