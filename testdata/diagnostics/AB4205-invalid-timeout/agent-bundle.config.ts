export default {
  hooks: {
    beforeTool: [
      { handler: './src/hooks/a.ts', timeout: 0 },
      { handler: './src/hooks/b.ts', timeout: -5 },
      { handler: './src/hooks/c.ts', timeout: 1.5 },
      { handler: './src/hooks/d.ts', timeout: '10' },
    ],
  },
};
