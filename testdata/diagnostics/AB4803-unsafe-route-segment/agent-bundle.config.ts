export default {
  plugin: { name: 'routes', author: 'agent-bundle tests', description: 'Route discovery.', version: '1.0.0' },
};
