// hookify, ported to event routes: rules live in the user's project as
// `.claude/hookify.<name>.local.md` files (front matter `event`, `pattern`, `action`, then the
// message), read at run time; a `block` rule denies, a `warn` rule adds the message as context.
export default {
  plugin: {
    name: 'ported-hookify',
    description: 'Project rules that warn about or block tool calls and prompts (hookify, as event routes).',
    version: '1.0.0',
    author: { name: 'agent-bundle tests' },
    license: 'MIT',
  },
  targets: ['claude', 'codex'],
};
