export default {
  hooks: { sessionStart: './src/hooks/start.ts' },
  plugin: { name: 'alpha', description: 'Workspace member alpha.', version: '0.1.0', author: 'agent-bundle tests' },
};
