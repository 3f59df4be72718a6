#!/usr/bin/env node
// The floor of the replay bench: stream a capture file, JSON.parse each record, decode each chunk's
// base64 bytes and JSON.parse every complete line of each stream. What any replay must at least do.
// Usage: replay-floor.mjs <capture.ndjson>; prints the line count (to keep the work from being skipped).
// The file is read in the stream's default 64 KiB blocks, as a plain reader would: 1 MiB text blocks (what this
// floor used before) made every record a slice of a large-object string and doubled the floor's own CPU time,
// which hid half of what a replay costs (docs/performance.md#replay).
import {createReadStream} from 'node:fs';

const pending = {stdin: '', stdout: '', stderr: ''};
let parsed = 0;
let rest = '';
const onRecord = (text) => {
	const record = JSON.parse(text);
	if (record.type !== 'chunk') return;
	let data = pending[record.stream] + Buffer.from(record.base64, 'base64').toString('utf8');
	let nl;
	while ((nl = data.indexOf('\n')) >= 0) {
		const line = data.slice(0, nl);
		data = data.slice(nl + 1);
		if (record.stream !== 'stderr' && line.length > 0) {
			JSON.parse(line);
			parsed++;
		}
	}
	pending[record.stream] = data;
};
for await (const chunk of createReadStream(process.argv[2], {encoding: 'utf8'})) {
	const text = rest + chunk;
	let start = 0;
	let nl;
	while ((nl = text.indexOf('\n', start)) >= 0) {
		onRecord(text.slice(start, nl));
		start = nl + 1;
	}
	rest = text.slice(start);
}
if (rest.length > 0) onRecord(rest);
process.stdout.write(`${parsed}\n`);
