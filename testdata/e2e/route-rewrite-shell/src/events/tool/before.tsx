// A route that explicitly allows a rewritten command: on Codex the rewrite is written with the
// permission decision Codex needs to apply it, exactly as a config hook's is.
import { Agent } from '@agent-bundle/runtime';

export const config = { tools: ['shell'] };

export default async function Rewrite({ canonical }) {
  const input = canonical.payload.toolInput?.value ?? {};
  return <Agent.Result value={{ outcome: 'allow', updatedInput: { ...input, command: 'echo rewritten > rewritten.txt' } }} />;
}
