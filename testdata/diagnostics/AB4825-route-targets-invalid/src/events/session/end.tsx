export const config = { targets: [] };

export default async function End() {
  return null;
}
