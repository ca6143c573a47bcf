export default {
  hooks: { afterTool: { handler: { prebuilt: './dist/runtime/hook.js' } } },
  payload: { runtime: { source: './dist/runtime', targets: ['claude'] } },
  targets: ['claude', 'codex'],
};
