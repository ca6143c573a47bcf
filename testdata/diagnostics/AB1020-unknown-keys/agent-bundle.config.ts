export default {
  hook: {},
  hooks: {
    beforeTool: { handler: './src/hooks/guard.ts', tool: ['shell'], matcher: 'Bash' },
  },
  plugin: { nmae: 'unknown-keys', name: 'unknown-keys' },
  payload: { runtime: { sources: './dist' , source: './dist' } },
};
