import { Agent } from '@agent-bundle/runtime';

export const config = { runtime: 'shared', tools: ['shell'] };

export default async function Before({ canonical }) {
  return <Agent.Context>{`ran ${canonical.payload.toolName.value}`}</Agent.Context>;
}
