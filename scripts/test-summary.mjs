#!/usr/bin/env node
// The closing lines of CI: 'tests: N passed, N failed' over vitest JSON reports, and, above it, each failed test
// with the start of its message. CI logs are read from the end, so a failure must be named there, not only in the
// middle of a long run's output.
// Usage: node scripts/test-summary.mjs REPORT.json [REPORT.json ...]  (a missing report counts as nothing run)
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';

const MESSAGE_LINES = 12;
let passed = 0;
let failed = 0;
const failures = [];
for (const file of process.argv.slice(2)) {
	if (!existsSync(file)) continue;
	const report = JSON.parse(readFileSync(file, 'utf8'));
	passed += report.numPassedTests ?? 0;
	failed += report.numFailedTests ?? 0;
	for (const suite of report.testResults ?? []) {
		const where = path.relative(process.cwd(), suite.name ?? '');
		const failedTests = (suite.assertionResults ?? []).filter((t) => t.status === 'failed');
		for (const test of failedTests)
			failures.push({where, name: test.fullName, message: (test.failureMessages ?? []).join('\n')});
		// A file that failed to load or threw outside a test has no failed test to carry its message.
		if (suite.status === 'failed' && failedTests.length === 0)
			failures.push({where, name: '(the file itself)', message: suite.message ?? ''});
	}
}
for (const f of failures) {
	console.log(`FAILED ${f.where} > ${f.name}`);
	// The runner's own frames say nothing about the failure; the test's lines and the message do.
	const lines = f.message.split('\n').filter((line) => !/node_modules|node:internal|\(<anonymous>\)/.test(line));
	for (const line of lines.slice(0, MESSAGE_LINES)) console.log(`    ${line}`);
}
console.log(`tests: ${passed} passed, ${failed} failed`);
