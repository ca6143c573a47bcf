export default {
  hooks: { afterTool: { handler: './src/hooks/record.ts', args: ['--host', 'claude'] } },
};
