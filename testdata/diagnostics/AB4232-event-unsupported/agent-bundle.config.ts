export default {
  hooks: { workspaceOpen: './src/hooks/open.ts' },
  targets: ['claude', 'codex'],
};
