export default {
  hooks: { beforeTool: { handler: './src/hooks/guard.ts', tools: ['shell', 'portable:Bash'] } },
  targets: ['claude', 'portable'],
};
