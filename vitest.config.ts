import {configDefaults, defineConfig} from 'vitest/config';

export default defineConfig({
	test: {
		include: ['test/**/*.test.{ts,tsx}'],
		// The heavy real clients run in `npm run test:clients` (vitest.clients.config.ts), after they are installed.
		exclude: [...configDefaults.exclude, 'test/clients/**/*.real.test.ts'],
		setupFiles: ['test/setup.ts'],
		// Sized for a 2-core machine under load (5–30) where interpreters take seconds to start (issue 11):
		// a real-process test may be slow there; only a hang should hit these.
		testTimeout: 120_000,
		hookTimeout: 120_000,
		pool: 'forks',
		// Most of the time goes to tests that wait on child processes (real clients, interpreters start-up), not
		// to CPU: two workers overlap those waits with the CPU-bound tests on a 2-core machine (vitest's
		// default there is one worker). Tests do not depend on machine speed, so the overlap changes no verdict.
		poolOptions: {forks: {minForks: 1, maxForks: 2}},
	},
});
