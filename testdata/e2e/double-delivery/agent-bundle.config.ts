// Built for Claude Code and Copilot CLI: each hook notes which host's wrapper ran it, so the suite
// sees which of the plugin's hook documents Copilot CLI runs (its own, and Claude Code's too).
export default {
  hooks: {
    beforeTool: { handler: './src/hooks/note.ts', tools: ['shell'] },
    stop: { handler: './src/hooks/note.ts' },
  },
  plugin: { name: 'e2e-double-delivery', description: 'Which documents a host runs.', version: '1.0.0', author: 'agent-bundle tests' },
  targets: ['claude', 'copilot'],
};
