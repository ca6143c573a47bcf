// An observer: logs the command (on the host's hook log, stderr), says nothing to the host.
interface ShellCall {
  readonly toolName: string;
  readonly toolInput: { readonly command?: string };
}

export default ({ toolName, toolInput }: ShellCall) => {
  console.error(`per-call: ${toolName} ${toolInput.command ?? ''}`);
};
