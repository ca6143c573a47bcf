// A scenario of the real-host suite (scripts/host-e2e.sh): see tests/host_e2e/main.rs. Its route
// renders in the shared runtime, the plugin's generated MCP server.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  plugin: { name: 'e2e-route-shared-deny', description: 'agent-bundle real-host scenario route-shared-deny.', version: '0.0.1', author: 'agent-bundle tests' },
  targets: ['claude'],
});
