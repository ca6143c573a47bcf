import { renderShape } from '../_shape';

export default async function TaskCreate(props) {
  return renderShape(props);
}
