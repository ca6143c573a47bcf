// Drives the plugin's warm server (`mcp/<plugin>-runtime.mjs` of a copied artifact) as Claude Code
// does: starts it with node, speaks MCP on its stdio (initialize, tools/list), then sends each call
// of stdin's `rounds` (a list of rounds, each a list of `tools/call` arguments, sent at once) and
// waits for the round's answers before the next. Prints `{ tools, answers }`: per round, the answers
// in the order they arrived, each `{ index, result }`. Bounded: every answer within 30 s.
//
//   node tests/support/warm-server-client.mjs <artifact>/mcp/<plugin>-runtime.mjs < rounds.json
import { spawn } from 'node:child_process';

const [entry] = process.argv.slice(2);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { rounds } = JSON.parse(Buffer.concat(chunks).toString('utf8'));

const server = spawn(process.execPath, [entry], { stdio: ['pipe', 'pipe', 'pipe'] });
let stderr = '';
server.stderr.on('data', (chunk) => { stderr += chunk; });
let buffered = '';
const waiting = new Map();
server.stdout.on('data', (chunk) => {
  buffered += chunk;
  let newline;
  while ((newline = buffered.indexOf('\n')) !== -1) {
    const line = buffered.slice(0, newline);
    buffered = buffered.slice(newline + 1);
    const message = JSON.parse(line);
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  }
});
let nextId = 0;
const request = (method, params) => new Promise((resolve, reject) => {
  const id = ++nextId;
  const timer = setTimeout(() => reject(new Error(`no answer to ${method} within 30 s; stderr: ${stderr}`)), 30000);
  waiting.set(id, (message) => { clearTimeout(timer); resolve(message); });
  server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
});

await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '0' } });
const tools = (await request('tools/list', {})).result.tools;
const answers = [];
for (const round of rounds) {
  const arrived = [];
  await Promise.all(round.map((args, index) => request('tools/call', { name: 'hook', arguments: args })
    .then((message) => arrived.push({ index, result: message.result ?? { error: message.error } }))));
  answers.push(arrived);
}
server.stdin.end();
server.kill();
process.stdout.write(JSON.stringify({ tools, answers }));
