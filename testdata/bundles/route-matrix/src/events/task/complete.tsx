import { renderShape } from '../_shape';

export default async function TaskComplete(props) {
  return renderShape(props);
}
