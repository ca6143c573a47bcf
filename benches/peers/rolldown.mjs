// rolldown's JavaScript API (the npm package of the crate agent-bundle embeds) from one node process
// (see jobs.mjs for the command line).
import { build } from 'rolldown';
import { timeBuilds } from './jobs.mjs';

await timeBuilds('rolldown', process.argv.slice(2), ({ entries, outdir }) =>
  build({
    input: entries,
    platform: 'node',
    transform: { target: 'node18' },
    logLevel: 'silent',
    output: {
      dir: outdir,
      format: 'esm',
      // The options agent-bundle gives the crate: hidden maps without sources, dead code removed only.
      sourcemap: 'hidden',
      sourcemapExcludeSources: true,
      minify: 'dce-only',
      // Code splitting stays on: rolldown refuses `codeSplitting: false` for several inputs, so a
      // per-bundle build puts the shared module in a chunk of its own (agent-bundle, one input per
      // bundler, turns it off).
    },
  }),
);
