import type { AgentEventRouteProps } from 'agent-bundle';
import { renderShape } from './_shape';

export default async function Stop(props: AgentEventRouteProps) {
  return renderShape(props);
}
