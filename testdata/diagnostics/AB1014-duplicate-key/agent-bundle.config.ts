export default {
  hooks: {
    stop: './src/hooks/stop.ts',
    stop: './src/hooks/other-stop.ts',
  },
};
