// A status line that is blank.
export default {
  hooks: { afterTool: { handler: './src/hooks/record.ts', statusMessage: '   ' } },
  plugin: { name: 'blank-status', description: 'A blank status line.', version: '1.0.0', author: 'agent-bundle tests' },
  targets: ['claude', 'codex'],
};
