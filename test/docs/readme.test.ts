// The README is a user's first page: short, a real hex dump on its first screen, set-up commands that are
// true, and links (in it, CONTRIBUTING.md and docs/) that reach a file and a heading.
import {existsSync, readFileSync, readdirSync} from 'node:fs';
import {dirname, join, relative} from 'node:path';
import {describe, expect, it} from 'vitest';
import {headingAnchor, ruleAnchors} from '../../src/render/docs/findings-doc.js';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const README = read('README.md');
const PAGES = [
	'README.md',
	'CONTRIBUTING.md',
	...readdirSync(join(ROOT, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`),
];

/** The lines of a Markdown text outside fenced code blocks. */
function proseLines(text: string): string[] {
	let isFenced = false;
	return text.split('\n').filter((line) => {
		if (/^\s*```/.test(line)) {
			isFenced = !isFenced;
			return false;
		}
		return !isFenced;
	});
}

/** GitHub's anchors of a page's headings. */
function anchorsOf(text: string): Set<string> {
	return new Set(
		proseLines(text).flatMap(
			(line) =>
				/^#{1,6}\s+(.+)$/
					.exec(line)
					?.slice(1, 2)
					.map((heading) => headingAnchor(heading)) ?? [],
		),
	);
}

/**
 * Whether an xxd-style row (`OFFSET: hex groups  gutter`) shows in its gutter the bytes its hex says:
 * printable ASCII as itself, any other byte as `.` or a glyph (the TUI's `↵`). Tried for every split of
 * the row into hex groups and gutter, since a gutter may start with characters that look like hex.
 */
function rowIsConsistent(row: string): boolean {
	const match = /^\s*[0-9a-f]{8}: (.*)$/.exec(row);
	if (match === null) return true;
	const rest = match[1]!;
	const groups = [...rest.matchAll(/([0-9a-f]{4}|[0-9a-f]{2})(?= |$)/g)];
	for (let count = groups.length; count > 0; count--) {
		const last = groups[count - 1]!;
		if (!/^((?:[0-9a-f]{2})+ {1,2})*$/.test(`${rest.slice(0, last.index + last[0].length)} `)) continue;
		const bytes = groups
			.slice(0, count)
			.flatMap((group) => group[0].match(/../g)!.map((pair) => Number.parseInt(pair, 16)));
		const gutter = bytes
			.map((byte) =>
				byte >= 0x20 && byte < 0x7f
					? String.fromCharCode(byte).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
					: '(?:\\.|[^\\x20-\\x7e])',
			)
			.join('');
		if (new RegExp(` ${gutter}$`, 'u').test(rest.slice(last.index + last[0].length))) return true;
	}
	return false;
}

