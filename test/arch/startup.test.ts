import {existsSync, readFileSync} from 'node:fs';
import {dirname, join, relative, resolve} from 'node:path';
import {describe, expect, it} from 'vitest';

// docs/performance.md#probe-start-up: `probe` starts the server before it loads anything it does
// not need to check its options and spawn: no execa (~100 modules), no TS SDK zod schemas (~100 modules),
// and neither the probe's exchange, the session with its detectors nor a renderer (~60 modules). Those
// load by `import()` while the server starts.
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

/** Files of src/ that the CLI loads before `probe` spawns the server: the entry and the probe command's static graph. */
const beforeSpawn = (): string[] => {
	const names = new Set<string>();
	for (const entry of [join(root, 'cli', 'main.ts'), join(root, 'cli', 'commands', 'probe.ts')]) {
		for (const file of staticGraph(entry).files) names.add(relative(root, file));
	}
	return [...names].sort();
};

describe('probe start-up path', () => {
	it('loads neither execa nor the SDK schemas (zod) statically: commander is the only package', () => {
		const {packages} = staticGraph(join(root, 'cli', 'commands', 'probe.ts'));
		expect([...packages.keys()].sort()).toEqual(['commander']);
		expect(beforeSpawn()).not.toContain(join('core', 'jsonrpc', 'sdk-schemas.ts'));
	});

	it('loads no session, detector registry, framer, probe exchange or renderer before the spawn', () => {
		const names = beforeSpawn();
		expect(names).toContain(join('probe', 'probe-start.ts'));
		expect(
			names.filter(
				(name) =>
					/^core[/\\](session|framing|jsonrpc)[/\\]/.test(name) || /^render[/\\](json|report|tui)[/\\]/.test(name),
			),
		).toEqual([]);
		for (const heavy of [
			join('probe', 'probe.ts'),
			join('core', 'detectors', 'registry.ts'),
			join('render', 'text', 'plain-log.ts'),
			join('cli', 'present.ts'),
		]) {
			expect(names).not.toContain(heavy);
		}
		// 20 files today (the CLI entry, the option checks, redact-options, process/spawn, probe/probe-start, the opening
		// it writes and its /proc watch);
		// was 76 before the probe's parts moved behind import(). A new static import must earn its place.
		expect(names.length).toBeLessThanOrEqual(20);
	});

	it('the probe command reaches the exchange and the session through import()', () => {
		const text = readFileSync(join(root, 'cli', 'commands', 'probe.ts'), 'utf8');
		expect(text).toMatch(/import\('\.\.\/\.\.\/probe\/probe\.js'\)/);
		expect(text).toMatch(/import\('\.\.\/\.\.\/core\/session\/session\.js'\)/);
	});

	it('the graph walker sees the schemas where they are loaded statically', () => {
		const {packages} = staticGraph(join(root, 'core', 'jsonrpc', 'index.ts'));
		expect(packages.get('@modelcontextprotocol/sdk/types.js')).toBe(join('core', 'jsonrpc', 'sdk-schemas.ts'));
	});
});
