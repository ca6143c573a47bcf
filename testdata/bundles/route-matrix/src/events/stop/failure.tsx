import { renderShape } from '../_shape';

export default async function StopFailure(props) {
  return renderShape(props);
}
