// Keeps the agent going once with a reason, and lets it stop on re-entry.
import { Agent } from '@agent-bundle/runtime';

export default async function StopOnce({ canonical }) {
  if (canonical.payload.reentry?.value) return null;
  return <Agent.Result value={{ outcome: 'deny', reason: 'E2E_ROUTE_STOP: check the work once more' }} />;
}
