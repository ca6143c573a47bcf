// pnpm lays packages out as links into node_modules/.pnpm; every import resolves from real paths.
export default {
  hooks: {
    afterTool: { handler: './src/hooks/pnpm.ts', tools: ['shell'] },
  },
  targets: ['claude'],
};
