// Host matchers are case-sensitive: `bash` is not Claude Code's `Bash`, and Codex's MCP tools start `mcp__`.
export default {
  hooks: {
    beforeTool: { handler: './src/hooks/guard.ts', tools: ['claude:bash', 'codex:MCP__github__.*'] },
  },
};
