// The guards example (testdata/bundles/guards), ported to an event route: one tool/before route
// that refuses destructive shell commands on every host that can deny.
export default {
  plugin: {
    name: 'ported-guards',
    description: 'Refuses destructive shell commands (the guards example, as an event route).',
    version: '1.0.0',
    author: { name: 'agent-bundle tests' },
    license: 'MIT',
  },
  targets: ['amp', 'claude', 'cline', 'codex', 'copilot', 'cursor', 'droid', 'gemini', 'kilo', 'opencode', 'pi', 'qwen'],
};
