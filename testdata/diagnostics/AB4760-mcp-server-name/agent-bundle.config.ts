export default {
  hooks: { stop: './src/hooks/stop.ts' },
  mcpServers: {
    'docs index': { command: 'npx', args: ['-y', 'docs-index'] },
    'plugin:docs': { command: 'npx', args: ['-y', 'docs-index'] },
  },
};
