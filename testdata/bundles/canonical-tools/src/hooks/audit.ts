// Tells the model what ran, in canonical words: the kind, and what the call was about.
import type { HookHandler } from 'agent-bundle';

const audit: HookHandler<'afterTool'> = ({ tool }) => {
  const about =
    tool.kind === 'shell' ? tool.command
    : tool.kind === 'file.read' || tool.kind === 'file.write' ? tool.filePaths.join(', ')
    : tool.kind === 'mcp' ? `${tool.server ?? '?'}/${tool.tool ?? '?'}`
    : tool.name;
  return { additionalContext: `${tool.kind} ${about}` };
};

export default audit;
