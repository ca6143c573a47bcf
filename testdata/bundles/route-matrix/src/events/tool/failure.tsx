import { renderShape } from '../_shape';

export default async function ToolFailure(props) {
  return renderShape(props);
}
