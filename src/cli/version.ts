import {createRequire} from 'node:module';

const require = createRequire(import.meta.url);

/** mcp-wire's version, read from package.json. */
export const VERSION: string = (require('../../package.json') as {version: string}).version;
