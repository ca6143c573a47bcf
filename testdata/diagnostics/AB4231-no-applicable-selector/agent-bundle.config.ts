// The page's example: restricted to `claude:WebSearch` while also targeting codex.
export default {
  hooks: { beforeTool: { handler: './src/hooks/search.ts', tools: ['claude:WebSearch'] } },
  targets: ['claude', 'codex'],
};
