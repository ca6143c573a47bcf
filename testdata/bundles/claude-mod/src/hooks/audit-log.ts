// Appends every write to an audit file: it needs node:fs, which Claude Code's hooks module lacks.
import { appendFileSync } from 'node:fs';

export default ({ toolName, cwd }: { toolName: string; cwd: string }) => {
  appendFileSync(`${cwd}/.audit.log`, `${toolName}\n`);
  return undefined;
};
