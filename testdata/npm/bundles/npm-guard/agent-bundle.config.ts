// A scenario of the real-host suite (scripts/host-e2e.sh): a guard whose decision comes from real npm
// packages (zod validates the tool input, lodash-es formats the reason), bundled into the plugin.
export default {
  hooks: {
    beforeTool: { handler: './src/hooks/guard.ts', tools: ['shell'] },
  },
  plugin: { name: 'e2e-npm-guard', description: 'agent-bundle real-host scenario npm-guard.', version: '0.0.1', author: 'agent-bundle tests' },
  targets: ['claude', 'codex'],
};
