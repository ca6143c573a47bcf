// Imports agent-bundle's config module, but the bundle has no tsconfig.json mapping its declarations:
// the build works, editors and tsc do not. `cargo agent-bundle types` fixes it.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  plugin: { name: 'types', author: 'agent-bundle tests', description: 'Types.', version: '1.0.0' },
});
