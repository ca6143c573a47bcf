// agent-bundle's Cline hook file, protocol 1. Written by `cargo agent-bundle build` and placed by
// `cargo agent-bundle install`; do not edit: install rewrites it, and uninstall removes it when no
// plugin it runs is left.
//
// Cline CLI runs each file in its hooks folders named after one of its hooks (this file's name:
// PreToolUse, PostToolUse, TaskStart, …) with node, the hook's payload on stdin, and reads its
// answer from stdout. A hooks folder is shared, and holds one file of a name: this one runs the
// hooks of every agent-bundle plugin there, each in the folder `agent-bundle/<plugin>/` beside it
// (or the plugin whose folder this is, when the artifact's cline/ folder is the hooks folder), in
// the order of their names. Each plugin's `plugin.mjs` decides the payload with its own runtime; the
// first that cancels the call ends it (the later ones do not run), a new input is what the later
// plugins see, and the contexts are joined.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

// The plugin folders this file runs, each with the hook document that says which events it takes.
function plugins() {
  const shared = path.join(here, 'agent-bundle');
  let names = [];
  try {
    names = fs.readdirSync(shared).sort();
  } catch {
    // no plugin installed beside this file
  }
  const folders = [here, ...names.map((name) => path.join(shared, name))];
  return folders.filter((folder) => fs.existsSync(path.join(folder, 'plugin.mjs')));
}

function takes(folder, native) {
  try {
    const document = JSON.parse(fs.readFileSync(path.join(folder, 'hooks.json'), 'utf8'));
    return (document.hooks?.[native] ?? []).length > 0;
  } catch {
    return true;
  }
}

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  let payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const answer = {};
  const context = [];
  for (const folder of plugins()) {
    if (!takes(folder, payload.hookName)) continue;
    let given;
    try {
      const { AgentBundle } = await import(pathToFileURL(path.join(folder, 'plugin.mjs')).href);
      given = await AgentBundle.answer(payload);
    } catch (error) {
      console.error(`agent-bundle: the hooks of ${path.basename(folder)} failed: ${error?.message ?? error}`);
      continue;
    }
    if (given === undefined) continue;
    if (given.cancel === true) {
      Object.assign(answer, { cancel: true, errorMessage: given.errorMessage });
      break;
    }
    if (given.overrideInput !== undefined && payload.tool_call !== undefined) {
      answer.overrideInput = given.overrideInput;
      payload = { ...payload, tool_call: { ...payload.tool_call, input: given.overrideInput } };
    }
    if (given.contextModification !== undefined) context.push(given.contextModification);
  }
  if (answer.cancel !== true && context.length > 0) answer.contextModification = context.join('\n\n');
  return answer;
}

// A handler's leftover timers do not hold Cline's call: the process ends once it has answered.
main().then(
  (answer) => {
    const text = Object.keys(answer).length === 0 ? '' : JSON.stringify(answer);
    process.stdout.write(text, () => process.exit(0));
  },
  (error) => {
    console.error(`agent-bundle: ${error?.message ?? error}`);
    process.exit(1);
  },
);
