export default {
  hooks: { beforeTool: { handler: './src/hooks/guard.ts', tools: ['shell', 'codex:web_search'] } },
};
