// maxInputBytes is the wrapper's stdin limit: a whole byte count from 1 KiB to 256 MiB, and only
// where a wrapper reads stdin (not for prebuilt handlers).
export default {
  hooks: {
    beforeTool: [
      { handler: './src/hooks/guard.ts', maxInputBytes: 0.5 },
      { handler: './src/hooks/guard.ts', maxInputBytes: 1e12 },
    ],
    afterTool: { handler: './src/hooks/guard.ts', maxInputBytes: '64 MiB' },
  },
};
