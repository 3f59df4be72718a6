import {Buffer} from 'node:buffer';
import type {Finding} from '../types.js';

/**
 * Bytes a finding carries itself because they crossed another process's pipe: the first bytes of a
 * Content-Length re-probe's reply (`detail.replyHead`, base64). Shown as an xxd dump
 * from offset 0 of that process's stdout.
 * @returns the bytes, or undefined when the finding carries none
 */
export function carriedBytes(finding: Pick<Finding, 'detail'>): Uint8Array | undefined {
	const head = finding.detail?.['replyHead'];
	return typeof head === 'string' && head !== '' ? Uint8Array.from(Buffer.from(head, 'base64')) : undefined;
}
