export default {
  hooks: { stop: './src/hooks/stop.ts' },
  plugin: { name: 'no-author', description: 'Says nothing of who wrote it.' },
};
