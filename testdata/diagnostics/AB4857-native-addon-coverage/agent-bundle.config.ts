// A store whose native addon was compiled at install, for this machine's system and Node release only:
// shipped whole, it loads nowhere else.
export default {
  hooks: { sessionStart: './src/hooks/start.ts' },
  bundle: { external: ['tiny-sqlite'] },
  plugin: { name: 'native-store', description: 'A native store.', version: '1.0.0', author: 'agent-bundle tests' },
  targets: ['claude'],
};
