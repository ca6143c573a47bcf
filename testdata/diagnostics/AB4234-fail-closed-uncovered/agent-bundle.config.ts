// A prebuilt handler runs without the wrapper, and Codex entries have no failure field: nothing
// would block there when the guard crashes.
export default {
  hooks: {
    beforeTool: { handler: { prebuilt: './dist/runtime/guard.js' }, failClosed: true },
  },
  payload: { runtime: './dist/runtime' },
  targets: ['claude', 'codex'],
};
