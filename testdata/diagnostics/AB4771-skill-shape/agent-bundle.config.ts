export default {
  hooks: { stop: './src/hooks/stop.ts' },
  skills: './skills',
  targets: ['claude', 'gemini'],
};
