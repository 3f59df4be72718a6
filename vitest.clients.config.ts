import {defineConfig} from 'vitest/config';
import base from './vitest.config.js';

/**
 * `npm run test:clients`: the heavy real clients (TS SDK v2, Codex, Gemini CLI) that
 * scripts/install-clients.mjs installs into a cache, each run against every example server
 * (docs/clients.md "Checked against the real clients"). Not part of `npm test`.
 */
export default defineConfig({...base, test: {...base.test, include: ['test/clients/**/*.real.test.ts'], exclude: []}});