describe('README', () => {
	it('is at most 200 lines', () => {
		expect(README.trimEnd().split('\n').length).toBeLessThanOrEqual(200);
	});

	it('shows a hex dump with a finding and its carets on its first screen (40 lines)', () => {
		const first = README.split('\n').slice(0, 40);
		expect(first.filter((line) => /^\s*[0-9a-f]{8}: [0-9a-f]{4} /.test(line)).length).toBeGreaterThanOrEqual(6);
		expect(first.some((line) => /^ERROR [a-z-]+ · stdout S→C · offset \d+/.test(line))).toBe(true);
		expect(first.some((line) => /^\s+\^{4}( \^{4})+\s+\^+$/.test(line))).toBe(true);
	});

	it('every hex row in the README and docs shows in its gutter the bytes its hex says', () => {
		const wrong = PAGES.flatMap((page) =>
			read(page)
				.split('\n')
				.filter((line) => !rowIsConsistent(line))
				.map((line) => `${page}: ${line}`),
		);
		expect(wrong).toEqual([]);
		// The check itself catches a changed byte.
		expect(rowIsConsistent('  00000020: 2e30 0a                                  .0.')).toBe(true);
		expect(rowIsConsistent('  00000020: 2e31 0a                                  .0.')).toBe(false);
	});

	it('the demo it shows is the bundled example and `npm run demo`', () => {
		const scripts = (JSON.parse(read('package.json')) as {scripts: Record<string, string>}).scripts;
		expect(scripts['demo']).toContain('probe --hex -- python3 examples/servers/python/stray-print.py');
		expect(README).toContain('$ mcp-wire probe --hex -- python3 examples/servers/python/stray-print.py');
		const banner = /S→C {4}35 B {2}text {9}"(.+)"/.exec(README)?.[1];
		expect(banner).toBe('Weather MCP Server version : 1.4.0');
		expect(read('examples/servers/python/stray-print.py')).toContain(banner!);
	});

	it('its set-up is two commands, and CI runs the test command it names', () => {
		const start = README.indexOf('\n## Set-up');
		const block = /```sh\n([\s\S]*?)```/.exec(README.slice(start))![1]!;
		const commands = block
			.trim()
			.split('\n')
			.map((line) => line.replace(/\s+#.*$/, ''));
		expect(commands).toEqual(['npm ci && npm run demo', 'npm test']);
		expect(read('.ci/run')).toMatch(/^npm test\b/m);
	});
});

describe('links between the pages', () => {
	it('every relative link reaches a file, and a heading when it names one', () => {
		const broken: string[] = [];
		for (const page of PAGES) {
			for (const line of proseLines(read(page))) {
				for (const link of line.matchAll(/\]\(([^)\s]+)\)/g)) {
					const target = link[1]!;
					if (/^[a-z]+:/.test(target)) continue;
					const [path, anchor] = target.split('#') as [string, string | undefined];
					const file = path === '' ? page : relative(ROOT, join(ROOT, dirname(page), path));
					if (!existsSync(join(ROOT, file))) broken.push(`${page} → ${target} (no such file)`);
					else if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(read(file)).has(anchor))
						broken.push(`${page} → ${target} (no such heading)`);
				}
			}
		}
		expect(broken).toEqual([]);
	});

	it('every docs/ anchor that code, tests, benches and scripts cite names a heading', () => {
		const docs = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
		const rules = ruleAnchors(docs.map((name) => ({name, text: read(`docs/${name}`)})));
		const headings = new Map(docs.map((name) => [name, anchorsOf(read(`docs/${name}`))]));
		const files = (dir: string): string[] =>
			readdirSync(join(ROOT, dir), {withFileTypes: true}).flatMap((entry) =>
				entry.isDirectory()
					? entry.name === 'node_modules'
						? []
						: files(`${dir}/${entry.name}`)
					: [`${dir}/${entry.name}`],
			);
		const broken: string[] = [];
		for (const file of ['src', 'test', 'bench', 'scripts'].flatMap((dir) => files(dir))) {
			if (!/\.(ts|tsx|mjs|cjs|js)$/.test(file)) continue;
			for (const match of read(file).matchAll(/docs\/([a-z-]+\.md)#([a-z0-9-]+)/g)) {
				const [, page, anchor] = match as unknown as [string, string, string];
				// Catalog text links rules by id (`docs/protocol.md#r5`); the page generator resolves them.
				const isRule =
					/^[rjclo]\d{1,2}$/.test(anchor) && rules.get(anchor.toUpperCase())?.startsWith(`${page}#`) === true;
				if (!isRule && headings.get(page)?.has(anchor) !== true) broken.push(`${file}: docs/${page}#${anchor}`);
			}
		}
		expect([...new Set(broken)]).toEqual([]);
	});

	it('every repository path the pages name in backticks exists', () => {
		const missing: string[] = [];
		// docs/protocol.md and docs/field-cases.md cite other repositories' files (the SDKs' src/client/stdio.ts).
		for (const page of PAGES.filter((name) => !/protocol|field-cases/.test(name))) {
			for (const match of read(page).matchAll(/`((?:src|test|bench|scripts|examples|bin|docs)\/[\w./-]+?)`/g)) {
				const path = match[1]!.replace(/\/$/, '');
				if (/[*<]/.test(path)) continue;
				if (!existsSync(join(ROOT, path))) missing.push(`${page}: ${path}`);
			}
		}
		expect([...new Set(missing)]).toEqual([]);
	});
});
