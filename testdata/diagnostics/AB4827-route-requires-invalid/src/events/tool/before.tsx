import { Agent } from '@agent-bundle/runtime';

// `block` is not a capability word: a row ends in deny, allow, ask, context or rewrite.
export const config = { requires: ['events.toolBefore.block'] };

export default async function Guard() {
  return <Agent.Result value={{ outcome: 'continue' }} />;
}
