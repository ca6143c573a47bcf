// Guards written the way real plugins write them, built for every host: a shell guard that denies with
// context, a policy guard that must never let a call through when it breaks (failClosed), an
// allow-list of safe commands that skips the permission prompt, an audit of one MCP server's tools,
// and a session greeting only for new and resumed sessions.
import { defineConfig } from 'agent-bundle/config';

export default defineConfig({
  hooks: {
    sessionStart: { handler: './src/hooks/greet.ts', sources: ['startup', 'resume'], targets: ['claude', 'codex'] },
    beforeTool: [
      { handler: './src/hooks/deny-dangerous.ts', tools: ['shell'] },
      { handler: './src/hooks/policy.ts', tools: ['shell', 'file.write'], failClosed: true, timeout: 5 },
      { handler: './src/hooks/allow-safe.ts', tools: ['shell'] },
    ],
    // Cursor names MCP tools `MCP:<tool>` without the server, so a server-scoped audit cannot reach it.
    afterTool: {
      handler: './src/hooks/audit-github.ts',
      tools: ['claude:mcp__github__*', 'codex:mcp__github__*'],
      targets: ['claude', 'codex'],
    },
  },
  plugin: {
    name: 'guards',
    description: 'Guards that hold: deny with context, fail-closed policy, an allow-list, an MCP audit.',
    version: '1.0.0',
    author: 'agent-bundle examples',
  },
  targets: ['amp', 'claude', 'cline', 'codex', 'copilot', 'gemini', 'cursor', 'droid', 'kilo', 'opencode', 'pi', 'qwen'],
});
