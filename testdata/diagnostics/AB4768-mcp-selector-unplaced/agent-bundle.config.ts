export default {
  hooks: {
    afterTool: { handler: './src/hooks/stop.ts', tools: ['mcp:docs/lookup'] },
  },
  mcpServers: {
    docs: { command: 'npx', args: ['-y', 'docs-index'], targets: ['claude'] },
  },
  targets: ['claude', 'codex'],
};
