#!/usr/bin/env node
// Bundles the CLI that bin/mcp-wire.js runs into dist/bundle/ (run by `npm run build`, after tsc wrote dist/).
//
// Why (issue 12, a probe as fast as a bare client): Node 20's ESM loader reads, compiles and links every file
// on its own (~190 files on the probe path: ours, commander, zod); in one run that cost more than the exchange
// with the server. esbuild joins them into a few chunks. Code splitting keeps the lazy loading of the sources:
// each `import()` stays a separate chunk (a command, the probe's exchange, the TS SDK's zod schemas, the TUI),
// so `probe` still starts the server before zod loads, and `--version` loads none of the commands.
//
// Input is tsc's output (dist/), not src/: the bundle runs exactly the JavaScript the library build ships.
// Kept out (loaded from node_modules at run time, and only where needed): ink and react (the TUI), execa
// (Windows spawning, doctor). The rest (commander, chalk, jsonc-parser, the SDK's types.js with zod) is bundled.
//
// Layout: dist/bundle/ is two levels below the package root, as dist/cli/ is, so the paths the sources
// resolve from import.meta.url (package.json and bin/ from src/cli/version.ts) hold in both builds; the
// capture writer's worker is an entry of its own in the same directory as every chunk, so
// `new URL('capture-writer-worker.js', import.meta.url)` (src/tap/capture-writer.ts) finds it.
import {readFile} from 'node:fs/promises';
import {execFileSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {rmSync, writeFileSync} from 'node:fs';
import {dirname, join, relative} from 'node:path';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'bundle');
if (relative(root, outdir).split(/[\\/]/).length !== 2)
	throw new Error('dist/bundle must sit two levels below the package root (see src/cli/version.ts)');

/**
 * The TS SDK's types.js builds ~170 zod schemas when it loads; the probe's checks (src/core/jsonrpc/
 * sdk-schemas.ts) use about a third of them. esbuild cannot drop the others by itself: a call such as
 * `z.object({...})` might have side effects. This plugin wraps each top-level `const X = <expression>` of
 * that one file as `const X = /* @__PURE__ *\/ (() => (<expression>))()`, unchanged otherwise, so that the
 * schemas nothing uses are left out of the bundle and never built. The schemas that are kept are the
 * SDK's own code, built in the same order from the same definitions: their verdicts do not change
 * (test/e2e/bundle.test.ts compares the bundled checks with the SDK's on field cases and generated messages).
 * Statements of other shapes (the ErrorCode enum, functions, classes) are left as they are.
 */
const pureSdkSchemas = {
	name: 'pure-sdk-schemas',
	setup(pluginBuild) {
		pluginBuild.onLoad({filter: /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]types\.js$/}, async (args) => {
			const text = await readFile(args.path, 'utf8');
			const source = ts.createSourceFile(args.path, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
			let out = '';
			let last = 0;
			for (const statement of source.statements) {
				if (!ts.isVariableStatement(statement)) continue;
				for (const declaration of statement.declarationList.declarations) {
					const init = declaration.initializer;
					if (
						init === undefined ||
						!ts.isIdentifier(declaration.name) ||
						ts.isArrowFunction(init) ||
						ts.isFunctionExpression(init) ||
						ts.isLiteralExpression(init)
					)
						continue;
					out += `${text.slice(last, init.getStart(source))}/* @__PURE__ */ (() => (${text.slice(init.getStart(source), init.getEnd())}))()`;
					last = init.getEnd();
				}
			}
			if (last === 0)
				throw new Error(`${args.path}: no top-level schema found to mark (has the SDK's types.js changed shape?)`);
			return {contents: out + text.slice(last), loader: 'js'};
		});
	},
};

/**
 * cli.cjs runs only a plain `probe` (bin/mcp-wire.js uses it once the probe's server started early), so the
 * other commands and the TUI are left out of it: main.js's `import()` of each resolves to a module that
 * throws when it loads (unreachable in that script: `buildProgram` loads only the command its argv names).
 * About half of the CLI's code, read and compiled (or deserialized from the code cache) at every probe.
 */
const NOT_IN_PROBE_SCRIPT =
	/^\.\.?\/(commands\/(tap|view|attach|sessions|report|explain|doctor|wrap)|\.\.\/render\/tui\/[^/]+|render\/tui\/[^/]+)\.js$/;
