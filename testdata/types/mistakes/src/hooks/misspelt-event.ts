import { defineConfig } from 'agent-bundle/config';

// A misspelt event in a config of its own: TypeScript names one unknown key per object literal, and
// only when its other values are right.
export const misspelt = defineConfig({
  hooks: {
    // @ts-expect-error: `beforeToolUse` is not an event (did you mean `beforeTool`?)
    beforeToolUse: './src/hooks/guard.ts',
  },
});
