import { renderShape } from '../_shape';

export default async function ToolAfter(props) {
  return renderShape(props);
}
