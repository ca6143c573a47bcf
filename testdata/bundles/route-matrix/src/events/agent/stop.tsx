import { renderShape } from '../_shape';

export default async function AgentStop(props) {
  return renderShape(props);
}
