// Bun's bundler (`Bun.build`), run by the bun binary itself (see jobs.mjs for the command line).
import { timeBuilds } from './jobs.mjs';

await timeBuilds('bun', process.argv.slice(2), async ({ entries, outdir }) => {
  const result = await Bun.build({
    entrypoints: entries,
    outdir,
    target: 'node',
    format: 'esm',
    // Map files beside the outputs, no comment pointing at them (Bun has no option to leave the
    // sources out of them). Bun's `node` target names no version.
    sourcemap: 'external',
    splitting: false,
    minify: false,
  });
  if (!result.success) {
    throw new AggregateError(result.logs, 'Bun.build failed');
  }
});
