import {readdirSync, readFileSync, statSync} from 'node:fs';
import {join, relative} from 'node:path';
import {describe, expect, it} from 'vitest';

// The dependency rule of style.md §1.2: the core stays pure, front ends only present it.
const root = join(import.meta.dirname, '..', '..', 'src');

function filesUnder(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? filesUnder(path) : /\.(ts|tsx)$/.test(name) ? [path] : [];
	});
}

function importsOf(file: string): string[] {
	const text = readFileSync(file, 'utf8');
	// `from '…'`, `import '…'` and `import('…')`; not `Buffer.from('…')`, whose argument is data.
	const specs = [...text.matchAll(/(?:(?<![.\w])from\s+|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g)].map(
		(m) => m[1]!,
	);
	return specs;
}

describe('import rules', () => {
	it('src/core imports only node:buffer, the MCP SDK schemas and other core files', () => {
		const offenders: string[] = [];
		// The one exception: json-schema.ts loads Ajv (a validator, R22) with `createRequire` on first use only,
		// so that a session without a tool schema to judge never pays for it.
		const lazyValidator = join(root, 'core', 'jsonrpc', 'json-schema.ts');
		for (const file of filesUnder(join(root, 'core'))) {
			for (const spec of importsOf(file)) {
				const ok =
					spec.startsWith('.') ||
					spec === 'node:buffer' ||
					spec === '@modelcontextprotocol/sdk/types.js' ||
					(file === lazyValidator && spec === 'node:module');
				const escapes = spec.startsWith('.') && !join(file, '..', spec).startsWith(join(root, 'core'));
				if (!ok || escapes) offenders.push(`${relative(root, file)} -> ${spec}`);
			}
		}
		expect(offenders).toEqual([]);
	});

	// The I/O layers of style.md §2, lowest first: process/ (one server: spawn, socket pair, /proc evidence, clock),
	// captures/ (capture files), then the two roles that use them: tap/ (the relay) and probe/ (the client). A layer
	// imports core and the layers below it, never a sibling or anything above (render, cli, doctor, configs).
	const IO_LAYERS: Record<string, string[]> = {
		process: [],
		captures: ['process'],
		tap: ['process', 'captures'],
		probe: ['process'],
	};
	const SRC_FOLDERS = ['core', 'process', 'captures', 'tap', 'probe', 'render', 'cli', 'doctor', 'configs'];

	it.each(Object.entries(IO_LAYERS))('src/%s imports only core and %j', (layer, below) => {
		const offenders: string[] = [];
		for (const file of filesUnder(join(root, layer))) {
			for (const spec of importsOf(file)) {
				if (!spec.startsWith('.')) continue;
				const folder = relative(root, join(file, '..', spec)).split(/[/\\]/)[0]!;
				const allowed = folder === layer || folder === 'core' || below.includes(folder);
				if (!allowed) offenders.push(`${relative(root, file)} -> ${spec}`);
			}
		}
		expect(offenders).toEqual([]);
	});

	it('every folder under src has its place in the rules', () => {
		const folders = readdirSync(root).filter((name) => statSync(join(root, name)).isDirectory());
		expect(folders.filter((name) => !SRC_FOLDERS.includes(name))).toEqual([]);
	});

	it('only src/render and src/cli write to stdout', () => {
		const offenders = filesUnder(root)
			.filter((file) => !/[/\\](render|cli)[/\\]/.test(file))
			.filter((file) => /console\.(log|info|debug|table)\(|process\.stdout\.write\(/.test(readFileSync(file, 'utf8')))
			.map((file) => relative(root, file));
		expect(offenders).toEqual([]);
	});

	it('render/hex, render/json, render/redact, render/report and render/text never import ink, react, the I/O layers or cli', () => {
		const offenders: string[] = [];
		for (const sub of ['hex', 'json', 'redact', 'report', 'text']) {
			let files: string[] = [];
			try {
				files = filesUnder(join(root, 'render', sub));
			} catch {
				continue;
			}
			for (const file of files) {
				for (const spec of importsOf(file)) {
					if (spec === 'ink' || spec === 'react' || /\/(process|captures|tap|probe|cli)\//.test(spec))
						offenders.push(`${relative(root, file)} -> ${spec}`);
				}
			}
		}
		expect(offenders).toEqual([]);
	});

	it('only the CLI loads the TUI, and only lazily', () => {
		const offenders: string[] = [];
		for (const file of filesUnder(root)) {
			if (file.includes(`${join('render', 'tui')}`)) continue;
			const text = readFileSync(file, 'utf8');
			// A type-only import is erased at compile time and loads nothing.
			const loads = text.replace(/import\s+type\s[^;]*;/g, '');
			if (/from\s+['"][^'"]*render\/tui\//.test(loads)) offenders.push(relative(root, file));
		}
		expect(offenders).toEqual([]);
	});
});
