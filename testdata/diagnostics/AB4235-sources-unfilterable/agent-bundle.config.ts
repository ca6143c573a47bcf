// Cursor cannot filter sessionStart by source, so the filter would not hold there.
export default {
  hooks: {
    sessionStart: { handler: './src/hooks/greet.ts', sources: ['startup'] },
  },
  targets: ['claude', 'cursor'],
};
