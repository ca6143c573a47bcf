import { renderShape } from '../_shape';

export default async function ConfigChange(props) {
  return renderShape(props);
}
