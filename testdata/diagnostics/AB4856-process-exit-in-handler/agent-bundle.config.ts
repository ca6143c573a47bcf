// A guard ported from a script that ends with process.exit: in a hook that ends it before it answers.
export default {
  hooks: { beforeTool: { handler: './src/hooks/guard.ts', tools: ['shell'] } },
  plugin: { name: 'exits', description: 'Exits.', version: '1.0.0', author: 'agent-bundle tests' },
  targets: ['claude'],
};
