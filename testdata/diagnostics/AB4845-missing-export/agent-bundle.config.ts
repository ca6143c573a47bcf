export default { hooks: { stop: './src/hooks/stop.ts' } };
