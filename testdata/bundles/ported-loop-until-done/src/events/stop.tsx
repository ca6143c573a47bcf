import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent } from '@agent-bundle/runtime';
import type { AgentEventRouteProps } from 'agent-bundle';

type State = { goal: string; done: boolean; iterations: number; maxIterations: number };

export default async function LoopUntilDone({ canonical }: AgentEventRouteProps<'stop'>) {
  // Cursor sends no cwd on stop; the loop then has nothing to read and lets the agent stop.
  const cwd = canonical.payload.cwd?.value;
  if (!cwd) return null;
  const file = join(cwd, '.loop', 'state.json');
  let state: State;
  try {
    state = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  if (state.done || state.iterations >= state.maxIterations) return null;
  writeFileSync(file, JSON.stringify({ ...state, iterations: state.iterations + 1 }));
  const left = state.maxIterations - state.iterations - 1;
  return (
    <Agent.Result
      value={{ outcome: 'deny', reason: `Not done yet: ${state.goal} (${left} more iteration(s) allowed). Mark .loop/state.json done when it is.` }}
    />
  );
}
