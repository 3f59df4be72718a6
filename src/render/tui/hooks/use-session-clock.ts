import {useEffect, useState} from 'react';

/**
 * The live session's clock for the TUI: ms since the session started (`startedAt`, ISO wall clock),
 * re-read every `intervalMs` while `isTicking` (e.g. while the handshake is outstanding, so the status
 * counts the seconds), and not at all otherwise (no timer, no re-render).
 * @param now wall-clock source in ms (injectable for tests).
 */
export function useSessionClock(
	startedAt: string,
	isTicking: boolean,
	intervalMs = 1000,
	now: () => number = Date.now,
): number {
	const start = Date.parse(startedAt);
	const [tMs, setTMs] = useState(() => now() - start);
	useEffect(() => {
		if (!isTicking) return undefined;
		setTMs(now() - start);
		const handle = setInterval(() => setTMs(now() - start), intervalMs);
		return () => clearInterval(handle);
	}, [isTicking, start, intervalMs, now]);
	return tMs;
}
