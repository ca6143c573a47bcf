import { defineConfig } from 'agent-bundle/config';

export default defineConfig(async () => {
  const guard = { handler: './src/hooks/guard.ts', tools: ['shell'] } as const;
  return {
    hooks: { beforeTool: [guard] },
  };
});
