export default { hooks: { stop: './src/hooks/stop.ts' }, bundle: { external: ['left-pad'] } };
