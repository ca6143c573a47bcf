import { renderShape } from '../_shape';

export default async function AgentStart(props) {
  return renderShape(props);
}
