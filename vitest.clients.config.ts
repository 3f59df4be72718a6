import {defineConfig} from 'vitest/config';
import base from './vitest.config.js';

/**
 * `npm run test:clients`: the heavy real clients (TS SDK v2, Codex, Gemini CLI) that
 * scripts/install-clients.mjs installs into a cache, each run against every example server
 * (docs/clients.md "Checked against the real clients"). Not part of `npm test`.
 */
export default defineConfig({
	...base,
	test: {
		...base.test,
		include: ['test/clients/**/*.real.test.ts'],
		exclude: [],
		// The four files mostly wait on clients' limits (a hanging example holds its slot for the whole limit), so
		// all four run at once: their CPU is about 1.4 cores over the run, and no prediction here depends on speed.
		poolOptions: {forks: {minForks: 1, maxForks: 4}},
	},
});
