// Stands for Amp's plugin runtime in tests: loads agent-bundle's plugin (amp/index.js of a copied
// artifact) as Amp loads one, calling its default export with a plugin API that records the handler
// it registers for each event (Amp keeps one per event and plugin), and hands it events one step at
// a time from the JSON list on stdin: `{ hookEvent, event }`, the event as Amp's plugin API types it
// (`amp plugins show-docs`: a thread, and a tool call's `tool`, `input` and `toolUseID`). The
// handler's context tells the workspace as Amp's does (`ctx.system.workspaceRoot`, a file URI).
// Prints, per step, what the handler returned (a request event's answer) or the error it threw, and
// the events registered. The real-host suite runs the same plugin in Amp's own runtime.
//
//   node tests/support/amp-host.mjs <artifact>/amp/index.js <workspace> < steps.json

import { pathToFileURL } from 'node:url';

const [plugin, workspace] = process.argv.slice(2);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const steps = JSON.parse(Buffer.concat(chunks).toString('utf8'));

const handlers = new Map();
const amp = {
  on(event, handler) {
    if (handlers.has(event)) throw new Error(`a second handler for ${event}`);
    handlers.set(event, handler);
  },
  logger: { log: () => {} },
};
const module = await import(pathToFileURL(plugin).href);
if (typeof module.default !== 'function') throw new Error('the plugin has no default export');
await module.default(amp);

const workspaceRoot = { toString: () => pathToFileURL(workspace).href };
const results = [];
for (const step of steps) {
  const ctx = { system: { workspaceRoot }, thread: { id: step.event.thread?.id }, logger: amp.logger };
  let threw = null;
  let returned = null;
  try {
    const handler = handlers.get(step.hookEvent);
    const value = handler === undefined ? undefined : await handler(step.event, ctx);
    returned = value === undefined ? null : value;
  } catch (error) {
    threw = error instanceof Error ? error.message : String(error);
  }
  results.push({ threw, returned, registered: [...handlers.keys()].sort() });
}
process.stdout.write(JSON.stringify(results));
