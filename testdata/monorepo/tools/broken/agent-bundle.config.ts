export default {
  hooks: { stop: './src/hooks/missing.ts' },
  plugin: { name: 'broken', description: 'A bundle with a mistake.', version: '0.1.0', author: 'agent-bundle tests' },
};
