// A route guard: refuses every shell command, with the reason the model should see.
import { Agent } from '@agent-bundle/runtime';

export const config = { tools: ['shell'], requires: ['events.toolBefore.deny'] };

export default async function ShellGuard({ canonical }) {
  const command = canonical.payload.toolInput?.value?.command ?? '';
  return <Agent.Result value={{ outcome: 'deny', reason: `E2E_ROUTE_DENY: not running ${command}` }} />;
}
