export default {
  hooks: {
    sessionStart: './src/hooks/sesion-start.ts',
    stop: './src/hooks/session-start',
    beforeTool: './src/hooks/guard',
  },
};
