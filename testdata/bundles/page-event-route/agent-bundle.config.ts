// The page's event-route sample ("Event routes"): a tool/after route for file writes on Claude Code
// and Codex, and nothing else.
export default {
  plugin: {
    name: 'page-event-route',
    description: 'The event-route sample of the hooks page.',
    version: '1.0.0',
    author: { name: 'agent-bundle tests' },
    license: 'MIT',
  },
};
