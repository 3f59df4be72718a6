import {afterAll, describe, expect, it} from 'vitest';
import {createClock} from '../../src/process/clock.js';
import {parseNetTcp, parseStat, parseSyscall, readProcInfo, summarizeProcInfo} from '../../src/process/proc-info.js';
import {spawnServer} from '../../src/process/spawn.js';
import {testEnv, writeServers} from '../helpers/servers.js';

const servers = writeServers();
afterAll(() => servers.cleanup());

/** Real /proc/<pid>/net/tcp lines captured on Linux 6.18 (a listener, one accepted and one SYN_SENT connection). */
const NET_TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:B657 00000000:0000 0A 00000000:00000001 00:00000000 00000000     0        0 7071 2 00000000980c2e4d 100 0 0 10 0
   2: 0100007F:8654 0100007F:B657 01 00000000:00000000 00:00000000 00000000     0        0 7078 2 00000000e99a3f1b 20 0 0 10 -1
   3: 0100007F:8662 0100007F:B657 02 00000001:00000000 01:00000005 00000000     0        0 7079 2 0000000076cdcec5 100 0 0 10 -1
   4: 020200C0:B39A 01FFFF0A:0051 02 00000000:00000000 00:00000000 00000000     0        0 6872 2 00000000980c2e4d 20 0 0 10 -1
   garbage line
`;

const NET_TCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 501 1 0000000000000000 100 0 0 10 0
   1: 0000000000000000FFFF00000100007F:C350 0000000000000000FFFF00000A00000A:0050 02 00000000:00000000 00:00000000 00000000  1000        0 502 1 0000000000000000 100 0 0 10 0
   2: B80D0120000000000000000001000000:C351 B80D0120000000000000000002000000:01BB 01 00000000:00000000 00:00000000 00000000  1000        0 503 1 0000000000000000 100 0 0 10 0
`;

describe('parseNetTcp', () => {
	it('decodes IPv4 lines: little-endian address words, big-endian port, state names, inodes', () => {
		expect(parseNetTcp(NET_TCP)).toEqual([
			{inode: 7071, local: '127.0.0.1:46679', remote: '0.0.0.0:0', state: 'LISTEN'},
			{inode: 7078, local: '127.0.0.1:34388', remote: '127.0.0.1:46679', state: 'ESTABLISHED'},
			{inode: 7079, local: '127.0.0.1:34402', remote: '127.0.0.1:46679', state: 'SYN_SENT'},
			{inode: 6872, local: '192.0.2.2:45978', remote: '10.255.255.1:81', state: 'SYN_SENT'},
		]);
	});

	it('decodes IPv6 lines, with v4-mapped addresses shown as IPv4', () => {
		expect(parseNetTcp(NET_TCP6)).toEqual([
			{inode: 501, local: '[::1]:8080', remote: '[::]:0', state: 'LISTEN'},
			{inode: 502, local: '127.0.0.1:50000', remote: '10.0.0.10:80', state: 'SYN_SENT'},
			{inode: 503, local: '[2001:db8::1]:50001', remote: '[2001:db8::2]:443', state: 'ESTABLISHED'},
		]);
	});

	it('returns nothing for empty or header-only text', () => {
		expect(parseNetTcp('')).toEqual([]);
		expect(parseNetTcp(NET_TCP.split('\n')[0]!)).toEqual([]);
	});
});

describe('parseStat', () => {
	it('takes comm up to the last parenthesis (names may hold spaces and parentheses)', () => {
		expect(parseStat('4242 (node) S 1 4242 4242 0 -1')).toEqual({comm: 'node', state: 'S'});
		expect(parseStat('77 (we (ird) name) D 1 2 3')).toEqual({comm: 'we (ird) name', state: 'D'});
		expect(parseStat('garbage')).toEqual({});
	});
});

describe('summarizeProcInfo', () => {
	it('spells out state, wait channel and connecting sockets in one line', () => {
		expect(
			summarizeProcInfo([
				{
					pid: 10,
					comm: 'npx',
					state: 'S',
					stateName: 'sleeping',
					wchan: 'do_wait',
					waitingOn: 'waiting for a child process to exit',
					sockets: 0,
					connecting: [],
				},
				{
					pid: 11,
					comm: 'node',
					state: 'S',
					stateName: 'sleeping',
					wchan: 'do_epoll_wait',
					sockets: 2,
					connecting: [
						{inode: 1, local: '127.0.0.1:1', remote: '10.0.0.1:5432', state: 'SYN_SENT'},
						{inode: 2, local: '127.0.0.1:2', remote: '10.0.0.1:5432', state: 'SYN_SENT'},
					],
				},
			]),
		).toBe(
			'pid 10 (npx) sleeping in do_wait: waiting for a child process to exit | pid 11 (node) sleeping in do_epoll_wait; 2 TCP connections still connecting (SYN_SENT) to 10.0.0.1:5432',
		);
	});
});

