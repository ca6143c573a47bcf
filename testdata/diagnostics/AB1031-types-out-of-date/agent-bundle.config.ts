// Its declarations were written by another agent-bundle version (see the first line of
// .agent-bundle/types/agent-bundle/config.d.ts).
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  plugin: { name: 'types', author: 'agent-bundle tests', description: 'Types.', version: '1.0.0' },
});
