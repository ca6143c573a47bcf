// A native selector is one tool name or a `*` pattern: regex or list characters would leave a dead hook.
export default {
  hooks: {
    beforeTool: { handler: './src/hooks/guard.ts', tools: ['claude:Bash|Read', 'codex:mcp__.+'] },
    afterTool: { handler: './src/hooks/guard.ts', tools: ['claude:^(Write|Edit)$', 'claude:Edit, Write', 'codex:Ba?h'] },
  },
};
