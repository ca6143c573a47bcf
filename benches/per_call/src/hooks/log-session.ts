// An observer: logs which session and folder the call came from.
interface ShellCall {
  readonly sessionId?: string;
  readonly cwd?: string;
}

export default ({ sessionId, cwd }: ShellCall) => {
  console.error(`per-call: session ${sessionId ?? '?'} in ${cwd ?? '?'}`);
};
