export default {
  hooks: {
    SessionStart: './src/hooks/start.ts',
    preToolUse: './src/hooks/guard.ts',
  },
};
