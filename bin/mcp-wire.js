#!/usr/bin/env node
// mcp-wire: xxd for MCP. The CLI lives in dist/cli/main.js (built by `npm run build`).
import {main} from '../dist/cli/main.js';

process.exitCode = await main(process.argv);
