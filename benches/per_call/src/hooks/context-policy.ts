// A context adder: the repository's test rule, with the command it applies to.
interface ShellCall {
  readonly toolInput: { readonly command?: string };
}

export default ({ toolInput }: ShellCall) => ({
  additionalContext: `per-call: run the tests before committing (${(toolInput.command ?? '').split(' ')[0]}).`,
});
