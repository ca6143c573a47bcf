export default {
  hooks: { stop: './src/hooks/stop.ts' },
  plugin: { name: 'Release Helpers' },
};
