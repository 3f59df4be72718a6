#!/usr/bin/env node
// The real TS SDK client, for the probe bench: connect (initialize + initialized), listTools, close.
// Usage: sdk-client.mjs <server.mjs>
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';

const client = new Client({name: 'bench', version: '0'});
await client.connect(new StdioClientTransport({command: process.execPath, args: [process.argv[2]], stderr: 'ignore'}));
await client.listTools();
await client.close();
