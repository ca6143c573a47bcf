// Runs many wrapper decisions in one node process, for tests/it/wrappers.rs: every case names a wrapper
// of a built artifact, the stdin bytes and extra environment variables; each goes through the
// artifact's own runtime (its exported `decide`, the same function the wrapper's process shell calls)
// with the wrapper's own contract and handler. Usage: node decide.mjs <artifact> <cases.json> <out.json>
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [artifact, casesFile, outFile] = process.argv.slice(2);
const cases = JSON.parse(readFileSync(casesFile, 'utf8'));
const { decide } = await import(pathToFileURL(join(artifact, 'hooks/agent-bundle-runtime.mjs')).href);

const wrappers = new Map();
function wrapper(path) {
  if (!wrappers.has(path)) {
    const text = readFileSync(join(artifact, path), 'utf8');
    // A command's wrapper runs the runtime with its contract; a hooks module's exports its contract
    // and imports its handler statically (the module hands both to the core's decideInProcess).
    const contract = /\n(?:export )?const contract = (\{[\s\S]*?\n\});\n/.exec(text);
    const handler = /\nawait runHook\(contract, \(\) => import\(("[^"]+")\)\);\n/.exec(text)
      ?? /\nimport \* as handler from ("[^"]+");\n/.exec(text)
      ?? /\nexport const loadHandler = \(\) => import\(("[^"]+")\);\n/.exec(text);
    if (!contract || !handler) {
      throw new Error(`${path} does not have the generated wrapper's shape`);
    }
    const url = new URL(JSON.parse(handler[1]), pathToFileURL(join(artifact, path))).href;
    wrappers.set(path, { contract: JSON.parse(contract[1]), load: () => import(url) });
  }
  return wrappers.get(path);
}

const results = [];
for (const { wrapper: path, stdin, env } of cases) {
  const { contract, load } = wrapper(path);
  Object.assign(process.env, env);
  results.push(await decide(contract, Buffer.from(stdin), load));
}
writeFileSync(outFile, JSON.stringify(results));
