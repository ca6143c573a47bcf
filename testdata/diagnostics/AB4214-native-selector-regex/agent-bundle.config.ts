// A native selector is one tool name or a `*` pattern: regex characters would leave a dead hook.
export default {
  hooks: {
    beforeTool: { handler: './src/hooks/guard.ts', tools: ['claude:Bash|Read', 'codex:mcp__.+'] },
  },
};
