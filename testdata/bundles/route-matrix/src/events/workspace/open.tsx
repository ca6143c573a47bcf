import { renderShape } from '../_shape';

export default async function WorkspaceOpen(props) {
  return renderShape(props);
}
