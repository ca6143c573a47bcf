import { renderShape } from '../_shape';

export default async function ModelSwitchBefore(props) {
  return renderShape(props);
}
