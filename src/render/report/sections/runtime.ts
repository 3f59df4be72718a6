/**
 * Reads the server's runtime (and package) version from what the session already holds: the command line
 * and the stderr lines. Nothing is run and nothing is guessed: a fact is reported only when a version
 * number is written out (`python3.12`, `…/node/v18.19.0/bin/node`, `npx -y pkg@1.2.3`, a Node crash's
 * `Node.js v18.19.0` line, a Python traceback's `/lib/python3.11/` path).
 */

/** One fact about the server's software, with where it was read. */
export interface RuntimeFact {
	/** What it is: `Node.js`, `Python`, `Bun`, `Deno`, `Java`, `.NET`, `package`, `image`. */
	readonly name: string;
	/** The version or, for a package/image, `name@version` / `name:tag`. */
	readonly version: string;
	readonly from: 'command' | 'stderr';
}

const STDERR_RULES: ReadonlyArray<readonly [string, RegExp]> = [
	['Node.js', /\bNode\.js (v\d+\.\d+\.\d+)/],
	['Node.js', /\bnode: '(v\d+\.\d+\.\d+)'/],
	['Bun', /\bBun (v\d+\.\d+\.\d+)/],
	['Deno', /\bdeno (\d+\.\d+\.\d+)/i],
	['Python', /\bPython (\d+\.\d+(?:\.\d+)?)\b/],
	['Python', /[/\\]python(\d\.\d+)[/\\]/],
	['Java', /\b(?:openjdk|java) version "([\d._]+)"/],
	['.NET', /\.NET (?:Core )?(\d+\.\d+(?:\.\d+)?)\b/],
];

function basename(path: string): string {
	return path.split(/[/\\]/).at(-1) ?? path;
}

/** Facts read from the command line: interpreter names and paths with versions, `--python X`, npx/uvx/docker package specs. */
export function runtimeFromCommand(command: readonly string[]): RuntimeFact[] {
	const facts: RuntimeFact[] = [];
	const add = (name: string, version: string): void => {
		if (!facts.some((fact) => fact.name === name)) {
			facts.push({name, version, from: 'command'});
		}
	};

	for (const [index, arg] of command.entries()) {
		const base = basename(arg);
		const python = /^python(\d\.\d+)(?:\.exe)?$/.exec(base);
		if (python !== null) {
			add('Python', python[1]!);
		}

		const nodeDir = /[/\\]node[/\\]v?(\d+\.\d+\.\d+)[/\\]/.exec(arg) ?? /[/\\]node-v(\d+\.\d+\.\d+)/.exec(arg);
		if (nodeDir !== null) {
			add('Node.js', `v${nodeDir[1]!}`);
		}

		const pyenv =
			/pyenv[/\\]versions[/\\](\d\.\d+(?:\.\d+)?)[/\\]/.exec(arg) ?? /[/\\]Python(\d)(\d{1,2})[/\\]/.exec(arg);
		if (pyenv !== null) {
			add('Python', pyenv[2] === undefined ? pyenv[1]! : `${pyenv[1]!}.${pyenv[2]}`);
		}

		const next = command[index + 1];
		if (
			(arg === '--python' || arg === '-p') &&
			next !== undefined &&
			/^\d\.\d+/.test(next) &&
			/uv|uvx|pipx/.test(command.join(' '))
		) {
			add('Python', next);
		}

		const equals = /^--python=(\d\.\d+(?:\.\d+)?)$/.exec(arg);
		if (equals !== null) {
			add('Python', equals[1]!);
		}
	}

	const program = basename(command[0] ?? '').replace(/\.(?:cmd|exe)$/, '');
	const rest = command.slice(1);
	if (program === 'npx' || program === 'bunx' || program === 'pnpx' || (program === 'pnpm' && rest[0] === 'dlx')) {
		const spec = rest.find((arg) => !arg.startsWith('-') && arg !== 'dlx' && /.@\d/.test(arg));
		if (spec !== undefined) {
			add('package', spec);
		}
	} else if (program === 'uvx' || program === 'pipx') {
		const spec = rest.find((arg) => /^[A-Za-z0-9_.[\]-]+(?:==|@)\d/.test(arg));
		if (spec !== undefined) {
			add('package', spec);
		}
	} else if (program === 'docker' || program === 'podman') {
		const image = rest.find((arg, index) => index > 0 && !arg.startsWith('-') && /^[a-z0-9./_-]+:[\w.-]+$/.test(arg));
		if (image !== undefined) {
			add('image', image);
		}
	}

	return facts;
}

/** Facts read from stderr lines: a Node crash footer, npm's engine warning, Python tracebacks, version banners. */
export function runtimeFromStderr(lines: readonly string[]): RuntimeFact[] {
	const facts: RuntimeFact[] = [];
	for (const [name, re] of STDERR_RULES) {
		if (facts.some((fact) => fact.name === name)) {
			continue;
		}

		for (const line of lines) {
			const match = re.exec(line);
			if (match !== null) {
				facts.push({name, version: match[1]!, from: 'stderr'});
				break;
			}
		}
	}

	return facts;
}

/** Command facts and stderr facts, stderr first for a runtime named by both (it is what actually ran). */
export function readRuntime(command: readonly string[], stderrLines: readonly string[]): RuntimeFact[] {
	const fromStderr = runtimeFromStderr(stderrLines);
	const fromCommand = runtimeFromCommand(command).filter(
		(fact) => !fromStderr.some((other) => other.name === fact.name),
	);
	return [...fromStderr, ...fromCommand];
}
