import {Buffer} from 'node:buffer';
import {mkdtempSync, rmSync} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A connected pair of Unix-domain stream sockets: `theirs` is handed to a child process as one of its
 * stdio fds, `ours` is read with Node's `onread` option (the kernel writes straight into memory we
 * choose: no allocation and no copy per read). Node cannot create a socketpair(2) or give an existing
 * pipe an `onread`, so the pair is made by connecting to a listener in a fresh private (0700) directory
 * that is removed at once. The child sees the same kind of fd as with Node's own `stdio: 'pipe'`,
 * which libuv also creates as a socketpair on Unix.
 */
export interface SocketPair {
	/** Our end: read-only, half-open allowed (reading EOF does not shut down anything). */
	readonly ours: net.Socket;
	/** The child's end: pass it as `stdio[n]`, then destroy it (the child holds its own copy). */
	readonly theirs: net.Socket;
}

/** The longest Unix socket path that fits `sun_path` with its NUL (108 bytes on Linux, 104 on macOS and the BSDs). */
export const MAX_SOCKET_PATH_BYTES = process.platform === 'linux' ? 107 : 103;

/** Node's `onread` option: the buffer to read into next, and the callback for each read. */
export interface OnRead {
	readonly buffer: () => Uint8Array;
	readonly callback: (bytesRead: number, buffer: Uint8Array) => boolean;
}

/**
 * A read-only socket on `fd` (a pipe or socket we were given, such as our stdin) read through `onread`.
 * `new net.Socket({fd, onread})` is Node's documented constructor option (doc/api/net.md, `new
 * net.Socket([options])`, nodejs/node#54194), missing from @types/node's `SocketConstructorOpts`.
 * Half-open is allowed so reading EOF never shuts down a socket whose other direction is in use.
 * @throws whatever Node throws for an fd it cannot wrap (ERR_INVALID_FD_TYPE)
 */
export function inPlaceSocket(fd: number, onread: OnRead): net.Socket {
	const options: net.SocketConstructorOpts & {onread: OnRead} = {
		fd,
		readable: true,
		writable: false,
		allowHalfOpen: true,
		onread,
	};
	return new net.Socket(options);
}

/**
 * Make a {@link SocketPair} whose `ours` end reads through `onread`.
 * @param timeoutMs give up after this long (ms)
 * @returns undefined on Windows or when anything fails (a temp dir that cannot be made, a socket path
 *   too long): the caller then uses an ordinary pipe. Never throws.
 */
export async function createSocketPair(onread: OnRead, timeoutMs = 2000): Promise<SocketPair | undefined> {
	if (process.platform === 'win32') return undefined;
	let dir: string;
	try {
		dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-wire-'));
	} catch {
		return undefined;
	}

	const address = path.join(dir, 'pair.sock');
	if (Buffer.byteLength(address) > MAX_SOCKET_PATH_BYTES) {
		// Node (libuv) silently truncates a longer path: it would bind outside `dir` and leave a file behind.
		rmSync(dir, {recursive: true, force: true});
		return undefined;
	}
	const server = net.createServer({pauseOnConnect: true, allowHalfOpen: true});
	let ours: net.Socket | undefined;
	let timer: NodeJS.Timeout | undefined;
	try {
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(address, resolve);
		});
		const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
		const connecting = net.connect({path: address, allowHalfOpen: true, onread});
		ours = connecting;
		const connected = new Promise<void>((resolve, reject) => {
			connecting.once('connect', resolve);
			connecting.once('error', reject);
		});
		const timeout = new Promise<never>((_, reject) => {
			timer = setTimeout(() => reject(new Error('timed out')), timeoutMs);
		});
		const [theirs] = await Promise.race([Promise.all([accepted, connected]), timeout]);
		return {ours: connecting, theirs};
	} catch {
		ours?.destroy();
		return undefined;
	} finally {
		clearTimeout(timer);
		server.close();
		rmSync(dir, {recursive: true, force: true});
	}
}
