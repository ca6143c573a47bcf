export default {
  hooks: { stop: './src/hooks/stop.ts' },
  commands: './commands',
  targets: ['claude', 'gemini'],
};
