import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: {
    sessionStart: './src/hooks/start.ts',
  },
  plugin: { name: 'build-script-example', description: 'Built from build.rs.', version: '0.1.0', author: 'agent-bundle examples' },
});
