const config = { hooks: { stop: './src/hooks/stop.ts' } };
export { config as default };
