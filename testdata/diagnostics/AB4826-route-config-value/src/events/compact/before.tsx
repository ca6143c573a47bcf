export const config = { runtime: 'standalon', timeoutMs: -5, tools: ['shell'] };

export default async function Compact() {
  return null;
}
