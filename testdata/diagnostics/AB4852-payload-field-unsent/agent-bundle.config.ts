// A stop handler that reads `cwd`, which Cursor never sends on stop: there it is always undefined.
export default {
  hooks: { stop: { handler: './src/hooks/stop.ts' } },
  plugin: { name: 'unsent', description: 'Reads what a host never sends.', version: '1.0.0', author: 'agent-bundle tests' },
  targets: ['claude', 'cursor'],
};
