export default {
  hooks: { stop: { handler: './src/hooks/stop.ts', targets: ['cursor'] } },
  targets: ['claude', 'codex'],
};
