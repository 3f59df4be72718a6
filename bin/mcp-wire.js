#!/usr/bin/env node
// mcp-wire: xxd for MCP. The CLI is dist/bundle/mcp-wire.js: src/cli/main.ts as built by `npm run build`
// (tsc, then scripts/bundle.mjs joins the modules into a few chunks so that it starts fast).
import {main} from '../dist/bundle/mcp-wire.js';

process.exitCode = await main(process.argv);
