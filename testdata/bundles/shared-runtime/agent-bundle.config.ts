// Routes rendered in the shared runtime (the plugin's generated MCP server): state that lives across
// deliveries, a fallback to the route's own wrapper, and a shared-only route (tests/shared_runtime.rs).
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  plugin: {
    name: 'shared-runtime',
    description: 'Event routes rendered in one warm process.',
    version: '1.0.0',
    author: { name: 'agent-bundle tests' },
    license: 'MIT',
  },
  targets: ['claude', 'codex'],
});
