// An icon the Claude plugin directory would refuse: not square.
export default {
  plugin: { name: 'icons', icon: './banner.png', author: 'agent-bundle tests', description: 'Icon mistakes.', version: '1.0.0' },
};
