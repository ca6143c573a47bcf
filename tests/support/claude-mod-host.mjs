// Stands for Claude Code 2.1.332's hooks module engine in tests: loads a plugin's hooks module
// (`claude-mod/hooks/agent-bundle-mod.mjs` of a copied artifact), calls its `register(on)` the way the
// engine does (recording each `on(event, matcher?, hook)` and its `.catch` handler), then raises
// `tool.call` for each step of the JSON list on stdin through the matching hooks, as the engine chains
// them: `{ tool, tool_use_id, ...arguments, result? }`. Beneath the hooks stands the tool: it answers
// with the step's `result` (default `{ result: { stdout: "ran" }, text: "ran" }`) and records the
// event it ran with. A hook that throws is answered by its `.catch` (with `next.called` and
// `next.error`), else skipped, as the engine does. Prints, per step, what the call settled to, the
// events the tool ran with, and the lines the hooks logged.
//
//   node tests/support/claude-mod-host.mjs <folder>/hooks/agent-bundle-mod.mjs < steps.json

import { pathToFileURL } from 'node:url';

const [module] = process.argv.slice(2);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const steps = JSON.parse(Buffer.concat(chunks).toString('utf8'));

const registrations = [];
const { register } = await import(pathToFileURL(module).href);
register((event, ...rest) => {
  const hook = rest.pop();
  const registration = { event, matcher: rest[0], hook, onError: undefined };
  registrations.push(registration);
  return {
    catch(handler) {
      registration.onError = handler;
      return this;
    },
  };
});

// A matcher as the engine reads one: each key's leaf is `===`, a RegExp tests the value as a string.
function matches(matcher, e) {
  if (matcher === undefined) return true;
  return Object.entries(matcher).every(([key, want]) =>
    want instanceof RegExp ? want.test(String(e[key])) : Array.isArray(want) ? want.includes(e[key]) : want === e[key]);
}

const logs = [];
const $ = {
  session: {
    id: async () => 'session-mod-test',
    cwd: async () => '/w/project',
    info: async () => ({ transcriptPath: '/w/transcript.jsonl' }),
  },
  clock: {
    after: (ms, fn) => {
      const timer = setTimeout(fn, ms);
      return { cancel: () => clearTimeout(timer) };
    },
  },
  ui: { log: (text, options) => logs.push({ text, to: options?.to ?? 'transcript' }) },
};

async function dispatch(hooks, e, bottom) {
  if (hooks.length === 0) return bottom(e);
  const [registration, ...beneath] = hooks;
  let settled;
  const next = async (given) => {
    next.called = true;
    settled ??= dispatch(beneath, given, bottom);
    return settled;
  };
  next.called = false;
  try {
    return await registration.hook($, Object.freeze({ ...e }), next);
  } catch (error) {
    if (registration.onError === undefined) return next.called ? settled : dispatch(beneath, e, bottom);
    next.error = { kind: 'throw', message: error instanceof Error ? error.message : String(error), budget: 1000 };
    const replay = async (given) => (next.called ? settled : dispatch(beneath, given, bottom));
    replay.called = next.called;
    replay.error = next.error;
    return registration.onError($, Object.freeze({ ...e }), replay);
  }
}

const results = [];
for (const step of steps) {
  const { result, ...e } = step;
  const ran = [];
  const bottom = async (given) => {
    ran.push(given);
    return result ?? { result: { stdout: 'ran' }, text: 'ran' };
  };
  const hooks = registrations.filter((r) => r.event === 'tool.call' && matches(r.matcher, e));
  logs.length = 0;
  let settled;
  let threw = null;
  try {
    settled = await dispatch(hooks, e, bottom);
  } catch (error) {
    threw = error instanceof Error ? error.message : String(error);
  }
  results.push({ settled: settled ?? null, threw, ran, logs: [...logs] });
}
process.stdout.write(JSON.stringify({
  registrations: registrations.map((r) => ({ event: r.event, matcher: r.matcher === undefined ? null : String(r.matcher.tool), catches: r.onError !== undefined })),
  results,
}));
