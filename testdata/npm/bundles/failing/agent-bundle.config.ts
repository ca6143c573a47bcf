// Every import that would fail at run time, each in its own handler.
export default {
  hooks: {
    afterTool: [
      './src/hooks/missing-subpath.ts',
      './src/hooks/not-exported.ts',
      './src/hooks/not-installed.ts',
      './src/hooks/package-import.ts',
      './src/hooks/computed.ts',
      './src/hooks/require.ts',
      './src/hooks/native.ts',
      './src/hooks/own-files.ts',
      './src/hooks/umd.ts',
      './src/hooks/dirname.ts',
      './src/hooks/reads-beside.ts',
      './src/hooks/misnamed-export.ts',
    ],
  },
  plugin: { name: 'failing', description: 'Imports that fail.', version: '1.0.0', author: 'agent-bundle tests' },
  targets: ['claude'],
};
