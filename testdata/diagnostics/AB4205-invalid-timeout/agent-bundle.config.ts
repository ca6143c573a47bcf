export default {
  hooks: {
    beforeTool: [
      { handler: './src/hooks/a.ts', timeout: 0 },
      { handler: './src/hooks/b.ts', timeout: -5 },
      { handler: './src/hooks/c.ts', timeout: 1.5 },
      { handler: './src/hooks/d.ts', timeout: '10' },
      // One second more than Node's timers hold (2^31 - 1 ms): it would fire after 1 ms.
      { handler: './src/hooks/e.ts', timeout: 2147484 },
    ],
  },
};
