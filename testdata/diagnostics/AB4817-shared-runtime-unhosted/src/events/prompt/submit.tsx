// Nothing hosts a shared runtime in this version, and there is no standalone fallback.
export const config = { runtime: 'shared' };

export default async function Prompt() {
  return null;
}
