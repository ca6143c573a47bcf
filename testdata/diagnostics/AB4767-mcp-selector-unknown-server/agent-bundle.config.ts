export default {
  hooks: {
    beforeTool: [
      { handler: './src/hooks/stop.ts', tools: ['mcp:doc'] },
      { handler: './src/hooks/stop.ts', tools: ['mcp:docs/look up'] },
    ],
  },
  mcpServers: {
    docs: { command: 'npx', args: ['-y', 'docs-index'] },
  },
};
