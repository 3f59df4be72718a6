/**
 * Kept captures of the doctor's probes (docs/cli.md#doctor): one NDJSON file per
 * probe in the tap's capture directory (capture-store.ts: `$XDG_STATE_HOME/mcp-wire/captures`, …),
 * named like a tap capture (`<ISO time>-<client>-<server>-<pid>.ndjson`), mode 0600, holding the
 * session header and then every session event as it happens, so `mcp-wire view FILE` and
 * `mcp-wire report FILE` open it.
 */
import {createWriteStream, openSync, closeSync, type WriteStream} from 'node:fs';
import path from 'node:path';
import type {Session} from '../core/session/session.js';
import {createNdjsonWriter} from '../render/json/ndjson.js';
import {captureFileName, NDJSON_CAPTURE_EXT, sanitizeName} from '../captures/capture-store.js';

/** A capture being written. `done` resolves once every byte is on disk (or writing failed). */
export interface OpenCapture {
	readonly path: string;
	/** Subscribes the NDJSON writer: header now, then every event. Call before any event is fed. */
	attach(session: Session): void;
	/** Ends the file; resolves with the first write error's message, if any. */
	close(): Promise<string | undefined>;
}

/**
 * Creates a new capture file in `dir` (which must exist) for a probe named `name` (e.g.
 * `claude-code-fs`). The name is sanitized and shortened so that a `-2`, `-3` … suffix always fits;
 * an existing file is never overwritten (`wx`), the next suffix is tried instead.
 * @throws the fs error when no file can be created (permissions, disk)
 */
export function openCapture(dir: string, name: string, date: Date = new Date()): OpenCapture {
	const base = sanitizeName(name).slice(0, 36).replace(/-+$/, '');
	let file = '';
	for (let attempt = 1; ; attempt++) {
		file = path.join(
			dir,
			captureFileName(date, attempt === 1 ? base : `${base}-${attempt}`, process.pid, NDJSON_CAPTURE_EXT),
		);
		try {
			closeSync(openSync(file, 'wx', 0o600));
			break;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 50) throw error;
		}
	}
	const stream: WriteStream = createWriteStream(file, {flags: 'a', mode: 0o600});
	let failure: string | undefined;
	stream.on('error', (error) => {
		failure ??= `cannot write the capture ${file}: ${error.message}`;
	});
	const write = (line: string): void => {
		if (failure === undefined) stream.write(`${line}\n`);
	};
	return {
		path: file,
		attach(session) {
			const writer = createNdjsonWriter(write);
			writer.header(session.meta);
			session.on((event) => writer.event(event));
		},
		close() {
			return new Promise((resolve) => {
				if (stream.destroyed) {
					resolve(failure);
					return;
				}
				stream.end(() => resolve(failure));
				stream.once('error', () => resolve(failure));
			});
		},
	};
}
