export default { hooks: { stop: './src/hooks/stop.ts' }, bundle: { external: ['broken-package'] } };