describe('readProcInfo', () => {
	it('returns undefined off Linux and for a pid that does not exist', () => {
		expect(readProcInfo(process.pid, 'darwin')).toBeUndefined();
		expect(readProcInfo(process.pid, 'win32')).toBeUndefined();
		expect(readProcInfo(2 ** 30, 'linux')).toBeUndefined();
	});

	it('shows a real blocked server: sleeping on a futex with TCP connections stuck in SYN_SENT', async () => {
		const server = spawnServer(['node', servers.path('blocked')], {env: testEnv(), clock: createClock()});
		let stderr = '';
		server.listen((e) => {
			if (e.type === 'data' && e.stream === 'stderr') stderr += Buffer.from(e.bytes).toString('utf8');
		});
		try {
			for (let i = 0; i < 50 && !stderr.includes('connecting to database'); i++)
				await new Promise((r) => setTimeout(r, 50));
			await new Promise((r) => setTimeout(r, 300));
			const port = /127\.0\.0\.1:(\d+)/.exec(stderr)?.[1];
			const info = readProcInfo(server.pid!);
			if (process.platform !== 'linux') {
				expect(info).toBeUndefined();
				return;
			}
			expect(info).toBeDefined();
			const root = info!.processes[0]!;
			expect(root.pid).toBe(server.pid);
			expect(root.comm).toBe('node');
			expect(root.state).toBe('S');
			expect(root.stateName).toBe('sleeping');
			expect(root.wchan).toMatch(/futex/);
			expect(root.waitingOn).toBe('waiting on a lock or another thread (futex)');
			expect(root.connecting.length).toBe(3);
			expect(new Set(root.connecting.map((c) => c.remote))).toEqual(new Set([`127.0.0.1:${port}`]));
			expect(root.sockets).toBeGreaterThanOrEqual(6);
			expect(info!.summary).toContain(`3 TCP connections still connecting (SYN_SENT) to 127.0.0.1:${port}`);
		} finally {
			server.kill('SIGKILL');
			await server.exited;
		}
	});
});

describe('parseSyscall', () => {
	it('names the call and its fd on x64 and arm64', () => {
		expect(
			parseSyscall('0 0x0 0x562f249b8bc0 0x2000 0x7f22451b5a58 0x0 0x0 0x7fff98bea768 0x7f22453162ad\n', 'x64'),
		).toEqual({number: 0, name: 'read', fd: 0});
		expect(parseSyscall('63 0x0 0xffff 0x2000 0x0 0x0 0x0 0xffff 0xffff', 'arm64')).toEqual({
			number: 63,
			name: 'read',
			fd: 0,
		});
		expect(parseSyscall('42 0x15 0x7ffd 0x10 0x0 0x0 0x0 0x7ffd 0x7f', 'x64')).toEqual({
			number: 42,
			name: 'connect',
			fd: 21,
		});
		expect(parseSyscall('202 0x7f 0x80 0x0 0x0 0x0 0x0 0x7ffd 0x7f', 'x64')).toEqual({number: 202, name: 'futex'});
		expect(parseSyscall('0 0x0 0x1 0x1 0x0 0x0 0x0 0x1 0x1', 'riscv64')).toEqual({number: 0});
		expect(parseSyscall('running')).toBeUndefined();
		expect(parseSyscall('-1 0x7ffd 0x7f')).toBeUndefined();
	});
});

describe('readProcInfo on a server blocked reading its stdin', () => {
	it('says it waits for more input on fd 0', async () => {
		const server = spawnServer(
			['node', '-e', "process.stderr.write('ready\\n'); require('fs').readSync(0, Buffer.alloc(16))"],
			{env: testEnv(), clock: createClock()},
		);
		let stderr = '';
		server.listen((e) => {
			if (e.type === 'data' && e.stream === 'stderr') stderr += Buffer.from(e.bytes).toString('utf8');
		});
		try {
			for (let i = 0; i < 50 && !stderr.includes('ready'); i++) await new Promise((r) => setTimeout(r, 50));
			await new Promise((r) => setTimeout(r, 200));
			const info = readProcInfo(server.pid!);
			if (process.platform !== 'linux') {
				expect(info).toBeUndefined();
				return;
			}
			const root = info!.processes[0]!;
			expect(root.state).toBe('S');
			if (process.arch === 'x64' || process.arch === 'arm64') {
				expect(root.syscall).toMatchObject({name: 'read', fd: 0});
				expect(root.waitingOn).toBe('blocked reading its stdin (fd 0): it waits for more input');
			}
			expect(root.connecting).toEqual([]);
		} finally {
			server.kill('SIGKILL');
			await server.exited;
		}
	});
});
