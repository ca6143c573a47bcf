import { renderShape } from './_shape';

export default async function Stop(props) {
  return renderShape(props);
}
