// A shell guard that reads Claude Code's `toolInput.command`: Cline CLI's `run_commands` holds
// `commands` instead, so there the guard sees undefined and lets every command through.
export default {
  hooks: { beforeTool: { handler: './src/hooks/guard.ts', tools: ['shell'] } },
  plugin: { name: 'unheld', description: 'Reads a native key another host lacks.', version: '1.0.0', author: 'agent-bundle tests' },
  targets: ['claude', 'cline'],
};
