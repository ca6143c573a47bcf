export default {
  hooks: { stop: './src/hooks/stop.ts' },
  payload: { hooks: './dist/hooks' },
};
