export default {
  hooks: { stop: './src/hooks/stop.ts' },
  agents: './agents',
  targets: ['claude', 'gemini'],
};
