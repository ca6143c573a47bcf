// A native selector that is only a wildcard matches every tool of its host: on a hook of that host
// alone it says what leaving `tools` out says, and beside the host's other selectors it swallows them.
export default {
  hooks: {
    beforeTool: [
      { handler: './src/hooks/guard.ts', targets: ['claude'], tools: ['claude:*'] },
      { handler: './src/hooks/guard.ts', tools: ['claude:mcp__github__*', 'claude:.*'] },
    ],
  },
};
