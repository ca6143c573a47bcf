export default {
  hooks: { sessionStart: './src/hooks/sesion-start.ts' },
};
