#!/usr/bin/env node
// Joins tsc's output (dist/) into a few ES module chunks in dist/bundle/, which bin/mcp-wire.js runs
// (`npm run build`: tsc, then this). Why: Node 20's ES module loader reads, compiles and links each of the
// probe's ~190 files (ours, commander, zod) on its own, which cost more CPU than the probe's exchange with a
// fast server (docs/performance.md#probe-start-up). Code splitting keeps every `import()` lazy: `probe`
// spawns its server before zod and the renderers load, and `--version` loads no command.
//
// Left out (loaded from node_modules when needed): ink and react (the TUI). execa is in (the tap's
// spawn, Windows spawning, doctor): from node_modules it is ~100 files, read at once at the tap's start, and
// a tap with a low `ulimit -n` ran out of descriptors on them (docs/cli.md#too-few-file-descriptors). dist/bundle/ sits two levels below the package root, as dist/cli/ does, so the paths the
// sources resolve from import.meta.url (package.json, src/cli/version.ts) hold in both builds; the capture
// writer's worker is an entry of its own beside the chunks (src/tap/capture-writer.ts resolves it there).
import {rmSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'bundle');
rmSync(outdir, {recursive: true, force: true});
await build({
	absWorkingDir: root,
	entryPoints: {
		'mcp-wire': 'dist/cli/main.js',
		'capture-writer-worker': 'dist/tap/capture-writer-worker.js',
		// The tap with too few file descriptors for the CLI's modules: one file, Node's modules only.
		'tap-direct': 'dist/tap/direct.js',
	},
	outdir,
	entryNames: '[name]',
	chunkNames: '[name]-[hash]',
	bundle: true,
	splitting: true,
	format: 'esm',
	platform: 'node',
	target: 'node20',
	// The ES module builds of dual packages (jsonc-parser's UMD build requires its own files at run time).
	mainFields: ['module', 'main'],
	external: ['ink', 'react', 'react/*'],
	// commander is CommonJS: its require() of Node's modules needs a require inside an ES module.
	banner: {
		js: "import {createRequire as __mcpWireCreateRequire} from 'node:module';\nconst require = __mcpWireCreateRequire(import.meta.url);",
	},
	// Less text to read and compile at each start; names are kept for stack traces. ASCII only: Node reads
	// a file with any other character into a two-byte string.
	minifyWhitespace: true,
	minifySyntax: true,
	charset: 'ascii',
	sourcemap: 'linked',
	sourcesContent: false,
	legalComments: 'linked',
	logLevel: 'warning',
});
