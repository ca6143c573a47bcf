export default {
  hooks: { beforeTool: { handler: './src/hooks/guard.ts', targets: ['claude'], tools: ['shell', 'codex:view_image'] } },
};
