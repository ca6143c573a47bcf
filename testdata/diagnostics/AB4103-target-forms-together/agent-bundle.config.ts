export default {
  hooks: { stop: './src/hooks/stop.ts' },
  targets: ['claude', 'codex', 'claude-mod'],
};
