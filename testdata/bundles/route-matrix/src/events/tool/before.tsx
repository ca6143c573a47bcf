import { renderShape } from '../_shape';

export default async function ToolBefore(props) {
  return renderShape(props);
}
