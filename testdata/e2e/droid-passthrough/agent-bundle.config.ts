// A Claude Code plugin that Factory Droid installs from a Claude Code marketplace and runs: its
// fail-closed guard's Claude matcher names Droid's shell tool, so Droid runs the entry. Droid reads
// its `command` alone (not the exec form's `args`), so the guard fails there without blocking every
// command; a wrapper that does run on Droid's envelope (no tool_use_id) passes it through.
export default {
  hooks: {
    beforeTool: { handler: './src/hooks/guard.ts', tools: ['claude:Execute'], failClosed: true },
  },
  plugin: { name: 'e2e-droid-passthrough', description: 'A Claude Code guard run by Factory Droid.', version: '1.0.0', author: 'agent-bundle tests' },
  targets: ['claude'],
};
