// Runs the runtime's core (src/pipeline/emit/runtime/*.mjs joined, the file a Claude Code mod folder
// gets) the way a host without Node does, for tests/it/runtime_core.rs: in a fresh realm that holds only the ECMAScript
// built-ins and what Claude Code's hooks-module worker adds (AbortController, AbortSignal,
// TextEncoder, TextDecoder, URL, URLSearchParams, atob, btoa, structuredClone, crypto, performance
// with `now` only, console): no process, Buffer, require, timers or import(). The core, and the
// handler's bundle of a built wrapper, are evaluated there as modules that may import nothing; then
// the core's decideInProcess decides each case with the wrapper's contract, and the decisions go to
// stdout as JSON. Usage: node --experimental-vm-modules bare-core.mjs <core.mjs> <wrapper.mjs> <cases.json>
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

const [corePath, wrapperPath, casesPath] = process.argv.slice(2);

const WEB = [
  'AbortController', 'AbortSignal', 'TextEncoder', 'TextDecoder', 'URL', 'URLSearchParams', 'atob', 'btoa',
  'structuredClone', 'crypto', 'console',
];
const globals = Object.fromEntries(WEB.map((name) => [name, globalThis[name]]));
const clock = performance;
globals.performance = Object.freeze({ now: () => clock.now() });
const context = vm.createContext(globals);
for (const name of ['process', 'Buffer', 'require', 'setTimeout', 'clearTimeout', 'setInterval', 'setImmediate', 'global']) {
  if (vm.runInContext(`typeof ${name}`, context) !== 'undefined') {
    throw new Error(`the bare realm holds ${name}`);
  }
}

// A module of the bare realm, from its text: it may import nothing (the realm has no loader).
async function bareModule(text, identifier) {
  const module = new vm.SourceTextModule(text, { context, identifier });
  if (module.dependencySpecifiers.length > 0) {
    throw new Error(`${identifier} imports ${module.dependencySpecifiers.join(', ')}, which a host without Node cannot load`);
  }
  await module.link(() => {
    throw new Error(`${identifier} imports a module`);
  });
  await module.evaluate();
  return module.namespace;
}

const core = await bareModule(readFileSync(corePath, 'utf8'), pathToFileURL(corePath).href);

// The wrapper's contract and its handler's bundle, as the build wrote them.
const wrapper = readFileSync(wrapperPath, 'utf8');
const contract = /\n(?:export )?const contract = (\{[\s\S]*?\n\});\n/.exec(wrapper);
const specifier = /\nawait runHook\(contract, \(\) => import\(("[^"]+")\)\);\n/.exec(wrapper)
  ?? /\nexport const loadHandler = \(\) => import\(("[^"]+")\);\n/.exec(wrapper);
if (!contract || !specifier) throw new Error(`${wrapperPath} does not have the generated wrapper's shape`);
const handlerUrl = new URL(JSON.parse(specifier[1]), pathToFileURL(wrapperPath));
const handler = await bareModule(readFileSync(handlerUrl, 'utf8'), handlerUrl.href);
// A handler that never answers, for the deadline.
const hanging = await bareModule('export default () => new Promise(() => {});', 'hanging.mjs');

const results = [];
for (const { envelope, handler: which, timer } of JSON.parse(readFileSync(casesPath, 'utf8'))) {
  const asked = [];
  // The host's clock (a Claude Code mod's is its engine's): here it fires at once, or after the
  // time asked (`timer: "real"`).
  const after = timer
    ? (ms, fn) => {
      asked.push(ms);
      const pending = setTimeout(fn, timer === 'real' ? ms : 0);
      return () => clearTimeout(pending);
    }
    : undefined;
  const module = which === 'hanging' ? hanging : handler;
  const decision = await core.decideInProcess(JSON.parse(contract[1]), envelope, () => module, after);
  results.push({ ...decision, timerAsked: asked });
}
process.stdout.write(JSON.stringify(results));
