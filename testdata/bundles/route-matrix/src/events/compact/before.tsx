import { renderShape } from '../_shape';

export default async function CompactBefore(props) {
  return renderShape(props);
}
