// Packages a bundle cannot carry, shipped whole: a native addon and a package that reads its own
// font files at run time.
export default {
  hooks: {
    afterTool: { handler: './src/hooks/native.ts', tools: ['shell'] },
  },
  bundle: { external: ['bufferutil', 'figlet'] },
  plugin: { name: 'shipped', description: 'Packages shipped whole.', version: '1.0.0', author: 'agent-bundle tests' },
  targets: ['claude'],
};
