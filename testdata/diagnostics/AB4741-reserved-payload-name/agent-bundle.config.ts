export default {
  hooks: { stop: './src/hooks/stop.ts' },
  payload: { hooks: './dist/hooks', gemini: './dist/gemini', '..': './dist/up' },
};
