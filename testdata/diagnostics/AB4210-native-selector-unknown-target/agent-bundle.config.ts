export default {
  hooks: { beforeTool: { handler: './src/hooks/guard.ts', tools: ['windsurf:bash'] } },
};
