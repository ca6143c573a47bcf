// The page's example: `file.read` does not map on codex, so the hook fails even though `shell` would work.
export default {
  hooks: { beforeTool: { handler: './src/hooks/guard.ts', tools: ['file.read', 'shell'] } },
  targets: ['claude', 'codex'],
};
