import {defineConfig} from 'vitest/config';

export default defineConfig({
	test: {
		include: ['test/**/*.test.{ts,tsx}'],
		setupFiles: ['test/setup.ts'],
		// Sized for a 2-core machine under load (5–30) where interpreters take seconds to start (issue 11):
		// a real-process test may be slow there; only a hang should hit these.
		testTimeout: 120_000,
		hookTimeout: 120_000,
		pool: 'forks',
	},
});
