// Refuses the scripted prompt before any model request; leaves a note so the suite knows it ran.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent } from '@agent-bundle/runtime';

export default async function PromptGate({ canonical }) {
  const { prompt, cwd } = canonical.payload;
  appendFileSync(join(cwd.value, 'prompt-route.log'), `${canonical.provenance.host} ${prompt.nativeKey}\n`);
  if (prompt.value.includes('scripted')) {
    return <Agent.Result value={{ outcome: 'deny', reason: 'E2E_PROMPT_REASON: scripted prompts are refused' }} />;
  }
  return null;
}
