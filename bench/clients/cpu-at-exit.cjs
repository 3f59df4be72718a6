// Preloaded (`node -r`) into every run of the probe bench (bench/probe.bench.mjs): at exit, writes this
// process's own CPU time (user + system, ms; its children, the server, not counted) to stderr as one line
// `@@cpu <ms>`, which the bench takes out of the stderr it keeps. On a loaded machine CPU time is steadier
// than wall time (every run's wall time grows with the load; its CPU time much less).
'use strict';
process.on('exit', () => {
	const {user, system} = process.cpuUsage();
	require('node:fs').writeSync(2, `\n@@cpu ${((user + system) / 1000).toFixed(1)}\n`);
});
