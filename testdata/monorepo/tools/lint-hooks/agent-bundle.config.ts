export default {
  hooks: { beforeTool: { handler: './src/hooks/lint.ts', tools: ['file.write'] } },
  plugin: { name: 'lint-hooks', description: 'A bundle outside any cargo package.', version: '0.1.0', author: 'agent-bundle tests' },
};
