export default {
  hooks: { stop: './src/hooks/stop.ts' },
  mcpServers: {
    docs: { command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/server/index.js'] },
  },
};
