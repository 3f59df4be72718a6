import {readFileSync, readdirSync, statSync} from 'node:fs';
import {join, relative} from 'node:path';
import {describe, expect, it} from 'vitest';
import {ruleAnchors} from '../../src/render/docs/findings-doc.js';

/**
 * The repository explains itself: every rule id (R14, J5, C1, O3, L2…) and field case (F01…) that code,
 * tests, examples or the README cite has a heading in docs/, and nothing points at files outside the
 * repository.
 */
const ROOT = join(import.meta.dirname, '../..');
const SCANNED = ['src', 'test', 'examples', 'bench', 'scripts', 'README.md', 'CONTRIBUTING.md'];

function files(path: string): string[] {
	const full = join(ROOT, path);
	if (statSync(full).isFile()) return [path];
	return readdirSync(full).flatMap((name) => (name === 'node_modules' ? [] : files(join(path, name))));
}

const sources = SCANNED.flatMap((path) => files(path))
	.filter((path) => /\.(ts|tsx|mjs|js|py|sh|md|json)$/.test(path))
	.map((path) => ({path, text: readFileSync(join(ROOT, path), 'utf8')}));
const docs = readdirSync(join(ROOT, 'docs'))
	.filter((name) => name.endsWith('.md'))
	.map((name) => ({name, text: readFileSync(join(ROOT, 'docs', name), 'utf8')}));
const anchors = ruleAnchors(docs);

/** Rule ids a text cites; `C0`/`C1 controls` (Unicode control sets) are not rules. Ranges `J1–J9` count each end. */
function citedRules(text: string): string[] {
	const ids: string[] = [];
	for (const match of text.matchAll(/\b([RJCLO]\d{1,2})\b(?! controls?\b)/g)) {
		if (match[1] === 'C0') continue;
		ids.push(match[1]!);
	}
	return ids;
}

describe('references resolve inside the repository', () => {
	it('every cited rule id has a heading in docs/', () => {
		const missing = new Set<string>();
		for (const {path, text} of sources) {
			// Not citations: this file, the generator's test (a deliberately unknown R99), diff test data (lines `L2`, `L18`).
			if (path === relative(ROOT, import.meta.filename) || /render\/docs\/|configs\/diff\.test/.test(path)) continue;
			for (const id of citedRules(text)) if (!anchors.has(id)) missing.add(`${id} (${path})`);
		}
		expect([...missing]).toEqual([]);
	});

	it('every cited field case has a heading in docs/field-cases.md', () => {
		const missing = new Set<string>();
		for (const {path, text} of sources) {
			for (const match of text.matchAll(/\bF(\d{2})\b/g)) {
				const id = `F${match[1]}`;
				if (anchors.get(id)?.startsWith('field-cases.md#') !== true) missing.add(`${id} (${path})`);
			}
		}
		expect([...missing]).toEqual([]);
	});

	it('nothing cites files outside the repository (shared docs, wire-faults.md) or docs without their folder', () => {
		const offenders: string[] = [];
		for (const {path, text} of sources) {
			// The page generator and its tests name the pages of docs/ from inside docs/ (relative links).
			if (path === relative(ROOT, import.meta.filename) || /render\/docs\/|gen-docs/.test(path)) continue;
			for (const [index, line] of text.split('\n').entries()) {
				if (
					/shared\/docs|\.\.\/shared|wire-faults\.md/.test(line) ||
					/(?<!docs\/)\b(protocol|field-cases)\.md\b/.test(line)
				) {
					offenders.push(`${path}:${index + 1}: ${line.trim().slice(0, 120)}`);
				}
			}
		}
		expect(offenders).toEqual([]);
	});
});
