import { renderShape } from '../_shape';

export default async function AgentIdle(props) {
  return renderShape(props);
}
