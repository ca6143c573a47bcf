import { renderShape } from '../_shape';

export default async function SessionStart(props) {
  return renderShape(props);
}
