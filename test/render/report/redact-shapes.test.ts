// Redaction (docs/cli.md#report) covers every known secret shape in every redacting output: each secret is seeded
// into argv, stderr (a PEM block across lines and chunks) and payloads, and the leaks are counted.
import {describe, expect, it} from 'vitest';
import {captureText, META, PROBE_MODES, runCli, runProbeMode, scratch, type Feed} from '../../fuzz/harness.js';

// Made-up values of the real shapes (none is a live credential).
const SECRETS: Record<string, string> = {
	stripe: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc9Xz',
	stripeRestricted: 'rk_live_51H8xQ2eZvKYlo2C9aBcDeFgHiJk',
	npm: 'npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8',
	huggingFace: 'hf_QwErTyUiOpAsDfGhJkLzXcVbNm1234567890',
	gitlab: 'glpat-xY9zA8bC7dE6fG5hI4jK',
	slackWebhook: 'T0123ABCD/B0456EFGH/aBcDeFgHiJkLmNoPqRsTuVwX',
	awsSecret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCY3XAMPLEKEY',
	pemBody1: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj',
	pemBody2: 'MzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu',
};
const PEM = `-----BEGIN PRIVATE KEY-----\n${SECRETS['pemBody1']}\n${SECRETS['pemBody2']}\n-----END PRIVATE KEY-----\n`;
const enc = (text: string): Uint8Array => new TextEncoder().encode(text);

/** What of a secret must never be seen: everything after its public prefix. */
const body = (secret: string): string => secret.replace(/^(?:[sr]k_live_|npm_|hf_|glpat-)/, '');

function leaks(output: string): string[] {
	return Object.entries(SECRETS)
		.filter(
			([, secret]) => output.includes(body(secret)) || output.includes(Buffer.from(body(secret)).toString('base64')),
		)
		.map(([name]) => name);
}

const others = Object.entries(SECRETS).filter(([name]) => !name.startsWith('pem'));
const argv = [
	'server',
	...others.map(([, secret]) => (secret.includes('/B0') ? `https://hooks.slack.com/services/${secret}` : secret)),
];
const stderrText = `${others.map(([name, secret]) => `${name}: ${secret.includes('/B0') ? `https://hooks.slack.com/services/${secret}` : secret}`).join('\n')}\n${PEM}`;
const payload = `${JSON.stringify({jsonrpc: '2.0', method: 'notifications/message', params: {level: 'info', data: stderrText}})}\n`;
// stderr in pieces that cut the PEM block and the other secrets mid-way.
const cuts = [7, 50, 130, 233, 301, 390, 455, 520];
const pieces = cuts
	.map((cut, i) => stderrText.slice(i === 0 ? 0 : cuts[i - 1], cut))
	.concat(stderrText.slice(cuts.at(-1)));
const FEED: Feed = [...pieces.map((piece) => ['stderr', enc(piece)] as const), ['stdout', enc(payload)]];
const meta = {...META, command: argv};

describe('redaction of the known secret shapes', () => {
	it('the seeds are really in the unredacted output (the test can fail)', async () => {
		const plain = await runProbeMode(
			FEED,
			PROBE_MODES.find((mode) => mode.name === 'probe')!,
			meta,
		);
		expect(leaks(plain.stdout).length).toBeGreaterThanOrEqual(7);
	});

	it.each(PROBE_MODES.filter((mode) => mode.redact).map((mode) => [mode.name, mode] as const))(
		'%s leaks nothing',
		async (_name, mode) => {
			const outcome = await runProbeMode(FEED, mode, meta);
			expect(outcome.stdout.length).toBeGreaterThan(200);
			expect(leaks(outcome.stdout)).toEqual([]);
		},
	);

	it('report FILE leaks nothing (redaction on by default)', async () => {
		const files = scratch();
		try {
			const file = files.file('secrets.ndjson', captureText(FEED, meta));
			const outcome = await runCli(['report', file]);
			expect(outcome.exitCode).toBe(0);
			expect(leaks(outcome.stdout)).toEqual([]);
		} finally {
			files.cleanup();
		}
	});
});
