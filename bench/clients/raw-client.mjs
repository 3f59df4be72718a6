#!/usr/bin/env node
// The floor of the probe bench: a bare, hand-written MCP client over stdio. Node's spawn, no shell;
// initialize, notifications/initialized, tools/list, ping, each after the previous answer; then the
// R14 shutdown's first step (close stdin) and the wait for the exit. Usage: raw-client.mjs <server.mjs>
import {spawn} from 'node:child_process';

const child = spawn(process.execPath, [process.argv[2]], {
	stdio: ['pipe', 'pipe', 'pipe'],
	env: {PATH: process.env.PATH ?? ''},
});
const send = (message) => child.stdin.write(`${JSON.stringify(message)}\n`);
const steps = [
	() =>
		send({
			jsonrpc: '2.0',
			id: 0,
			method: 'initialize',
			params: {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 'raw', version: '0'}},
		}),
	() => {
		send({jsonrpc: '2.0', method: 'notifications/initialized'});
		send({jsonrpc: '2.0', id: 1, method: 'tools/list'});
	},
	() => send({jsonrpc: '2.0', id: 2, method: 'ping'}),
	() => child.stdin.end(),
];
let step = 0;
let buffered = '';
child.stdout.on('data', (data) => {
	buffered += data;
	let nl;
	while ((nl = buffered.indexOf('\n')) >= 0) {
		const line = buffered.slice(0, nl);
		buffered = buffered.slice(nl + 1);
		if (typeof JSON.parse(line).id === 'number') steps[++step]?.();
	}
});
child.stderr.resume();
child.on('exit', (code) => {
	process.exitCode = code === 0 && step === 3 ? 0 : 1;
});
steps[0]();
