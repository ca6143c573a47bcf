// Runs generated cases through an artifact's own runtime (its exported `decide`) in one node process,
// for tests/it/wrapper_fuzz.rs. Usage: node fuzz.mjs <artifact> <cases.json> <out.json>
//
// A case names a wrapper of the artifact (whose contract it uses) and its stdin, and is one of:
//   { kind: 'envelope', pollute }: the handler only records that it ran; `pollute` ({ key: value })
//     is set on Object.prototype before the decision, as code that ran earlier in the process (a
//     route in the shared runtime) may have left it.
//   { kind: 'result', hostile, plain }: two decisions, one whose handler runs the function body
//     `hostile` and one whose handler runs `plain` (the same result as plain data).
// After every decision, whatever a case added to Object.prototype is removed again.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [artifact, casesFile, outFile] = process.argv.slice(2);
const cases = JSON.parse(readFileSync(casesFile, 'utf8'));
const { decide } = await import(pathToFileURL(join(artifact, 'hooks/agent-bundle-runtime.mjs')).href);

const contracts = new Map();
function contract(path) {
  if (!contracts.has(path)) {
    const text = readFileSync(join(artifact, path), 'utf8');
    const found = /\n(?:export )?const contract = (\{[\s\S]*?\n\});\n/.exec(text);
    if (!found) throw new Error(`${path} does not have the generated wrapper's shape`);
    contracts.set(path, found[1]);
  }
  // A fresh copy for every decision: nothing a case does to the contract object reaches the next.
  return JSON.parse(contracts.get(path));
}

// What generated handler bodies may call, besides the payload and context.
const helpers = {
  // A recursive merge as old utilities wrote it: it follows `__proto__` out of JSON text into the
  // prototype of the object merged into.
  naiveMerge(target, source) {
    for (const key of Object.keys(source)) {
      const value = source[key];
      if (value !== null && typeof value === 'object') {
        if (target[key] === null || typeof target[key] !== 'object') target[key] = {};
        helpers.naiveMerge(target[key], value);
      } else {
        target[key] = value;
      }
    }
    return target;
  },
};

const clean = new Set(Reflect.ownKeys(Object.prototype));
function restore() {
  for (const key of Reflect.ownKeys(Object.prototype)) {
    if (!clean.has(key)) delete Object.prototype[key];
  }
}

function handlerOf(body) {
  // eslint-disable-next-line no-new-func
  const run = new Function('payload', 'context', 'helpers', body);
  return async () => ({ default: (payload, context) => run(payload, context, helpers) });
}

async function decision(path, stdin, load) {
  try {
    return await decide(contract(path), Buffer.from(stdin), load, 0);
  } catch (error) {
    return { thrown: String(error?.stack ?? error) };
  } finally {
    restore();
  }
}

const results = [];
for (const item of cases) {
  if (item.kind === 'envelope') {
    let called = false;
    const load = async () => ({ default: () => { called = true; return undefined; } });
    for (const [key, value] of Object.entries(item.pollute ?? {})) Object.prototype[key] = value;
    const decided = await decision(item.wrapper, item.stdin, load);
    results.push({ ...decided, called });
  } else {
    const hostile = await decision(item.wrapper, item.stdin, handlerOf(item.hostile));
    const plain = await decision(item.wrapper, item.stdin, handlerOf(item.plain));
    results.push({ hostile, plain });
  }
}
writeFileSync(outFile, JSON.stringify(results));
