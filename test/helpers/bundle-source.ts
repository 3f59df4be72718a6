import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {build} from 'esbuild';

const ROOT = path.join(import.meta.dirname, '..', '..');

/** Source modules bundled for a test that must hand Node a plain `.js` file (a worker thread, a child process). */
export interface BundledSources {
	/** The file URL of each bundled entry, by the name it was given. */
	readonly urls: Readonly<Record<string, URL>>;
	/** Remove the bundles' temporary directory. */
	dispose(): void;
}

/**
 * Bundle `entries` (name → path of a `.ts` module under the repository root, e.g. `src/tap/capture-writer-worker.ts`)
 * from the TypeScript sources with esbuild into a fresh temporary directory: one self-contained ES module per entry,
 * so a worker thread or a `node -e` child can load the code under test without a prior `npm run build` (the source
 * never loads from `dist/`). Dependencies are bundled too: the directory is outside the repository.
 * @throws esbuild's error when an entry does not compile
 */
export async function bundleSources(entries: Readonly<Record<string, string>>): Promise<BundledSources> {
	const outdir = mkdtempSync(path.join(tmpdir(), 'mcp-wire-bundle-'));
	try {
		await build({
			absWorkingDir: ROOT,
			entryPoints: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, path.join(ROOT, file)])),
			outdir,
			entryNames: '[name]',
			bundle: true,
			format: 'esm',
			platform: 'node',
			target: 'node20',
			logLevel: 'warning',
		});
	} catch (error) {
		rmSync(outdir, {recursive: true, force: true});
		throw error;
	}

	return {
		urls: Object.fromEntries(
			Object.keys(entries).map((name) => [name, pathToFileURL(path.join(outdir, `${name}.js`))]),
		),
		dispose: () => rmSync(outdir, {recursive: true, force: true}),
	};
}
