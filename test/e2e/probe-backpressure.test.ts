/**
 * `probe --json` into a reader that does not read for 5 s, against a server that writes 200,000 small
 * frames as fast as the pipe takes them: the probe stops reading the server while its stdout is backed
 * up (docs/json-records.md#mark, `output-stalled`), so its memory stays bounded and the dump is whole.
 * Generous: one run, a loose bound (the probe held ~360 MB here before; ~125 MB after).
 */
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {execa} from 'execa';
import {afterAll, describe, expect, it} from 'vitest';
import {BIN} from './tap-helpers.js';

const FRAMES = 200_000;
/**
 * Peak RSS the probe may reach (KiB): above the ~125 MB it takes (~170 MB seen at load 60, where GC runs
 * late), under the 359–388 MB an unbounded queue took.
 */
const PEAK_RSS_KIB = 250 * 1024;
/** Answers `initialize` only after writing FRAMES notifications (waiting for drain), then every request at once. */
const FLOOD = `
let buf = '';
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
process.stdin.on('data', (d) => {
  buf += d.toString('utf8');
  let i;
  while ((i = buf.indexOf('\\n')) !== -1) {
    const line = buf.slice(0, i); buf = buf.slice(i + 1);
    if (!line.trim()) continue;
    const msg = JSON.parse(line);
    if (msg.id === undefined) continue;
    if (msg.method !== 'initialize') { send({jsonrpc: '2.0', id: msg.id, result: {}}); continue; }
    let k = 0;
    const pump = () => {
      while (k < ${FRAMES}) {
        k++;
        if (!process.stdout.write('{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":' + k + '}}\\n')) return void process.stdout.once('drain', pump);
      }
      send({jsonrpc: '2.0', id: msg.id, result: {protocolVersion: msg.params.protocolVersion, capabilities: {}, serverInfo: {name: 'flood', version: '1'}}});
    };
    pump();
  }
});
`;

const dir = mkdtempSync(path.join(tmpdir(), 'mcp-wire-probe-bp-'));
afterAll(() => rmSync(dir, {recursive: true, force: true}));

describe.skipIf(process.platform !== 'linux' || !existsSync('/usr/bin/time'))(
	'probe --json backpressure (real processes)',
	() => {
		it(
			'holds the server while a slow reader catches up: bounded peak RSS, every frame in the dump',
			async () => {
				const server = path.join(dir, 'flood.mjs');
				writeFileSync(server, FLOOD);
				const rss = path.join(dir, 'rss');
				const out = path.join(dir, 'out.ndjson');
				// --timeout: a loaded machine's slow reading of the flood is no concern of this test.
				await execa(
					'sh',
					[
						'-c',
						'/usr/bin/time -f %M -o "$1" node "$2" probe --json --timeout 120000 -- node "$3" | (sleep 5; cat > "$4")',
						'sh',
						rss,
						BIN,
						server,
						out,
					],
					{reject: false},
				);
				const lines = readFileSync(out, 'utf8').split('\n');
				const notifications = lines.filter(
					(line) =>
						line.startsWith('{"type":"frame"') &&
						line.includes('"stream":"stdout"') &&
						line.includes('"method":"notifications/message"'),
				);
				expect(notifications.length).toBe(FRAMES);
				// The output was backed up: the probe held the server at least once, and resumed it.
				expect(lines.some((line) => line.includes('"name":"output-stalled"'))).toBe(true);
				expect(lines.some((line) => line.includes('"name":"output-resumed"'))).toBe(true);
				expect(JSON.parse(lines.at(-2)!)).toMatchObject({type: 'summary'});
				const peakKib = Number(readFileSync(rss, 'utf8').trim().split('\n').at(-1));
				expect(peakKib).toBeGreaterThan(0);
				expect(peakKib).toBeLessThan(PEAK_RSS_KIB);
			},
			{timeout: 180_000},
		);
	},
);
