export default {
  plugin: { name: 'routes', author: 'agent-bundle tests', description: 'Route components.', version: '1.0.0' },
};
