// A route that tells the model what failed: the failure's text, as the host reported it.
import { Agent } from '@agent-bundle/runtime';

export default async function ToolFailure({ canonical }) {
  const error = canonical.payload.error?.value ?? '';
  return <Agent.Context>{`E2E_FAILURE_CONTEXT: ${String(error).slice(0, 200)}`}</Agent.Context>;
}
