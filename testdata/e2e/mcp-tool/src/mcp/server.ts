// A minimal MCP server over stdio (newline-delimited JSON-RPC), with one tool: `lookup`.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const send = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);

const tools = [
  {
    name: 'lookup',
    description: 'Looks a word up in the plugin index.',
    inputSchema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
  },
];

createInterface({ input: process.stdin }).on('line', (line) => {
  let request: { id?: number | string; method?: string; params?: Record<string, any> };
  try {
    request = JSON.parse(line);
  } catch {
    return;
  }
  const { id, method, params } = request;
  if (id === undefined) return; // a notification
  switch (method) {
    case 'initialize':
      return send({
        jsonrpc: '2.0',
        id,
        result: {
          protocolVersion: params?.protocolVersion ?? '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: 'e2e-docs', version: '0.0.1' },
        },
      });
    case 'tools/list':
      return send({ jsonrpc: '2.0', id, result: { tools } });
    case 'tools/call': {
      const word = String(params?.arguments?.word ?? '');
      // `${pluginRoot}` in the config's env: the host's root (or, where a host expands it only in `cwd`,
      // `.`, the folder the server starts in), where the server's own bundle lies.
      const root = process.env.E2E_MCP_ROOT ?? '';
      const rooted = existsSync(join(root, 'hooks/handlers/src/mcp/server.mjs')) ? 'rooted' : `unrooted: ${root}`;
      const text = `E2E_MCP_ANSWER ${word} (${rooted})`;
      return send({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });
    }
    case 'ping':
      return send({ jsonrpc: '2.0', id, result: {} });
    default:
      return send({ jsonrpc: '2.0', id, error: { code: -32601, message: `no method ${method}` } });
  }
});
