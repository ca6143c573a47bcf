export default {
  hooks: { sessionStart: '../shared/session-start.ts' },
};
