// A handler ported from a script that reads a prompt next to itself: bundled, the file is not there.
export default {
  hooks: { sessionStart: './src/hooks/start.ts' },
  plugin: { name: 'reads-beside', description: 'Reads beside itself.', version: '1.0.0', author: 'agent-bundle tests' },
  targets: ['claude'],
};
