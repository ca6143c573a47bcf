import { renderShape } from '../_shape';

export default async function FileChange(props) {
  return renderShape(props);
}
