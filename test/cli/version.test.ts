import {statSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {describe, expect, it} from 'vitest';
import {VERSION, buildId} from '../../src/cli/version.js';

describe('buildId (the key of cached sessions verdicts)', () => {
	it('is the version and the write time of the running version module, so a rebuild changes it', () => {
		const file = fileURLToPath(new URL('../../src/cli/version.ts', import.meta.url));
		expect(buildId()).toBe(`${VERSION} ${statSync(file).mtimeMs}`);
	});
});
