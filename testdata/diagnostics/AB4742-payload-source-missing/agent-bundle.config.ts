export default {
  hooks: { stop: './src/hooks/stop.ts' },
  payload: { runtime: './dist/runtime' },
};
