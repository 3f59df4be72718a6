import {readdirSync, readFileSync, statSync} from 'node:fs';
import {join, relative} from 'node:path';
import ts from 'typescript';
import {describe, expect, it} from 'vitest';
import {FINDING_CODES} from '../../src/core/types.js';

// One finding code = one rule module (CONTRIBUTING.md, "Adding a finding"): below the rules, the framer, the
// classifier, the correlator and the lifecycle report facts, and only the rules, the engine, explain
// (src/core/findings) and the renderers (src/render) name a code. A code as a string literal anywhere else is
// knowledge of that code outside its rule. Comments may name codes: only literals in the code count.
const root = join(import.meta.dirname, '..', '..');
const CODES: ReadonlySet<string> = new Set(FINDING_CODES);

/**
 * Files that still hold code literals, each with why. The list only shrinks: a file that no longer holds one
 * fails the last test until its entry is removed.
 */
const ALLOWED: Readonly<Record<string, string>> = {
	// The list of codes itself, the public `FindingCode` type.
	'src/core/types.ts': 'FINDING_CODES, the registry of code names the FindingCode type is made of',
};

/**
 * Literals that spell a code but name a fact of the same word, per file (a line terminator, a mark's name):
 * the record codec decodes both (`crlf` terminator, `spawn-failed` observed mark).
 */
const SAME_WORD: Readonly<Record<string, readonly string[]>> = {
	// A frame's terminator is `crlf`, the same word as the code about it.
	'src/core/capture/record-decode.ts': ['crlf', 'spawn-failed'],
	'src/core/framing/facts.ts': ['crlf'],
	'src/core/framing/log-framer.ts': ['crlf'],
	'src/core/framing/content-length-reader.ts': ['crlf'],
	'src/core/framing/line.ts': ['crlf'],
	'src/core/session/stores/compact-frame-index.ts': ['crlf'],
	// An `observed` mark's `what` (docs/json-records.md#mark): the probe saw the spawn fail.
	'src/probe/probe.ts': ['spawn-failed'],
	// The same `observed` mark, when the tap saw its server's spawn fail.
	'src/tap/pass-through.ts': ['spawn-failed'],
	// A stall's state (support/evidence.ts `explainStall`): a helper holds and reads the server's stdin.
	'src/probe/stall-looks.ts': ['stdin-inherited'],
};

function filesUnder(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? filesUnder(path) : /\.(ts|tsx)$/.test(name) ? [path] : [];
	});
}

/** The finding codes written as string literals (not in comments) in one source file, with their lines. */
function codeLiterals(file: string, text = readFileSync(file, 'utf8')): string[] {
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
	const found: string[] = [];
	const visit = (node: ts.Node): void => {
		if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && CODES.has(node.text)) {
			const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
			found.push(`${node.text}:${line}`);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

const OWNERS = [/^src\/core\/findings\//, /^src\/render\//];

function offenders(): Map<string, string[]> {
	const out = new Map<string, string[]>();
	for (const file of filesUnder(join(root, 'src'))) {
		const path = relative(root, file).split('\\').join('/');
		if (OWNERS.some((owner) => owner.test(path))) continue;
		const sameWord = new Set(SAME_WORD[path] ?? []);
		const found = codeLiterals(file).filter((hit) => !sameWord.has(hit.slice(0, hit.indexOf(':'))));
		if (found.length > 0) out.set(path, found);
	}
	return out;
}

describe('finding codes live in their rules', () => {
	const found = offenders();

	it('no finding-code literal outside src/core/findings and src/render, but for the allow-list', () => {
		const unexpected = [...found]
			.filter(([path]) => ALLOWED[path] === undefined)
			.map(([path, hits]) => `${path}: ${hits.join(', ')}`);
		expect(unexpected).toEqual([]);
	});

	it('the allow-list only shrinks: every entry still holds a literal', () => {
		expect(Object.keys(ALLOWED).filter((path) => !found.has(path))).toEqual([]);
	});

	it('finds a code literal and ignores one in a comment', () => {
		const sample = [
			"// a comment naming 'no-response'",
			'/** `bom` in a docstring */',
			"const code = 'stray-output';",
			'const text = "not-a-code";',
			'const template = `crlf`;',
		].join('\n');
		expect(codeLiterals('sample.ts', sample)).toEqual(['stray-output:3', 'crlf:5']);
	});
});
