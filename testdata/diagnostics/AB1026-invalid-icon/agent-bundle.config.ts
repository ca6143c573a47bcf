// `plugin.icon` must name a PNG inside the bundle.
export default {
  plugin: { name: 'icons', icon: './assets/logo.png', author: 'agent-bundle tests', description: 'Icon mistakes.', version: '1.0.0' },
};
