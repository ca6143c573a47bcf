// A guard ported from a hook script that reads its envelope from stdin: a wrapper serves that read the
// envelope it read, but OpenCode runs the hook in its own process, whose stdin is the terminal's.
export default {
  hooks: { beforeTool: { handler: './src/hooks/guard.ts', tools: ['shell'] } },
  plugin: { name: 'reads-stdin', description: 'Reads its envelope from stdin.', version: '1.0.0', author: 'agent-bundle tests' },
  targets: ['claude', 'opencode'],
};
