// A guard declared async: the host would go on without its answer, so its denial would be lost.
export default {
  hooks: { beforeTool: { handler: './src/hooks/guard.ts', tools: ['shell'], async: true } },
  plugin: { name: 'async-guard', description: 'An async guard.', version: '1.0.0', author: 'agent-bundle tests' },
  targets: ['claude', 'codex'],
};
