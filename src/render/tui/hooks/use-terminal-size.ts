import {useStdout} from 'ink';
import {useEffect, useState} from 'react';

/**
 * The terminal size, from **ink's** stdout (style.md §1.3 "Resize"): never `process.stdout`, which is the
 * MCP wire in tap mode. Re-renders on the stream's `resize` event (the idea of ink 7's `useWindowSize`,
 * which ink 6.8 does not have).
 */

/** Columns and rows of the terminal. */
export interface TerminalSize {
	readonly columns: number;
	readonly rows: number;
}

/** Reads a stream's size, with 80×24 for a stream that has none (not a TTY). */
export function readSize(stream: {readonly columns?: number; readonly rows?: number}): TerminalSize {
	return {
		columns: stream.columns && stream.columns > 0 ? stream.columns : 80,
		rows: stream.rows && stream.rows > 0 ? stream.rows : 24,
	};
}

/** The size of the stdout ink renders to, updated on `resize`. */
export function useTerminalSize(): TerminalSize {
	const {stdout} = useStdout();
	const [size, setSize] = useState<TerminalSize>(() => readSize(stdout));
	useEffect(() => {
		const onResize = (): void => {
			const next = readSize(stdout);
			setSize((current) => (current.columns === next.columns && current.rows === next.rows ? current : next));
		};

		onResize();
		stdout.on('resize', onResize);
		return () => {
			stdout.off('resize', onResize);
		};
	}, [stdout]);
	return size;
}
