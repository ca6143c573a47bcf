export default {
  hooks: { beforeTool: { handler: './src/hooks/guard.ts', tools: ['gemini:run_shell_command'] } },
};
