export default {
  hooks: { beforeTool: { handler: './src/hooks/guard.ts', tools: ['shel', 'bash', ':Bash', 'claude:'] } },
};
