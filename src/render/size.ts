/**
 * A byte count for prose in binary units, as every progress line and listing of mcp-wire gives sizes
 * (the README's units: KiB, MiB, GiB): `420 B`, `1.2 KiB`, `3.4 MiB`, `1.1 GiB`. Pure.
 * @param bytes a non-negative number of bytes
 */
export function formatBytes(bytes: number): string {
	if (bytes < 1024) {
		return `${bytes} B`;
	}

	if (bytes < 1024 ** 2) {
		return `${(bytes / 1024).toFixed(1)} KiB`;
	}

	return bytes < 1024 ** 3 ? `${(bytes / 1024 ** 2).toFixed(1)} MiB` : `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
}
