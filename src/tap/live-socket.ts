import {Buffer} from 'node:buffer';
import path from 'node:path';
import {chmodSync, closeSync, openSync, readSync, renameSync, unlinkSync} from 'node:fs';
import net from 'node:net';
import {MAX_SOCKET_PATH_BYTES} from '../process/socket-pair.js';

/**
 * The live-attach server of a tap (docs/cli.md#attach), run by the capture worker. It listens on a Unix
 * socket in the 0700 runtime directory (a named pipe on Windows; never TCP) and sends each client the
 * capture file from its first byte, then every record as it is appended: the capture file is the single
 * source, so a client that attaches late, or reads slowly, gets exactly the same bytes as the file.
 *
 * Protocol: the server only writes; it sends the NDJSON records of the capture (record-codec.ts format)
 * and ends the connection after the last record once the session is over. Clients never write.
 */

/** The capture file as the server sees it. */
export interface LiveSource {
	/** The capture file (read for catch-up). */
	readonly path: string;
	/** Bytes appended to the file so far. */
	size(): number;
}

/** Per-client state: how many bytes of the file it has been sent. */
interface Client {
	readonly socket: net.Socket;
	sent: number;
	isPumping: boolean;
}

/** Live bytes are written straight to a client only while its socket buffers less than this. */
const LIVE_HIGH_WATER = 1024 * 1024;
/** Catch-up read size (bytes). */
const READ_BYTES = 256 * 1024;

/** Serves a growing capture file to attach clients. */
export class LiveSocketServer {
	private readonly server: net.Server;
	private readonly clients = new Set<Client>();
	private isClosing = false;
	private isListening = false;
	private readFd: number | undefined;
	private drained: (() => void) | undefined;

	/**
	 * @param address Unix socket path or Windows pipe name
	 * @param source the capture file and its current size
	 * @param onWarning one line per problem (never throws)
	 */
	constructor(
		readonly address: string,
		private readonly source: LiveSource,
		private readonly onWarning: (message: string) => void,
	) {
		this.server = net.createServer((socket) => this.accept(socket));
	}

	/**
	 * Start listening. A stale socket file at the address (a tap with this pid that was killed) is removed
	 * first. The socket is chmod-ed 0600.
	 * @returns false (after one warning) when it cannot listen
	 */
	async listen(): Promise<boolean> {
		if (process.platform !== 'win32' && Buffer.byteLength(this.address) > MAX_SOCKET_PATH_BYTES) {
			// Node (libuv) would silently bind a truncated path outside the private directory.
			this.onWarning(
				`live attach unavailable: ${this.address} is longer than a Unix socket path may be (${MAX_SOCKET_PATH_BYTES} bytes); set XDG_RUNTIME_DIR to a shorter directory`,
			);
			return false;
		}

		if (process.platform !== 'win32') {
			try {
				unlinkSync(this.address);
			} catch {
				// not there: fine
			}
		}

		// On Unix the socket is bound under a hidden name (not a `<name>-<pid>.sock` that `sessions` lists),
		// made 0600, and only then renamed into place: it is never visible with the umask's wider mode.
		const bound =
			process.platform === 'win32' ? this.address : path.join(path.dirname(this.address), `.bind-${process.pid}`);
		if (bound !== this.address) {
			try {
				unlinkSync(bound);
			} catch {
				// not there: fine
			}
		}
		const ok = await new Promise<boolean>((resolve) => {
			const onError = (error: Error): void => {
				this.onWarning(`live attach unavailable: cannot listen on ${this.address} (${error.message})`);
				resolve(false);
			};
			this.server.once('error', onError);
			this.server.listen(bound, () => {
				this.server.off('error', onError);
				resolve(true);
			});
		});
		if (!ok) return false;
		if (bound !== this.address) {
			try {
				chmodSync(bound, 0o600);
				renameSync(bound, this.address);
			} catch (error) {
				this.server.close();
				try {
					unlinkSync(bound);
				} catch {
					// gone already
				}
				this.onWarning(
					`live attach unavailable: cannot place the socket at ${this.address} (${(error as Error).message})`,
				);
				return false;
			}
		}
		this.server.on('error', (error) => this.onWarning(`live socket ${this.address}: ${error.message}`));
		this.isListening = true;
		this.server.unref();

		return true;
	}

	/** Number of connected clients. */
	get clientCount(): number {
		return this.clients.size;
	}

	/**
	 * New bytes were appended to the file at `start` (the file size before them). Clients that are caught
	 * up and not congested get them at once; the others catch up from the file.
	 */
	appended(bytes: Uint8Array, start: number): void {
		for (const client of this.clients) {
			if (client.isPumping) continue;
			if (client.sent === start && client.socket.writableLength < LIVE_HIGH_WATER) {
				client.socket.write(bytes);
				client.sent += bytes.length;
			} else {
				this.pump(client);
			}
		}
	}

	/**
	 * The session is over: stop accepting, let connected clients catch up to the end of the file, end
	 * them, and remove the socket. Clients still behind after `graceMs` are cut off (the file has it all).
	 */
	async close(graceMs: number): Promise<void> {
		this.isClosing = true;
		if (this.isListening) this.server.close();
		for (const client of this.clients) {
			if (!client.isPumping) this.finishClient(client);
		}

		if (this.clients.size > 0) {
			await new Promise<void>((resolve) => {
				const timer = setTimeout(resolve, graceMs);
				this.drained = () => {
					clearTimeout(timer);
					resolve();
				};
			});
		}

		for (const client of this.clients) client.socket.destroy();
		this.clients.clear();
		if (this.readFd !== undefined) {
			try {
				closeSync(this.readFd);
			} catch {
				// already closed
			}

			this.readFd = undefined;
		}

		if (this.isListening && process.platform !== 'win32') {
			try {
				unlinkSync(this.address);
			} catch {
				// gone already
			}
		}
	}

	private accept(socket: net.Socket): void {
		if (this.isClosing) {
			socket.destroy();
			return;
		}

		const client: Client = {socket, sent: 0, isPumping: false};
		this.clients.add(client);
		socket.on('error', () => socket.destroy());
		socket.on('close', () => {
			this.clients.delete(client);
			if (this.clients.size === 0) this.drained?.();
		});
		// Clients never write; read and discard so a chatty one cannot fill our buffers.
		socket.on('data', () => undefined);
		this.pump(client);
	}

	/** Send the client the file from `client.sent` to its current end, respecting backpressure. */
	private pump(client: Client): void {
		if (client.isPumping) return;
		client.isPumping = true;
		const step = (): void => {
			while (!client.socket.destroyed) {
				const size = this.source.size();
				if (client.sent >= size) break;
				const length = Math.min(READ_BYTES, size - client.sent);
				const buffer = Buffer.allocUnsafe(length);
				let read: number;
				try {
					this.readFd ??= openSync(this.source.path, 'r');
					read = readSync(this.readFd, buffer, 0, length, client.sent);
				} catch (error) {
					this.onWarning(`live attach: cannot read the capture (${(error as Error).message})`);
					client.socket.destroy();
					return;
				}

				if (read === 0) break;
				client.sent += read;
				if (!client.socket.write(read === length ? buffer : buffer.subarray(0, read))) {
					client.socket.once('drain', step);
					return;
				}
			}

			client.isPumping = false;
			if (this.isClosing) this.finishClient(client);
		};
		step();
	}

	private finishClient(client: Client): void {
		if (client.sent >= this.source.size()) client.socket.end();
		else this.pump(client);
	}
}
