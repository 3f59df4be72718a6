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
		// all four run at once: about 1.3 cores over the run. That load has slowed a healthy start to 22 s, so every
		// limit a comparison turns on is 60 s, or a client's default kept only where a start is far from it by design.
		poolOptions: {forks: {minForks: 1, maxForks: 4}},
	},
});
