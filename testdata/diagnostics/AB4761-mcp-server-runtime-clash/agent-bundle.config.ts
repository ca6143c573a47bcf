export default {
  hooks: { stop: './src/hooks/stop.ts' },
  plugin: { name: 'guards' },
  mcpServers: {
    'guards-runtime': { command: 'npx', args: ['-y', 'guards-server'] },
  },
};
