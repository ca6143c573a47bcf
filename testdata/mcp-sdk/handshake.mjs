// Connects the official MCP SDK client to a generated server over stdio, as a host would, and prints
// what the server said about itself and its tools. Usage: node handshake.mjs <server.mjs>
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [server] = process.argv.slice(2);
const transport = new StdioClientTransport({ command: process.execPath, args: [server], env: { ...process.env }, stderr: 'inherit' });
const client = new Client({ name: 'agent-bundle-tests', version: '1.0.0' });
const timer = setTimeout(() => {
  console.error('the handshake did not finish within 10 s');
  process.exit(1);
}, 10_000);
await client.connect(transport);
const { tools } = await client.listTools();
const report = { server: client.getServerVersion(), capabilities: client.getServerCapabilities(), tools };
await client.close();
clearTimeout(timer);
console.log(JSON.stringify(report));
