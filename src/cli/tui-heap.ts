import v8 from 'node:v8';

/**
 * V8 garbage-collector settings for a process that runs the TUI (`view`, `attach`; docs/performance.md#tui-on-big-captures:
 * peak RSS under 200 MiB on a 1M-frame and a 280 MB capture). Loading a big capture makes garbage fast
 * (a few KiB per record), and the session's detectors keep windows of the last few thousand ids and
 * bodies, so about 2 MiB survive each young-generation GC and die later in the old generation. With
 * V8's defaults the old generation then grows to ~4× what is live between full GCs, and the young
 * generation to 32 MiB; measured on the real CLI, the peak RSS was 245 MiB at 1M frames with ~30 MiB
 * live. These two flags change only when V8 collects, never what the program does:
 *
 * - `--heap-growing-percent=50`: after each full GC the old generation may grow by 50 % of what
 *   survived before the next one (V8 otherwise picks up to 300 % on a machine with much memory). It is
 *   a growth rate, not a limit: a heap that needs more memory still gets it (no `--max-old-space-size`,
 *   nothing here can make a bigger capture fail). The cost is more full GCs: each marks what is live.
 * - `--semi-space-growth-factor=1`: the young generation keeps the size it has when the TUI starts
 *   (8 MiB in the CLI on Node 20; V8 otherwise doubles it up to 32 MiB as survivors show up).
 *
 * Both are read by V8 each time it sizes a space, so `v8.setFlagsFromString` changes them in a running
 * process (Node documents that flags set after start-up may not take effect; these two do on Node 20, and
 * test/cli/tui-heap.test.ts checks it on the Node that runs the tests). Not for `probe`, `tap`,
 * `--json` or the plain log: they keep V8's defaults.
 */
export const TUI_V8_FLAGS: readonly string[] = ['--heap-growing-percent=50', '--semi-space-growth-factor=1'];

/**
 * Apply {@link TUI_V8_FLAGS} to this process (call before the TUI's libraries load).
 * @param setFlags where the flags go (V8's `setFlagsFromString`; tests pass a recorder)
 */
export function tuneHeapForTui(setFlags: (flags: string) => void = (flags) => v8.setFlagsFromString(flags)): void {
	for (const flag of TUI_V8_FLAGS) setFlags(flag);
}
