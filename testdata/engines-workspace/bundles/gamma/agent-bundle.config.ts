export default {
  hooks: { beforeTool: { handler: './src/hooks/guard.ts', tools: ['shell'] } },
  plugin: { name: 'gamma-guard', description: 'The gamma bundle of the engines workspace.', version: '1.0.0', author: 'agent-bundle tests' },
  targets: ['claude', 'codex'],
};
