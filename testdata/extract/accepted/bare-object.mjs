export default {
  hooks: { stop: './src/hooks/stop.js' },
};
