// A loop-until-done stop hook (the "keep going until the goal is met" plugins), ported to an event
// route: `.loop/state.json` in the project holds the goal, whether it is done, and an iteration cap.
export default {
  plugin: {
    name: 'ported-loop-until-done',
    description: 'Keeps the agent working until the recorded goal is done or the iteration cap is reached.',
    version: '1.0.0',
    author: { name: 'agent-bundle tests' },
    license: 'MIT',
  },
  targets: ['claude', 'codex', 'cursor'],
};
