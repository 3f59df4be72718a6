import {readFileSync, readdirSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {CATALOG} from '../../../src/core/findings/support/catalog.js';
import {FINDING_CODES, type FindingCode} from '../../../src/core/types.js';
import {headingAnchor, renderFindingsDoc, replayExample, ruleAnchors} from '../../../src/render/docs/findings-doc.js';

const DOCS = join(import.meta.dirname, '../../../docs');

function otherDocs() {
	return readdirSync(DOCS)
		.filter((name) => name.endsWith('.md') && name !== 'findings.md')
		.sort()
		.map((name) => ({name, text: readFileSync(join(DOCS, name), 'utf8')}));
}

describe('docs/findings.md', () => {
	it('is what `npm run docs` generates from the catalog (not stale)', () => {
		const committed = readFileSync(join(DOCS, 'findings.md'), 'utf8');
		const fresh = renderFindingsDoc(otherDocs());
		// A plain equality with a message: a diff of a 1,000-line page helps less than the command to run.
		expect(committed === fresh, 'docs/findings.md is stale: run npm run docs').toBe(true);
	});

	it('has one section per catalog code, headed by the code (the anchor the `docs` pointer names)', () => {
		const committed = readFileSync(join(DOCS, 'findings.md'), 'utf8');
		const headings = committed
			.split('\n')
			.filter((line) => line.startsWith('## '))
			.map((line) => line.slice(3));
		expect(headings).toEqual(FINDING_CODES.filter((code) => code in CATALOG));
		expect(new Set(headings)).toEqual(new Set(Object.keys(CATALOG)));
		for (const code of Object.keys(CATALOG)) expect(headingAnchor(code)).toBe(code);
	});

	it.each(Object.entries(CATALOG).filter(([, entry]) => entry.doc !== undefined && entry.doc.example.live !== true))(
		'the example of %s produces that code when replayed',
		(code, entry) => {
			const findings = replayExample(entry.doc!.example);
			expect(findings.map((finding) => finding.code)).toContain(code as FindingCode);
		},
	);

	it.each(Object.entries(CATALOG).filter(([, entry]) => entry.doc?.variants !== undefined))(
		"the variants of %s include its default impact (the page prints only the variants' tables)",
		(code, entry) => {
			const draft = {code: code as FindingCode, stream: 'stdout' as const, offset: 0, byteLength: 0, tMs: 0};
			const tables = entry.doc!.variants!.map((v) =>
				entry.impact({
					...draft,
					...(v.severity ? {severity: v.severity} : {}),
					...(v.detail ? {detail: v.detail} : {}),
				}),
			);
			expect(tables).toContainEqual(entry.impact(draft));
		},
	);

	it('refuses an example that does not produce its code', () => {
		const broken = {
			...CATALOG,
			bom: {...CATALOG.bom, doc: {...CATALOG.bom.doc!, example: {steps: [{stream: 'stdout' as const, bytes: '{}\n'}]}}},
		};
		expect(() => renderFindingsDoc(otherDocs(), broken)).toThrow('the example of `bom` does not produce `bom`');
	});

	it('refuses a catalog rule without a heading in docs/', () => {
		const broken = {...CATALOG, bom: {...CATALOG.bom, rules: ['R99']}};
		expect(() => renderFindingsDoc(otherDocs(), broken)).toThrow('rule R99');
	});

	it('renders a code without `doc` as "not described yet" instead of failing (a new code builds first)', () => {
		const {doc: _doc, ...bare} = CATALOG.bom;
		const page = renderFindingsDoc(otherDocs(), {bom: bare});
		expect(page).toContain('## bom\n');
		expect(page).toContain('_Not described yet');
	});
});

describe('ruleAnchors', () => {
	it('maps an id to the GitHub anchor of the first heading that starts with it', () => {
		const anchors = ruleAnchors([
			{
				name: 'protocol.md',
				text: '# T\n\n### R14. Shutdown is driven by the client, through stdin\n\ntext R15\n### J5. Responses\n',
			},
		]);
		expect(anchors.get('R14')).toBe('protocol.md#r14-shutdown-is-driven-by-the-client-through-stdin');
		expect(anchors.get('J5')).toBe('protocol.md#j5-responses');
		expect(anchors.has('R15')).toBe(false);
	});
});
