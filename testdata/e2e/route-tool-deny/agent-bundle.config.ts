// A scenario of the real-host suite (scripts/host-e2e.sh): see tests/host_e2e/main.rs. Its hook is
// an event route under src/events/.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  plugin: { name: 'e2e-route-tool-deny', description: 'agent-bundle real-host scenario route-tool-deny.', version: '0.0.1', author: 'agent-bundle tests' },
  targets: ['claude', 'cline', 'codex', 'copilot', 'droid', 'gemini', 'pi', 'qwen'],
});
