import {afterEach} from 'vitest';
// Shared test set-up: deterministic colour handling for ink components (style.md §1.7).
process.env['FORCE_COLOR'] = '1';
delete process.env['NO_COLOR'];
// ink renders on its own (renderToString synchronously, render() on input events and timers) and the
// TUI tests wait for its frames instead of wrapping updates in act(): React's act environment is off, or
// React warns "An update to Root inside a test was not wrapped in act(...)" on every render.
(globalThis as {IS_REACT_ACT_ENVIRONMENT?: boolean}).IS_REACT_ACT_ENVIRONMENT = false;
// The TS SDK's schema checks are injected into Sessions (SessionOptions.schemas); the production paths
// pass them explicitly. Installing them as the default here keeps tests that build a Session or replay
// a capture directly on the real SDK verdicts.
import '../src/core/jsonrpc/sdk-schemas.js';

// A React act() warning fails the test that caused it (the log stays free of them).
const actWarnings: string[] = [];
const consoleError = console.error.bind(console);
console.error = (...args: unknown[]): void => {
	const text = args.map(String).join(' ');
	if (/\bact\(/.test(text)) actWarnings.push(text.split('\n')[0]!);
	consoleError(...args);
};
afterEach(() => {
	const warnings = actWarnings.splice(0);
	if (warnings.length > 0) throw new Error(`React act() warning in this test: ${warnings[0]}`);
});
