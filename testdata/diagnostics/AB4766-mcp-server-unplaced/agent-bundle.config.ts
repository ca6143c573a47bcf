export default {
  hooks: { stop: './src/hooks/stop.ts' },
  mcpServers: {
    docs: { module: './src/hooks/server.ts' },
  },
  targets: ['claude', 'droid', 'opencode'],
};
