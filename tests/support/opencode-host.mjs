// Stands for OpenCode 1.18.33 in tests: loads agent-bundle's entry module (opencode/plugin.mjs of a
// copied artifact) as OpenCode loads a plugin, and calls its hooks the way OpenCode calls them, one
// step at a time from the JSON list on stdin: `{ hook, input, output }` for a hook
// (`tool.execute.before(input, output)`, `experimental.chat.system.transform(input, output)`), or
// `{ event }` for the `event` hook. Prints, per step, what OpenCode would see afterwards: the error a
// hook threw (its message) or null, and the output object as the hook left it.
//
//   node tests/support/opencode-host.mjs <artifact>/opencode/plugin.mjs <directory> < steps.json

import { pathToFileURL } from 'node:url';

const [plugin, directory] = process.argv.slice(2);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const steps = JSON.parse(Buffer.concat(chunks).toString('utf8'));

const module = await import(pathToFileURL(plugin).href);
const factories = Object.values(module).filter((value) => typeof value === 'function');
if (factories.length !== 1) throw new Error(`expected one plugin function, found ${factories.length}`);
const hooks = await factories[0]({ directory, worktree: '/', project: { id: 'global' }, client: {}, serverUrl: 'http://localhost:4096/' });

const results = [];
for (const step of steps) {
  let threw = null;
  try {
    if (step.event !== undefined) {
      await hooks.event?.({ event: step.event });
    } else {
      const hook = hooks[step.hook];
      if (hook) await hook(step.input, step.output);
    }
  } catch (error) {
    threw = error instanceof Error ? error.message : String(error);
  }
  results.push({ threw, output: step.output ?? null });
}
process.stdout.write(JSON.stringify(results));
