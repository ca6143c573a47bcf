export default {
  plugin: { name: 'routes', author: 'agent-bundle tests', description: 'Route configs.', version: '1.0.0' },
  targets: ['claude', 'cursor'],
};
