// A bundle whose package chooses a dependency by name at run time: it works only where a
// node_modules above the running file has that dependency.
export default {
  hooks: { afterTool: { handler: './src/hooks/pad.ts', tools: ['shell'] } },
  plugin: { name: 'in-tree', description: 'Works only next to its sources.', version: '1.0.0', author: 'agent-bundle tests' },
  targets: ['claude'],
};
