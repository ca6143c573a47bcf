// A Claude Code plugin that Factory Droid installs from a Claude Code marketplace and runs: its
// fail-closed guard's Claude matcher names Droid's shell tool, so Droid runs it with its own
// envelope (no tool_use_id). The wrapper passes that envelope through rather than failing on it
// (which, fail-closed, would block every command there).
export default {
  hooks: {
    beforeTool: { handler: './src/hooks/guard.ts', tools: ['claude:Execute'], failClosed: true },
  },
  plugin: { name: 'e2e-droid-passthrough', description: 'A Claude Code guard run by Factory Droid.', version: '1.0.0', author: 'agent-bundle tests' },
  targets: ['claude'],
};
