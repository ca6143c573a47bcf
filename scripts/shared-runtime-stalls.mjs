#!/usr/bin/env node
// Times the shared runtime's answers while clients stall on its socket (issue 44). Starts the
// artifact's server in a fresh runtime folder, opens N connections that each send one byte (every
// other one) or nothing and then nothing more, and times 5 requests sent straight on the socket and
// 5 calls of the prompt route's wrapper (shared-only, no fallback). With `churn`, each stalled
// connection the server closes connects again at once (a client in a loop), so a request may itself
// be closed before it is read: on the socket that shows as `dropped`, the wrapper asks again.
//
//   cargo agent-bundle build --root testdata/bundles/shared-runtime --output /tmp/art
//   node scripts/shared-runtime-stalls.mjs /tmp/art 1000 [churn]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

const [artifact, count = '0', mode] = process.argv.slice(2);
const stalled = Number(count);
const churn = mode === 'churn';
const dir = fs.mkdtempSync('/tmp/ab-stalls-');
fs.chmodSync(dir, 0o700);
const env = { ...process.env, AGENT_BUNDLE_RUNTIME_DIR: dir };
const entry = `${artifact}/mcp/${fs.readdirSync(`${artifact}/mcp`).find((name) => name.endsWith('-runtime.mjs'))}`;
const server = spawn(process.execPath, [entry], { env, stdio: ['pipe', 'ignore', 'inherit'] });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let name;
for (let i = 0; i < 1000 && name === undefined; i += 1) {
  await sleep(20);
  name = fs.readdirSync(dir).find((file) => file.endsWith('.sock'));
}
if (name === undefined) throw new Error('no socket within 20 s');
const socket = `${dir}/${name}`;
await sleep(200);

let closed = 0;
const stall = (i) => new Promise((resolve) => {
  const connection = net.createConnection(socket);
  connection.resume();
  let connected = false;
  connection.on('connect', () => {
    connected = true;
    if (i % 2 === 0) connection.write('{');
    resolve();
  });
  connection.on('error', () => {
    if (!connected) setTimeout(() => stall(i).then(resolve), 10);
  });
  connection.on('close', () => {
    if (!connected) return;
    closed += 1;
    if (churn) stall(i);
  });
});
for (let i = 0; i < stalled; i += 1) await stall(i);
await sleep(300);

const epoch = /epoch: "([0-9a-f]+)"/.exec(fs.readFileSync(entry, 'utf8'))[1];
const request = `${JSON.stringify({
  protocolVersion: 1, artifactEpoch: epoch, event: 'tool/before', hostContractRevision: 'claude-code@2.1.332', target: 'claude',
  native: { session_id: 's', transcript_path: '/tmp/t.jsonl', cwd: '/tmp', hook_event_name: 'PreToolUse', tool_name: 'Bash',
    tool_input: { command: 'ls' }, tool_use_id: 't' },
})}\n`;
const onSocket = () => new Promise((resolve) => {
  const started = performance.now();
  let text = '';
  const connection = net.createConnection(socket, () => connection.write(request));
  connection.on('data', (chunk) => { text += chunk; });
  connection.on('error', () => {});
  connection.on('close', () => {
    const reply = text === '' ? undefined : JSON.parse(text);
    resolve([performance.now() - started, reply === undefined ? 'dropped' : reply.code ?? reply.status]);
  });
});
const throughWrapper = () => new Promise((resolve) => {
  const started = performance.now();
  const wrapper = spawn(process.execPath, [`${artifact}/hooks/event-route-prompt-submit.mjs`], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  wrapper.stdout.resume();
  wrapper.stderr.on('data', (chunk) => { stderr += chunk; });
  wrapper.stdin.end(JSON.stringify({ session_id: 's', transcript_path: '/tmp/t.jsonl', cwd: '/tmp', hook_event_name: 'UserPromptSubmit', prompt: 'hello' }));
  wrapper.on('close', (code) => resolve([performance.now() - started, code === 0 ? 'ok' : `failed: ${stderr.trim()}`]));
});
const socketTimes = [];
for (let i = 0; i < 5; i += 1) socketTimes.push(await onSocket());
const wrapperTimes = [];
for (let i = 0; i < 5; i += 1) wrapperTimes.push(await throughWrapper());
const show = (times) => times.map(([ms, outcome]) => `${ms.toFixed(1)} ms ${outcome}`).join(', ');
console.log(`${stalled} stalled${churn ? ' (reconnecting)' : ''}, ${closed} closed by the server`);
console.log(`  on the socket: ${show(socketTimes)}`);
console.log(`  through the wrapper: ${show(wrapperTimes)}`);
server.kill('SIGKILL');
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
