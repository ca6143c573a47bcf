export default {
  hooks: { stop: { handler: './src/hooks/stop.ts', targets: [] } },
  targets: [],
};
