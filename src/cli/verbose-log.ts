import type {Session} from '../core/session/session.js';
import type {Mark, SessionEvent} from '../core/types.js';
import type {SessionInit} from '../probe/probe.js';
import {summarizeEvidence} from '../core/findings/support/evidence.js';

/**
 * `--verbose` for `probe`: one stderr line for each step of the process's life, on every run, a healthy
 * one too: the spawn (pid and command), each timeout, closing stdin, each signal sent, each
 * stream's EOF and the exit. Times are ms since the session started.
 * @param session a session just created (nothing fed yet); its events are followed until it finishes
 * @param init what the probe knew at creation (`pid` absent when the command could not start)
 * @param write takes one line without a newline (the caller adds the `mcp-wire:` prefix)
 * @returns a function that stops following the session
 */
export function followVerbose(
	session: Session,
	init: Pick<SessionInit, 'pid' | 'purpose'>,
	write: (line: string) => void,
): () => void {
	const who =
		init.purpose === 'reprobe-content-length'
			? 're-probe '
			: init.purpose === 'pre-initialized-check'
				? 'setLevel-before-initialized check '
				: '';
	const command = session.meta.command.join(' ');
	write(init.pid === undefined ? `${who}starting ${command}` : `${who}spawned pid ${init.pid}: ${command}`);
	return session.on((event: SessionEvent) => {
		const line =
			event.type === 'mark'
				? markLine(event.mark)
				: event.type === 'exit'
					? exitLine(event.exit.code, event.exit.signal, event.exit.tMs)
					: undefined;
		if (line !== undefined) write(`${who}${line}`);
	});
}

const at = (tMs: number): string => `at ${tMs.toFixed(1)} ms`;

function markLine(mark: Mark): string | undefined {
	switch (mark.type) {
		case 'timeout':
			return `timeout: no reply to ${mark.method} (id ${String(mark.id)}) within ${mark.timeoutMs} ms, ${at(mark.tMs)}`;
		case 'stdin-closed':
			return `closed the server's stdin ${at(mark.tMs)}`;
		case 'signal-sent':
			return `sent ${mark.signal} ${at(mark.tMs)}`;
		case 'eof':
			return `the server's ${mark.stream} reached EOF ${at(mark.tMs)}`;
		case 'phase':
			return `phase ${mark.name} ${at(mark.tMs)}`;
		case 'evidence':
			return `looked at the server's processes (${mark.evidence.reason}) ${at(mark.tMs)}: ${summarizeEvidence(mark.evidence)}`;
		case 'reaped':
			return `ended leftover process${mark.pids.length === 1 ? '' : 'es'} of the server's tree with ${mark.signal}: pid ${mark.pids.join(', ')} ${at(mark.tMs)}`;
		case 'observed':
			return `observed ${mark.what} ${at(mark.tMs)}`;
		case 'gap':
			return `${mark.length} bytes of ${mark.stream} not captured from offset ${mark.offset} (${mark.reason}) ${at(mark.tMs)}`;
	}
}

function exitLine(code: number | null, signal: string | null, tMs: number): string {
	return signal === null
		? `the server exited with code ${code} ${at(tMs)}`
		: `the server was ended by ${signal} ${at(tMs)}`;
}
