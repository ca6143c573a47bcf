export default {
  hooks: { stop: './src/hooks/stop.ts' },
  plugin: {
    name: 'interface-mistakes',
    description: 'A fixture.',
    version: '1.0.0',
    author: 'Fixtures',
    interface: { displayname: 'Mistakes', capabilities: 'Read', logo: './missing.png' },
  },
  targets: ['claude', 'codex'],
};
