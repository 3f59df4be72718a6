import {existsSync, readFileSync} from 'node:fs';
import {dirname, join, relative, resolve} from 'node:path';
import {describe, expect, it} from 'vitest';

// Issue 12 (a probe as fast as a bare client): `probe` must not load execa (~100 modules) nor the TS SDK's
// zod schemas (~100 modules) before it spawns the server. They stay reachable only through `import()`.
const root = join(import.meta.dirname, '..', '..', 'src');

/** Every module a file loads statically (`import … from`, `export … from`; not `import type`, not `import()`). */
function staticGraph(entry: string): {files: Set<string>; packages: Map<string, string>} {
	const files = new Set<string>();
	const packages = new Map<string, string>();
	const visit = (file: string): void => {
		if (files.has(file)) return;
		files.add(file);
		const text = readFileSync(file, 'utf8');
		for (const m of text.matchAll(/^(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) {
			const spec = m[1]!;
			if (spec.startsWith('.')) {
				const target = resolve(dirname(file), spec).replace(/\.js$/, '');
				const found = [`${target}.ts`, `${target}.tsx`].find((candidate) => existsSync(candidate));
				if (found) visit(found);
			} else if (!spec.startsWith('node:')) {
				packages.set(spec, relative(root, file));
			}
		}
	};
	visit(entry);
	return {files, packages};
}

describe('probe start-up path', () => {
	it('loads neither execa nor the SDK schemas (zod) statically', () => {
		const {files, packages} = staticGraph(join(root, 'cli', 'commands', 'probe.ts'));
		expect([...packages.keys()].sort()).toEqual(['commander']);
		const names = [...files].map((file) => relative(root, file));
		expect(names).not.toContain(join('core', 'jsonrpc', 'sdk-schemas.ts'));
		expect(names).toContain(join('tap', 'probe.ts'));
	});

	it('the graph walker sees the schemas where they are loaded statically', () => {
		const {packages} = staticGraph(join(root, 'core', 'jsonrpc', 'index.ts'));
		expect(packages.get('@modelcontextprotocol/sdk/types.js')).toBe(join('core', 'jsonrpc', 'sdk-schemas.ts'));
	});
});
