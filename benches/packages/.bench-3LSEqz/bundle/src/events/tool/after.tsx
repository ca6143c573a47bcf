import { Agent } from '@agent-bundle/runtime';

export const config = { tools: ['shell'] };

export default async function After({ canonical }) {
  return <Agent.Context>{`ran ${canonical.payload.toolName.value}`}</Agent.Context>;
}
