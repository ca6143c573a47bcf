import { renderShape } from '../_shape';

export default async function CompactAfter(props) {
  return renderShape(props);
}
