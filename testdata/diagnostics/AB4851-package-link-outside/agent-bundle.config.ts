// The installed package holds a link to `/etc`: shipping it would copy the machine's `/etc`.
export default { hooks: { stop: './src/hooks/stop.ts' }, bundle: { external: ['linked-package'] } };
