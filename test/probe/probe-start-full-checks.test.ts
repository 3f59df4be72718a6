// The probe's full TS SDK checks (zod) load from dist/bundle/sdk-schemas.cjs only when the fast checks meet a
// value they do not accept. Without that file (an incomplete install, an unbuilt checkout) the user gets one
// clear line, not "internal error (please report it)" with a stack trace.
import {afterEach, describe, expect, it, vi} from 'vitest';
import {handleError} from '../../src/cli/main.js';
import {BrokenInstallError, loadFullSdkSchemas} from '../../src/probe/probe-start.js';

afterEach(() => vi.restoreAllMocks());

describe('loadFullSdkSchemas', () => {
	it('loads the built checks (dist/bundle/sdk-schemas.cjs)', () => {
		const schemas = loadFullSdkSchemas();
		expect(
			schemas.result('tools/list', '2025-06-18', {tools: [{name: 't', inputSchema: {type: 'array'}}]})?.[0]?.path,
		).toBe('tools.0.inputSchema.type');
	});

	it('a missing script: a BrokenInstallError naming the file, which the CLI prints as one line (exit code 70)', () => {
		const missing = new URL('file:///nonexistent/dist/bundle/sdk-schemas.cjs');
		let thrown: unknown;
		try {
			loadFullSdkSchemas(missing);
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(BrokenInstallError);
		const written: string[] = [];
		vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
			written.push(String(chunk));
			return true;
		});
		expect(handleError(thrown)).toBe(70);
		expect(written).toEqual([
			"mcp-wire: cannot load the TS SDK checks (/nonexistent/dist/bundle/sdk-schemas.cjs: missing): mcp-wire's install is incomplete; reinstall it (in a source checkout: npm run build)\n",
		]);
	});
});
