// The plugin's notes server: MCP over stdio (newline-delimited JSON-RPC), notes kept as files under
// NOTES_DIR (the plugin's `notes/` folder, wherever the host installed it).
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const dir = process.env.NOTES_DIR ?? 'notes';
const send = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);
const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

const tools = [
  { name: 'list_notes', description: 'Lists the notes.', inputSchema: { type: 'object', properties: {} } },
  {
    name: 'add_note',
    description: 'Adds a note.',
    inputSchema: { type: 'object', properties: { id: { type: 'string' }, body: { type: 'string' } }, required: ['id', 'body'] },
  },
  {
    name: 'delete_note',
    description: 'Deletes a note.',
    inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  },
];

function call(name: string, args: Record<string, string>) {
  mkdirSync(dir, { recursive: true });
  switch (name) {
    case 'list_notes':
      return text(readdirSync(dir).join('\n'));
    case 'add_note':
      writeFileSync(join(dir, `${args.id}.md`), args.body);
      return text(`added ${args.id}`);
    case 'delete_note':
      rmSync(join(dir, `${args.id}.md`), { force: true });
      return text(`deleted ${args.id}`);
    default:
      throw new Error(`no tool ${name}`);
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method, params } = JSON.parse(line);
  if (id === undefined) return;
  if (method === 'initialize') {
    const result = { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'notes', version: '1.0.0' } };
    return send({ jsonrpc: '2.0', id, result });
  }
  if (method === 'tools/list') return send({ jsonrpc: '2.0', id, result: { tools } });
  if (method === 'tools/call') return send({ jsonrpc: '2.0', id, result: call(params.name, params.arguments ?? {}) });
  send({ jsonrpc: '2.0', id, error: { code: -32601, message: `no method ${method}` } });
});
