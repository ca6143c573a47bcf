export default {
  hooks: { afterTool: [
      { handler: './src/hooks/plain.ts', tools: ['shell'] },
      { handler: './src/hooks/lodash-es.ts', tools: ['shell'] },
      { handler: './src/hooks/date-fns.ts', tools: ['shell'] },
      { handler: './src/hooks/zod.ts', tools: ['shell'] },
  ] },
  plugin: { name: 'bench', description: 'Benchmark.', version: '1.0.0', author: 'bench' },
  targets: ['claude'],
};
