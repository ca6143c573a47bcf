// `export { config }` of a const declared in the module.
const config = { targets: ['claude', 'codex'], timeoutMs: 2000 };

export { config };

export default async function Guard() {
  return null;
}
