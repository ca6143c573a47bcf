export default {
  hooks: { stop: './src/hooks/stop.ts' },
  payload: { runtime: '../elsewhere/runtime' },
};
