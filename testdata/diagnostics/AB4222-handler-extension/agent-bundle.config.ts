export default {
  hooks: { sessionStart: './src/hooks/start.md' },
};
