export default {
  hooks: { stop: './src/hooks/stop.ts' },
  skills: './skill',
  contextFile: './notes.txt',
  targets: ['claude', 'gemini'],
};