const probeOnly = {
	name: 'probe-only',
	setup(pluginBuild) {
		pluginBuild.onResolve({filter: NOT_IN_PROBE_SCRIPT}, (args) => {
			if (!/[\\/]dist[\\/]cli[\\/](main|commands[\\/]probe)\.js$/.test(args.importer)) return undefined;
			return {path: args.path, namespace: 'not-in-probe-script'};
		});
		pluginBuild.onLoad({filter: /.*/, namespace: 'not-in-probe-script'}, (args) => ({
			contents: `throw new Error(${JSON.stringify(`${args.path} is not in dist/bundle/cli.cjs (the probe's script)`)});`,
			loader: 'js',
		}));
	},
};

rmSync(outdir, {recursive: true, force: true});
/** What both builds share: the same sources, packages and plugin. */
const common = {
	absWorkingDir: root,
	bundle: true,
	platform: 'node',
	target: 'node20',
	// The ESM builds of dual packages (jsonc-parser's UMD build requires its own files at run time).
	mainFields: ['module', 'main'],
	external: ['ink', 'react', 'react/*', 'execa'],
	sourcemap: 'linked',
	sourcesContent: false,
	legalComments: 'linked',
	logLevel: 'warning',
	plugins: [pureSdkSchemas],
};
await build({
	...common,
	// probe-command: the probe command under a fixed name, so that bin/mcp-wire.js can start loading it
	// together with the CLI entry (main.js's import() of it resolves to the same file).
	// sdk-schemas: the TS SDK's zod checks under a fixed name, for test/e2e/bundle.test.ts to compare with the
	// SDK's own (view, report and attach import the same chunk).
	entryPoints: {
		'mcp-wire': 'dist/cli/main.js',
		'probe-command': 'dist/cli/commands/probe.js',
		'capture-writer-worker': 'dist/tap/capture-writer-worker.js',
		'sdk-schemas': 'dist/core/jsonrpc/sdk-schemas.js',
	},
	outdir,
	splitting: true,
	format: 'esm',
	// commander is CommonJS: its require() of node's modules needs a require in an ES module. Made on first
	// use: the banner goes into every chunk, and a createRequire per chunk cost ~10 ms of the probe's start.
	banner: {
		js: "import {createRequire as __mcpWireCreateRequire} from 'node:module';\nlet __mcpWireRequire;\nconst require = (id) => (__mcpWireRequire ??= __mcpWireCreateRequire(import.meta.url))(id);",
	},
	entryNames: '[name]',
	chunkNames: '[name]-[hash]',
});

// probe-early.js: what bin/mcp-wire.js runs first to start a probe's server before the CLI loads
// (src/cli/probe-early.ts), with how it then runs cli.cjs (below) with V8's code cache (runCachedScript,
// src/cli/code-cache.ts). One file with no chunk to import: the ES module loader reads, compiles and links
// every file on its own, and the spawn waits for all of it (eight chunks took ~10 ms more than one on this
// machine; code-cache.js as a second file ~3 ms of CPU more than one). Its module
// state is another copy of the CLI's; what the copies share (the server started early, the live process
// groups) is kept on globalThis (probe-early.ts, probe/probe-start.ts).
// Node's own modules that these two files take by require(), not by import: an ES module import of a
// built-in builds its module facade, which reads every export, lazy getters included: `node:fs`'s load
// Node's file streams (`ReadStream`…, ~2 ms on this machine), `node:buffer`'s its `File`; and each facade
// is one more module for the loader to link. With require() they stay unloaded, as in the CommonJS cli.cjs. The banner's `require` is made from node:module, which
// code-cache.ts imports anyway.
const REQUIRED_BUILTINS = /^node:(fs|buffer|child_process|path|vm|url)$/;
const requireBuiltins = {
	name: 'require-builtins',
	setup(pluginBuild) {
		// The import becomes an ES module that requires the built-in (that require() is left to Node) and
		// exports its plain values by name, read once: not its lazy getters (reading them is what loads the
		// modules this avoids), and not a CommonJS wrapper (esbuild's __toESM would define a getter per export,
		// ~100 for node:fs, at each import). A name imported that is not exported here fails the build.
		pluginBuild.onResolve({filter: REQUIRED_BUILTINS}, (args) =>
			args.namespace === 'required-builtin'
				? {path: args.path, external: true}
				: {path: args.path, namespace: 'required-builtin'},
		);
		pluginBuild.onLoad({filter: /.*/, namespace: 'required-builtin'}, (args) => {
			// Asked of a fresh node: in this process some lazy exports were read already (they are then plain values).
			const script = `const d = Object.getOwnPropertyDescriptors(require(${JSON.stringify(args.path)})); console.log(JSON.stringify(Object.keys(d).filter((k) => 'value' in d[k])))`;
			const names = JSON.parse(execFileSync(process.execPath, ['-e', script], {encoding: 'utf8'})).filter(
				(name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default',
			);
			return {
				contents: `const builtin = require(${JSON.stringify(args.path)});\nexport default builtin;\nexport const {${names.join(', ')}} = builtin;\n`,
				loader: 'js',
			};
		});
	},
};
await build({
	...common,
	plugins: [pureSdkSchemas, requireBuiltins],
	banner: {
		js: "import {createRequire as __mcpWireCreateRequire} from 'node:module';\nconst require = __mcpWireCreateRequire(import.meta.url);",
	},
	stdin: {
		contents:
			"export * from './dist/cli/probe-early.js';\nexport {runCachedScript} from './dist/cli/code-cache.js';\nexport {fileURLToPath} from 'node:url';\n",
		resolveDir: root,
		sourcefile: 'probe-early-entry.js',
	},
	outfile: join(outdir, 'probe-early.js'),
	format: 'esm',
	minifyWhitespace: true,
	minifySyntax: true,
});

// cli.cjs: the same CLI (dist/cli/main.js) as one CommonJS script, for the code cache of a plain `probe`
// (src/cli/code-cache.ts; Node 20 caches no ES module's code). Each import() stays lazy (esbuild runs the
// module's code on first use). Not for the TUI: ink and React are ES modules only (bin/mcp-wire.js uses it
// only once the probe's server started early, which a TUI run never does). import.meta.url is the script's URL.
// Only the probe's code is in it (`probeOnly`), minified (whitespace and syntax; names kept for stack traces)
// and ASCII only: 0.57 MB instead of 1.37 MB, which halved the CPU of reading and deserializing it (~95 ms
// to ~47 ms per probe under load 8; test/e2e/bundle.test.ts checks its probes against the ES module build).
await build({
	...common,
	plugins: [pureSdkSchemas, probeOnly],
	minifyWhitespace: true,
	minifySyntax: true,
	charset: 'ascii',
	entryPoints: {cli: 'dist/cli/main.js'},
	outdir,
	outExtension: {'.js': '.cjs'},
	format: 'cjs',
	define: {'import.meta.url': '__mcpWireImportMetaUrl'},
	banner: {js: "const __mcpWireImportMetaUrl = require('node:url').pathToFileURL(__filename).href;"},
	entryNames: '[name]',
});
// sdk-schemas.cjs: the TS SDK's zod checks (dist/core/jsonrpc/sdk-schemas.js, with zod and the schemas they
// use) as one CommonJS script, for the probe. A probe answers "accepted" without zod (src/core/jsonrpc/
// sdk-fast.ts); only a value that check does not accept needs zod to word its issue, and it needs it at
// once, inside a synchronous check: src/probe/probe-start.ts then `require`s this file. cli.cjs holds no zod.
await build({
	...common,
	minifyWhitespace: true,
	minifySyntax: true,
	charset: 'ascii',
	entryPoints: {'sdk-schemas': 'dist/core/jsonrpc/sdk-schemas.js'},
	outdir,
	outExtension: {'.js': '.cjs'},
	format: 'cjs',
	entryNames: '[name]',
});

// Node reads a script with any non-ASCII character into a two-byte string: twice the memory, and on this
// machine ~20 ms more to read 1 MB. esbuild's `charset: 'ascii'` escapes strings, templates and
// identifiers, not regular expression literals (`/[█▉…]/`): those characters are escaped here, the same
// pattern (`\uXXXX` inside a regular expression means that character, with or without the u flag).
const cliScript = join(outdir, 'cli.cjs');
const cliText = await readFile(cliScript, 'utf8');
if (/[^\x00-\x7f]/.test(cliText)) {
	if (/\\[^\x00-\x7f]/.test(cliText))
		throw new Error(`${cliScript}: a backslash before a non-ASCII character: escaping it would change its meaning`);
	const escaped = cliText.replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
	writeFileSync(cliScript, escaped);
}
// V8 checks a code cache against its source's length only: another build of the same length, at the same
// path with the same mtime (installs that set every mtime to one date), would run the functions cached from
// this one. The code cache's key holds the script's first line (src/cli/code-cache.ts, firstLineOf), which
// ends here with a hash of the whole text: a comment on the banner's line, so no other line moves.
const built = await readFile(cliScript, 'latin1');
const firstEnd = built.indexOf('\n');
writeFileSync(
	cliScript,
	`${built.slice(0, firstEnd)} // build ${createHash('sha256').update(built).digest('hex').slice(0, 16)}${built.slice(firstEnd)}`,
	'latin1',
);
