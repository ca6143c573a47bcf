/** @jsxImportSource react */
import { render } from '../lib/render';

export default (event: { toolName: string }) => ({
  additionalContext: render(<note tool={event.toolName}>ran</note>),
});
