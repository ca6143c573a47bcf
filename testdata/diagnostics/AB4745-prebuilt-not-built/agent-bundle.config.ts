export default {
  hooks: { afterTool: { handler: { prebuilt: './dist/runtime/hook.js' }, args: ['--verbose'] } },
  payload: { runtime: './dist/runtime' },
  plugin: { name: 'not-built-yet' },
};
