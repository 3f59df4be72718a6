#!/usr/bin/env node
// Writes docs/findings.md from the built catalog (dist/). Run through `npm run docs`, which builds first.
// `--check` writes nothing and exits 1 when the committed file differs (what the staleness test checks).
import {readFileSync, readdirSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const docsDir = join(root, 'docs');
const {renderFindingsDoc} = await import('../dist/render/docs/findings-doc.js');

const others = readdirSync(docsDir)
	.filter((name) => name.endsWith('.md') && name !== 'findings.md')
	.sort()
	.map((name) => ({name, text: readFileSync(join(docsDir, name), 'utf8')}));
const page = renderFindingsDoc(others);
const target = join(docsDir, 'findings.md');
let current = '';
try {
	current = readFileSync(target, 'utf8');
} catch {
	// no docs yet: the first run writes them
}

if (process.argv.includes('--check')) {
	if (current !== page) {
		console.error('docs/findings.md is stale: run npm run docs');
		process.exit(1);
	}
} else if (current === page) {
	console.log('docs/findings.md is up to date');
} else {
	writeFileSync(target, page);
	console.log('wrote docs/findings.md');
}
