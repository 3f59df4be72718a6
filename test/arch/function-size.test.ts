import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import {describe, expect, it} from 'vitest';

// The house rule: functions under ~150 lines (CONTRIBUTING.md). Checked here for every folder of src/
// but src/core/ (the engine keeps its own shape), so a function that grows past it fails a test rather
// than a review.
const ROOT = path.join(import.meta.dirname, '..', '..');
const CHECKED = readdirSync(path.join(ROOT, 'src'), {withFileTypes: true})
	.filter((entry) => entry.isDirectory() && entry.name !== 'core')
	.map((entry) => `src/${entry.name}`);
const MAX_LINES = 150;

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, {withFileTypes: true}).flatMap((entry) => {
		const file = path.join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(file);
		return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
	});
}

/** `file:line (n lines)` for every function with a body longer than `MAX_LINES` lines. */
function longFunctions(file: string): string[] {
	const text = readFileSync(file, 'utf8');
	const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
	const out: string[] = [];
	const visit = (node: ts.Node): void => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body) {
			const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
			const last = source.getLineAndCharacterOfPosition(node.end).line;
			if (last - first + 1 > MAX_LINES)
				out.push(`${path.relative(ROOT, file)}:${first + 1} (${last - first + 1} lines)`);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return out;
}

describe(`functions are at most ${MAX_LINES} lines`, () => {
	for (const dir of CHECKED) {
		it(dir, () => {
			expect(sourceFiles(path.join(ROOT, dir)).flatMap(longFunctions)).toEqual([]);
		});
	}
});
