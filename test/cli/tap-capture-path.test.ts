// `tap --capture FILE` never overwrites an earlier capture: the next free numbered name is used.
import {mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {freeCapturePath} from '../../src/cli/commands/tap.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-wire-capture-path-'));
afterAll(() => rmSync(dir, {recursive: true, force: true}));

describe('freeCapturePath', () => {
	it('keeps a free path, and numbers the name before its extension when it is taken', () => {
		const file = join(dir, 'server.ndjson');
		expect(freeCapturePath(file)).toBe(file);
		writeFileSync(file, 'earlier capture\n');
		expect(freeCapturePath(file)).toBe(join(dir, 'server.1.ndjson'));
		writeFileSync(join(dir, 'server.1.ndjson'), '');
		symlinkSync('/nonexistent', join(dir, 'server.2.ndjson'));
		expect(freeCapturePath(file)).toBe(join(dir, 'server.3.ndjson'));
		writeFileSync(join(dir, 'plain'), '');
		expect(freeCapturePath(join(dir, 'plain'))).toBe(join(dir, 'plain.1'));
	});
});
