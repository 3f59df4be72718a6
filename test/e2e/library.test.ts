import {execa} from 'execa';
import {describe, expect, it} from 'vitest';
import {ROOT} from './helpers.js';

// The package's public library entry ("exports": "."), used the way a dependent would import it.
describe('the mcp-wire library', () => {
	it('imports by package name and frames bytes into findings', async () => {
		const script = `
			import {Session} from 'mcp-wire';
			const s = new Session({tool: {name: 'mcp-wire', version: 't'}, node: '', platform: '', command: ['x'], envMode: 'sdk-default', startedAt: '', mode: 'replay'});
			s.pushChunk('stdout', 0, new TextEncoder().encode('hello\\r\\n'));
			const summary = s.finish(1);
			console.log(JSON.stringify([summary.verdict, s.getSnapshot().findings.map((f) => [f.code, f.offset])]));
		`;
		// A stray line ending in CR LF is stray output only: crlf is for messages (docs/field-cases.md F48).
		const result = await execa('node', ['--input-type=module', '-e', script], {cwd: ROOT});
		expect(result.stdout).toBe('["warn",[["stray-output",0]]]');
	});
});
