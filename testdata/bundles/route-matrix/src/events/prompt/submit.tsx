import { renderShape } from '../_shape';

export default async function PromptSubmit(props) {
  return renderShape(props);
}
