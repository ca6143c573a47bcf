import { renderShape } from '../_shape';

export default async function ModelSwitchAfter(props) {
  return renderShape(props);
}
