// Read without running the module: a call cannot be known.
const pick = () => 2000;
export const config = { timeoutMs: pick() };

export default async function KeepGoing() {
  return null;
}
