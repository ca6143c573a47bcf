// Drives Amp's own plugin runtime (the plugin-runtime.ts its binary runs under its Bun, captured
// by `amp plugins exec`) the way Amp does: over its stdin and stdout, one JSON message a line.
//   AB_STEPS='[…]' node amp-runtime.mjs <amp> <plugin-runtime.ts> <plugin index.js> <workspace>
// Each step is `{ hookEvent, event }`: a request for tool.call, tool.result, agent.start and
// agent.end (its result printed), an event (`method: event`) for session.start. Prints, per step,
// `{ result, error }`, and the runtime's stderr lines at the end.
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';

const [amp, runtime, plugin, workspace] = process.argv.slice(2);
const steps = JSON.parse(process.env.AB_STEPS ?? '[]');

const child = spawn(amp, [runtime, plugin], {
  cwd: workspace,
  env: { ...process.env, BUN_BE_BUN: '1', AMP_PLUGIN_URI: pathToFileURL(plugin).href, AMP_PLUGIN_NAME: 'agent-bundle' },
  stdio: ['pipe', 'pipe', 'pipe'],
});
const stderr = [];
child.stderr.on('data', (d) => stderr.push(d.toString('utf8')));
const timer = setTimeout(() => { process.stderr.write(`the plugin runtime did not finish in time\n${stderr.join('')}`); child.kill('SIGKILL'); process.exit(3); }, 60000);
const send = (message) => child.stdin.write(`${JSON.stringify(message)}\n`);
const waiting = new Map();
let ready;
const readyNow = new Promise((resolve) => { ready = resolve; });
let buffer = '';
child.stdout.on('data', (d) => {
  buffer += d.toString('utf8');
  const lines = buffer.split('\n');
  buffer = lines.pop();
  for (const line of lines) {
    if (line.trim() === '') continue;
    const message = JSON.parse(line);
    if (message.type === 'request') {
      // What Amp tells a plugin of itself; any other request of the plugin's is answered empty.
      const result = message.method === 'client.info'
        ? { ampURL: 'http://127.0.0.1:9', workspaceRoot: pathToFileURL(workspace).href, authenticatedUser: null, executorKind: 'local' }
        : undefined;
      send({ type: 'response', id: message.id, result });
    } else if (message.type === 'event' && message.event === 'runtime.ready') {
      ready();
    } else if (message.type === 'response') {
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    }
  }
});
child.on('exit', (code) => { for (const resolve of waiting.values()) resolve({ error: `the runtime exited (${code})` }); });
await readyNow;
const results = [];
let id = 0;
for (const step of steps) {
  id += 1;
  const request = step.hookEvent === 'session.start'
    ? { type: 'request', id: String(id), method: 'event', params: { event: step.hookEvent, data: step.event } }
    : { type: 'request', id: String(id), method: step.hookEvent, params: step.event };
  const answer = await new Promise((resolve) => { waiting.set(String(id), resolve); send(request); });
  results.push({ result: answer.result ?? null, error: answer.error ?? null });
}
id += 1;
await new Promise((resolve) => { waiting.set(String(id), resolve); send({ type: 'request', id: String(id), method: 'dispose', params: {} }); });
child.stdin.end();
clearTimeout(timer);
process.stdout.write(JSON.stringify({ results, stderr: stderr.join('') }));
child.kill();
