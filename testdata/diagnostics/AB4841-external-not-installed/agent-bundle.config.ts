export default { hooks: { stop: './src/hooks/stop.ts' }, bundle: { external: ['better-sqlite3'] } };
