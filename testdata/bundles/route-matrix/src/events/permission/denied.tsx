import { renderShape } from '../_shape';

export default async function PermissionDenied(props) {
  return renderShape(props);
}
