// Every import form D10 names, each in its own handler; each answers with what it computed.
export default {
  hooks: {
    afterTool: [
      { handler: './src/hooks/lodash-es.ts', tools: ['shell'] },
      { handler: './src/hooks/lodash-cjs.ts', tools: ['shell'] },
      { handler: './src/hooks/date-fns.ts', tools: ['shell'] },
      { handler: './src/hooks/zod.ts', tools: ['shell'] },
      { handler: './src/hooks/yaml.ts', tools: ['shell'] },
      { handler: './src/hooks/semver-subpath.ts', tools: ['shell'] },
      { handler: './src/hooks/mime-types.ts', tools: ['shell'] },
      { handler: './src/hooks/nested-versions.ts', tools: ['shell'] },
      { handler: './src/hooks/two-versions.ts', tools: ['shell'] },
      { handler: './src/hooks/workspace-ts.ts', tools: ['shell'] },
      { handler: './src/hooks/conditions.ts', tools: ['shell'] },
      { handler: './src/hooks/json.ts', tools: ['shell'] },
      { handler: './src/hooks/dynamic-import.ts', tools: ['shell'] },
      { handler: './src/hooks/syntax.ts', tools: ['shell'] },
      { handler: './src/hooks/package-imports.ts', tools: ['shell'] },
      { handler: './src/hooks/tsconfig-paths.ts', tools: ['shell'] },
      { handler: './src/hooks/throws-in-package.ts', tools: ['shell'] },
    ],
  },
  targets: ['claude'],
};
