import { renderShape } from '../_shape';

export default async function SessionEnd(props) {
  return renderShape(props);
}
