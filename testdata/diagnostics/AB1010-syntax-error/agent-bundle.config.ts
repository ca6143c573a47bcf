export default defineConfig({
  hooks: {
    sessionStart: './src/hooks/start.ts'
    stop: './src/hooks/stop.ts',
  },
});
