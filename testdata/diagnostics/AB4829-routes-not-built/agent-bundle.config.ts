// Routes are found and checked but not built yet. `stop.tsx` is named by a config entry, so it is a
// config hook's handler, not a route; `_lib/` and `.d.ts` files are never routes.
export default {
  hooks: { stop: './src/events/stop.tsx' },
  plugin: { name: 'routes', author: 'agent-bundle tests', description: 'Route discovery.', version: '1.0.0' },
};
