// A minimal MCP server over stdio (newline-delimited JSON-RPC), with one tool, `lookup`, which an
// mcp_tool hook calls: each call is recorded in the session's folder, and a word naming marker.txt is
// answered with a PreToolUse denial, as a command hook would print it.
import { appendFileSync } from 'node:fs';
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
      appendFileSync(join(process.cwd(), 'mcp-hook-called.txt'), `${JSON.stringify(params)}\n`);
      const text = word.includes('marker')
        ? JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'E2E_MCP_HOOK_DENY ' + word } })
        : `E2E_MCP_ANSWER ${word}`;
      return send({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });
    }
    case 'ping':
      return send({ jsonrpc: '2.0', id, result: {} });
    default:
      return send({ jsonrpc: '2.0', id, error: { code: -32601, message: `no method ${method}` } });
  }
});
