// What every peer driver shares: reading its command line into a list of builds, and timing them.
//
//   <driver> <per-bundle|per-handler> <out folder> <bundle root>...
//
// per-bundle: one build per bundle root, all of its handlers (`src/hooks/hook-NN.ts`) as entry points.
// per-handler: one build per handler. Each bundle's outputs go to `<out folder>/<bundle folder name>`.
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';

const HANDLER = /^hook-\d+\.ts$/;

/** The handlers of one bundle root, sorted. */
function handlers(root) {
  const hooks = join(root, 'src', 'hooks');
  return readdirSync(hooks).filter((name) => HANDLER.test(name)).sort().map((name) => join(hooks, name));
}

/** The builds the command line asks for: `{ entries, outdir }` each. */
export function plannedBuilds(argv) {
  const [mode, out, ...roots] = argv;
  if (!['per-bundle', 'per-handler'].includes(mode) || out === undefined || roots.length === 0) {
    throw new Error('usage: <driver> <per-bundle|per-handler> <out folder> <bundle root>...');
  }
  return roots.flatMap((root) => {
    const outdir = join(out, basename(root));
    const entries = handlers(root);
    return mode === 'per-bundle' ? [{ entries, outdir }] : entries.map((entry) => ({ entries: [entry], outdir }));
  });
}

/**
 * Runs `build` for every planned build, one after another as a build script's loop would (each
 * bundler spreads one build over the cores as it does), and prints the elapsed milliseconds measured
 * here: from the first build's start to the last one's end, so neither process start nor loading the
 * bundler counts.
 */
export async function timeBuilds(peer, argv, build) {
  const builds = plannedBuilds(argv);
  const started = performance.now();
  for (const planned of builds) {
    await build(planned);
  }
  const ms = performance.now() - started;
  const entries = builds.reduce((sum, planned) => sum + planned.entries.length, 0);
  console.log(JSON.stringify({ peer, mode: argv[0], builds: builds.length, entries, ms }));
}
