// failClosed blocks a tool call; only beforeTool guards one.
export default {
  hooks: {
    afterTool: { handler: './src/hooks/audit.ts', failClosed: true },
    stop: { handler: './src/hooks/audit.ts', failClosed: 'yes' },
  },
};
