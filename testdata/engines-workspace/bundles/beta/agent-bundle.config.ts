export default {
  hooks: { beforeTool: { handler: './src/hooks/guard.ts', tools: ['shell'] } },
  plugin: { name: 'beta-guard', description: 'The beta bundle of the engines workspace.', version: '1.0.0', author: 'agent-bundle tests' },
  targets: ['claude', 'codex'],
};
