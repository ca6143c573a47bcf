// A prebuilt handler's argument that Codex's Windows shells cannot both keep whole: PowerShell expands
// `$HOME` inside double quotes, and cmd.exe keeps single quotes as part of the word.
export default {
  hooks: { beforeTool: { handler: { prebuilt: './dist/runtime/hook.js' }, args: ['--home', '$HOME'] } },
  payload: { runtime: './dist/runtime' },
  plugin: { name: 'unquotable-argument', description: 'An argument no Windows shell of Codex keeps whole.', version: '1.0.0', author: 'agent-bundle examples' },
  targets: ['codex'],
};
