import { renderShape } from '../_shape';

export default async function PermissionRequest(props) {
  return renderShape(props);
}
