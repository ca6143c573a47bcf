export default {
  hooks: { stop: './src/stop.ts' },
  plugin: { name: 'beta', description: 'Workspace member beta.', version: '0.1.0', author: 'agent-bundle tests' },
};
