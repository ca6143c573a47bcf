import type { AgentEventRouteProps } from 'agent-bundle';
import { renderShape } from '../_shape';

// A budget of its own: the route's signal aborts at 300 ms (tests/routes.rs waits for it).
export const config = { timeoutMs: 300 };

export default async function ToolAfter(props: AgentEventRouteProps) {
  return renderShape(props);
}
