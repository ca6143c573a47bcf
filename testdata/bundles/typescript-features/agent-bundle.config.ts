// Handlers that use the TypeScript features swc must lower (enums, parameter properties,
// `import type`), TSX, extension-less and `.js`-spelled relative imports, and npm packages
// (with a transitive dependency) that must be carried into the artifact.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: {
    beforeTool: { handler: './src/hooks/classify.ts', tools: ['shell'] },
    afterTool: './src/hooks/summary.tsx',
  },
  plugin: { name: 'typescript-features', description: 'TypeScript features the compiler lowers.', version: '1.0.0', author: 'agent-bundle examples' },
  targets: ['claude'],
});
