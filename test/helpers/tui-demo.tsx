/**
 * Manual check of the TUI on a real terminal (DEVELOPERS.md: the real TUI is checked by hand in tmux):
 *
 *   tmux new -d -s tui -x 120 -y 40 'npx vite-node test/helpers/tui-demo.tsx -- --live'
 *   tmux send-keys -t tui Tab Tab Enter; tmux capture-pane -p -t tui
 *
 * It builds a session from the bytes of test/render/tui/exchange.ts (plus, with `--live`, a ping pair
 * every 500 ms, to watch follow-tail) and runs startTui on this process's stdin/stdout.
 */
import process from 'node:process';
import {startTui} from '../../src/render/tui/start-tui.js';
import {resolveColor} from '../../src/render/tui/theme.js';
import {exchangeSession, pingPair} from '../render/tui/exchange.js';

const session = exchangeSession();
const isLive = process.argv.includes('--live');
let timer: NodeJS.Timeout | undefined;
if (isLive) {
	let n = 0;
	let t = 20;
	timer = setInterval(() => {
		const {request, response} = pingPair(n++);
		session.pushChunk('stdin', (t += 250), request);
		session.pushChunk('stdout', (t += 3), response);
	}, 500);
} else {
	session.finish(20);
}

const sent: string[] = [];
await startTui({
	store: session,
	stdin: process.stdin,
	stdout: process.stdout,
	color: resolveColor(
		process.argv.includes('--no-color') ? 'never' : 'auto',
		process.env,
		process.stdout.isTTY === true,
	),
	actions: {
		send(method, params) {
			sent.push(`${method} ${JSON.stringify(params)}`);
		},
		rerun() {
			sent.push('rerun');
		},
	},
});
if (timer) clearInterval(timer);
process.stderr.write(`tui-demo: quit cleanly; actions: ${JSON.stringify(sent)}\n`);
