export default {
  hooks: {
    sessionStart: { handler: 42 },
    beforeTool: [{ handler: '' }, { tools: ['shell'] }, { handler: { built: './x.js' } }],
    stop: true,
  },
};
