export default {
  hooks: { stop: { handler: './src/hooks/stop.ts', targets: ['portable', 'claude'] } },
  targets: ['portable', 'claude'],
};
