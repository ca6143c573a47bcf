// onMissingSelector takes one of three values, and only means something beside canonical tools.
export default {
  hooks: {
    beforeTool: [
      { handler: './src/hooks/guard.ts', tools: ['shell', 'file.read'], onMissingSelector: 'skip' },
      { handler: './src/hooks/guard.ts', tools: ['claude:Bash'], onMissingSelector: 'skip-host' },
    ],
  },
  targets: ['claude', 'codex'],
};
