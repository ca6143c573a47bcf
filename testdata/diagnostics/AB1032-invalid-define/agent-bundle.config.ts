// A string constant written as tsup's users do not: unquoted, it would be code naming a variable.
export default {
  hooks: { sessionStart: './src/hooks/start.ts' },
  bundle: { define: { 'process.env.MODE': 'production mode' } },
  plugin: { name: 'defines', description: 'Defines.', version: '1.0.0', author: 'agent-bundle tests' },
  targets: ['claude'],
};
