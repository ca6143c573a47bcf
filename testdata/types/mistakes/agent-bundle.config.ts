// The classic mistakes a new user makes, each on the line after its expect-error marker: with the
// declarations `cargo agent-bundle types` writes, `tsc --strict` must flag every one of them
// (tests/typescript.rs checks that this passes, and that without the markers it fails once per line).
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  plugin: { name: 'mistakes', description: 'Type errors on purpose.', version: '1.0.0', author: 'agent-bundle tests' },
  // @ts-expect-error: `windsurf` is not a target
  targets: ['claude', 'windsurf'],
  hooks: {
    // @ts-expect-error: `shel` is not a selector
    beforeTool: { handler: './src/hooks/guard.ts', tools: ['shel'] },
    // @ts-expect-error: only beforeTool and afterTool filter by tools
    sessionStart: { handler: './src/hooks/greet.ts', tools: ['shell'] },
    // @ts-expect-error: only beforeTool hooks are fail-closed
    afterTool: { handler: './src/hooks/note.ts', failClosed: true },
  },
});
