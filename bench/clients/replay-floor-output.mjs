#!/usr/bin/env node
// The output floor of the replay bench (docs/performance.md#replay): the plain floor's work
// (bench/clients/replay-floor.mjs) plus writing what `view --json` writes for the same capture, plainly, with
// no framer and no rules: each record that is not a chunk written back as it was read; each chunk record
// re-encoded from its bytes (base64 again, and the UTF-8 `text` preview of a chunk of at most 1024 bytes);
// after it, one frame record per complete stdin/stdout line, `JSON.stringify` of an object with the frame
// record's fields and the parsed message. Lines are joined and written to stdout in batches of about 64 KiB.
// What it leaves out: the answered request of a response (`answers`, the correlator's work), findings, the
// summary. So `view --json` over this floor is what its analysis adds beyond the output it must write.
// Usage: replay-floor-output.mjs <capture.ndjson> > out; prints the line count on stderr.
import {createReadStream, writeSync} from 'node:fs';

const pending = {stdin: '', stdout: '', stderr: ''};
const offsets = {stdin: 0, stdout: 0, stderr: 0};
let parsed = 0;
let index = 0;
let batch = [];
let batchChars = 0;
const flush = () => {
	if (batch.length > 0) writeSync(1, `${batch.join('\n')}\n`);
	batch = [];
	batchChars = 0;
};
const emit = (line) => {
	batch.push(line);
	batchChars += line.length;
	if (batchChars >= 65_536) flush();
};
const kindOf = (message) =>
	'method' in message ? ('id' in message ? 'request' : 'notification') : 'id' in message ? 'response' : 'invalid';

const onRecord = (text) => {
	const record = JSON.parse(text);
	if (record.type !== 'chunk') {
		emit(text);
		return;
	}

	const bytes = Buffer.from(record.base64, 'base64');
	const head = `{"type":"chunk","seq":${record.seq},"stream":${JSON.stringify(record.stream)},"tMs":${record.tMs},"offset":${record.offset},"length":${bytes.length},"base64":"${bytes.toString('base64')}"`;
	const decoded = bytes.toString('utf8');
	emit(bytes.length > 0 && bytes.length <= 1024 ? `${head},"text":${JSON.stringify(decoded)}}` : `${head}}`);
	let data = pending[record.stream] + decoded;
	let nl;
	while ((nl = data.indexOf('\n')) >= 0) {
		const line = data.slice(0, nl);
		data = data.slice(nl + 1);
		const lineBytes = Buffer.byteLength(line) + 1;
		if (record.stream !== 'stderr' && line.length > 0) {
			const message = JSON.parse(line);
			parsed++;
			const offset = offsets[record.stream];
			emit(
				JSON.stringify({
					type: 'frame',
					index: index++,
					stream: record.stream,
					framing: 'newline',
					offset,
					byteLength: lineBytes,
					bodyOffset: offset,
					bodyLength: lineBytes - 1,
					terminator: 'lf',
					lineCount: 1,
					tMs: record.tMs,
					firstTMs: record.tMs,
					firstSeq: record.seq,
					lastSeq: record.seq,
					kind: kindOf(message),
					message,
					method: message.method,
					id: message.id,
				}),
			);
		}

		offsets[record.stream] += lineBytes;
	}

	pending[record.stream] = data;
};

let rest = '';
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
flush();
process.stderr.write(`${parsed}\n`);
