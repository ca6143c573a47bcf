// An npm-workspaces sibling whose entry is TypeScript (a link in node_modules).
import { Judge, Verdict } from '@fixtures/shared-ts';

const judge = new Judge(['rm -rf']);

export default (event: { toolInput: { command?: string } }) => ({
  additionalContext: `workspace ${judge.judge(event.toolInput.command ?? '') === Verdict.Deny ? 'deny' : 'allow'}`,
});
