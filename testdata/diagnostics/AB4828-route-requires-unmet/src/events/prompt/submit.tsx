import { Agent } from '@agent-bundle/runtime';

// Only Claude Code and Codex can add context on prompt submission; the config selects Cursor alone.
export const config = { requires: ['events.promptSubmit.context'] };

export default async function Prompt() {
  return <Agent.Context>Remember the style guide.</Agent.Context>;
}
