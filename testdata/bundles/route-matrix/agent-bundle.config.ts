// One route per family (22), each rendering the result shape AGENT_BUNDLE_TEST_SHAPE names, on every
// host that has the family: tests/routes.rs runs every family × host × shape under the real node.
export default {
  plugin: {
    name: 'route-matrix',
    description: 'Every event-route family on every host.',
    version: '1.0.0',
    author: { name: 'agent-bundle tests' },
    license: 'MIT',
  },
  targets: ['claude', 'codex', 'copilot', 'cursor', 'droid', 'gemini', 'qwen'],
};
