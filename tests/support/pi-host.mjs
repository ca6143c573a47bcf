// Stands for Pi 0.73.1 in tests: loads agent-bundle's extension (pi/extension.mjs of a copied
// artifact) as Pi loads one, calling its default export with an extension API that records what the
// extension registers and sends, and emits events to it the way Pi does, one step at a time from the
// JSON list on stdin: `{ event, ctx }` as a handler receives them (the recordings in
// testdata/envelopes/pi hold both; `ctx` is the recorded summary: its `cwd` and `sessionId`). Each of
// the extension's handlers of the event's type runs in turn, awaited, as Pi runs them. Prints, per
// step, what Pi would see afterwards: the error a handler threw (its message) or null, what the
// handlers returned, the event as they left it (a tool_call's input is edited in place), and the
// messages the extension sent (`pi.sendMessage`) with their options.
//
//   node tests/support/pi-host.mjs <artifact>/pi/extension.mjs < steps.json

import { pathToFileURL } from 'node:url';

const [extension] = process.argv.slice(2);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const steps = JSON.parse(Buffer.concat(chunks).toString('utf8'));

const handlers = new Map();
let sent = [];
const pi = {
  on(event, handler) {
    if (!handlers.has(event)) handlers.set(event, []);
    handlers.get(event).push(handler);
  },
  async sendMessage(message, options) {
    sent.push({ message, options });
  },
};
const module = await import(pathToFileURL(extension).href);
if (typeof module.default !== 'function') throw new Error('the extension has no default export');
await module.default(pi);

const results = [];
for (const step of steps) {
  const ctx = {
    cwd: step.ctx?.cwd ?? '/w/project',
    hasUI: false,
    isIdle: () => true,
    sessionManager: { getSessionId: () => step.ctx?.sessionId ?? 'session-1' },
  };
  sent = [];
  let threw = null;
  const returned = [];
  try {
    for (const handler of handlers.get(step.event.type) ?? []) {
      const value = await handler(step.event, ctx);
      if (value !== undefined) returned.push(value);
    }
  } catch (error) {
    threw = error instanceof Error ? error.message : String(error);
  }
  results.push({ threw, returned, event: step.event, sent, registered: [...handlers.keys()].sort() });
}
process.stdout.write(JSON.stringify(results));
