// A context adder: reminds the model of the branch rule before every shell command.
export default () => ({ additionalContext: 'per-call: work on a branch, never on main.' });
