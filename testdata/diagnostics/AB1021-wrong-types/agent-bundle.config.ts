export default {
  hooks: {
    beforeTool: { handler: './src/hooks/guard.ts', tools: 'shell', targets: ['claude', 42] },
  },
  plugin: { name: 'wrong-types', description: true },
  targets: 'claude',
};
