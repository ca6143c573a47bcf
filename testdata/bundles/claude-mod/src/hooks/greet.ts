// Session context, from a command hook (the hooks module runs tool hooks only).
export default () => ({ additionalContext: 'in-process-guards is loaded.' });
