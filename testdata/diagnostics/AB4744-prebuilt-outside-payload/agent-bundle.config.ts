export default {
  hooks: { afterTool: { handler: { prebuilt: './build/hook.js' } } },
  payload: { runtime: './dist/runtime' },
};
