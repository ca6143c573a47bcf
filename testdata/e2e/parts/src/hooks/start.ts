// The plugin's one hook, so that every host loads it as a plugin; what else reaches the model comes
// from the parts.
export default () => ({ additionalContext: 'E2E_PARTS_HOOK: the plugin loaded' });
