export default {
  hooks: {
    beforeTool: [
      { handler: './src/hooks/guard.ts', tools: ['shell'] },
      { handler: './src/hooks/guard.ts', tools: ['shell', 'shell'] },
    ],
  },
};
