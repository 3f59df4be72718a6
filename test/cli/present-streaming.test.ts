/**
 * The plain log and `--json` of a session that keeps nothing (`retain: false`, what `view --no-tui`,
 * `view --json` and `attach` use, docs/performance.md#replay) print exactly what they print for a session that keeps
 * everything: every recorded example capture, with `--hex`.
 */
import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {Writable} from 'node:stream';
import {describe, expect, it} from 'vitest';
import {createPresenter, type OutputMode} from '../../src/cli/present.js';
import {decodeRecords} from '../../src/core/capture/record-codec.js';
import {createReplay} from '../../src/core/session/replay.js';

const CAPTURES = join(import.meta.dirname, '..', 'fixtures', 'captures');

async function present(text: string, mode: OutputMode, retain: boolean): Promise<string> {
	const parts: Buffer[] = [];
	const out = new Writable({
		write(chunk: Buffer, _encoding, callback) {
			parts.push(chunk);
			callback();
		},
	});
	const presenter = createPresenter({mode, isColor: false, hex: true, redact: false, redactPayloads: false, out});
	const decoded = decodeRecords(text);
	const replay = createReplay(decoded.header!, {retain, onSession: (session) => presenter.attach(session)});
	for (const event of decoded.events) replay.feed(event);
	const session = replay.finish();
	await presenter.finish(session);
	await new Promise((resolve) => setImmediate(resolve));
	return Buffer.concat(parts).toString('utf8');
}

describe('streaming presenters print what the keeping ones print', () => {
	const captures = readdirSync(CAPTURES).filter((name) => name.endsWith('.ndjson'));
	it.each(captures)('%s', async (name) => {
		const text = readFileSync(join(CAPTURES, name), 'utf8');
		const plain = await present(text, 'plain', true);
		expect(plain).toContain('verdict');
		expect(await present(text, 'plain', false)).toBe(plain);
		expect(await present(text, 'json', false)).toBe(await present(text, 'json', true));
	});
});
