// `sources` filters session starts only, by the sources hosts send.
export default {
  hooks: {
    sessionStart: { handler: './src/hooks/greet.ts', sources: ['startp', 'resume'] },
    stop: { handler: './src/hooks/greet.ts', sources: ['startup'] },
  },
};
