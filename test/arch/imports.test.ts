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
		for (const file of filesUnder(join(root, 'core'))) {
			for (const spec of importsOf(file)) {
				const ok = spec.startsWith('.') || spec === 'node:buffer' || spec === '@modelcontextprotocol/sdk/types.js';
				const escapes = spec.startsWith('.') && !join(file, '..', spec).startsWith(join(root, 'core'));
				if (!ok || escapes) offenders.push(`${relative(root, file)} -> ${spec}`);
			}
		}
		expect(offenders).toEqual([]);
	});

	it('only src/render and src/cli write to stdout', () => {
		const offenders = filesUnder(root)
			.filter((file) => !/[/\\](render|cli)[/\\]/.test(file))
			.filter((file) => /console\.(log|info|debug|table)\(|process\.stdout\.write\(/.test(readFileSync(file, 'utf8')))
			.map((file) => relative(root, file));
		expect(offenders).toEqual([]);
	});

	it('render/hex, render/json, render/report and render/text never import ink, react, tap or cli', () => {
		const offenders: string[] = [];
		for (const sub of ['hex', 'json', 'report', 'text']) {
			let files: string[] = [];
			try {
				files = filesUnder(join(root, 'render', sub));
			} catch {
				continue;
			}
			for (const file of files) {
				for (const spec of importsOf(file)) {
					if (spec === 'ink' || spec === 'react' || /\/(tap|cli)\//.test(spec))
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
