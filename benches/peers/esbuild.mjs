// esbuild's JavaScript API from one node process (see jobs.mjs for the command line).
import * as esbuild from 'esbuild';
import { timeBuilds } from './jobs.mjs';

await timeBuilds('esbuild', process.argv.slice(2), ({ entries, outdir }) =>
  esbuild.build({
    entryPoints: entries,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node18',
    // Map files beside the outputs, no comment pointing at them (agent-bundle's hidden maps).
    sourcemap: 'external',
    sourcesContent: false,
    minify: false,
    logLevel: 'error',
  }),
);
// The build service is a child process: end it here, so that it is waited for and counted.
await esbuild.stop();
