export default {
  hooks: { stop: './src/hooks/stop.ts' },
  plugin: { description: 'No name here.' },
  payload: { runtime: { targets: ['claude'] } },
};
