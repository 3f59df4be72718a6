import type {ClientErrorModule} from './explain.js';

/**
 * The client modules whose own error texts `mcp-wire explain` walks after the rules' ({@link ClientErrorModule}:
 * any module with `errors: readonly ClientErrorText[]`). To teach explain a client's texts, export `errors` from
 * the client's module and add the module here, in the order its texts should be tried. Nothing else changes.
 */
export const CLIENT_ERROR_MODULES: readonly ClientErrorModule[] = [];
