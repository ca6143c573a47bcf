export const config = {
  hooks: { sessionStart: './src/hooks/start.ts' },
};
