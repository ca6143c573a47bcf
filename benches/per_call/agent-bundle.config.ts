// The plugin of `cargo bench --bench per_call` (issue 46): eight hooks on the shell tool's before-tool
// event, all of one kind a real plugin has: a fail-closed guard, three observers that log, two
// context adders, an event route (src/events/tool/before.tsx) and one hook that uses node:fs. All on
// the one event, so one shell call runs all eight, as the host runs them (benches/per_call.rs).
export default {
  hooks: {
    beforeTool: [
      { handler: './src/hooks/guard.ts', tools: ['shell'], failClosed: true },
      { handler: './src/hooks/log-command.ts', tools: ['shell'] },
      { handler: './src/hooks/log-session.ts', tools: ['shell'] },
      { handler: './src/hooks/log-timing.ts', tools: ['shell'] },
      { handler: './src/hooks/context-branch.ts', tools: ['shell'] },
      { handler: './src/hooks/context-policy.ts', tools: ['shell'] },
      { handler: './src/hooks/record-call.ts', tools: ['shell'] },
    ],
  },
  plugin: {
    name: 'per-call',
    description: 'Eight hooks on the shell tool, for the per-call benchmark.',
    version: '1.0.0',
    author: 'agent-bundle benchmarks',
  },
  targets: ['claude', 'codex', 'copilot', 'gemini', 'cursor', 'qwen', 'droid', 'opencode'],
};
