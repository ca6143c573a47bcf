// Reads `.claude/hookify.*.local.md` rule files from the project folder.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type Rule = { name: string; event: 'bash' | 'prompt' | 'all'; pattern: RegExp; action: 'warn' | 'block'; message: string };

export function loadRules(cwd: string): Rule[] {
  const dir = join(cwd, '.claude');
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => /^hookify\..+\.local\.md$/.test(f)).sort();
  } catch {
    return [];
  }
  return files.flatMap((file) => {
    const text = readFileSync(join(dir, file), 'utf8');
    const match = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(text);
    if (!match) return [];
    const fields = Object.fromEntries(
      match[1].split('\n').map((line) => line.split(/:\s*/, 2)).filter((pair) => pair.length === 2),
    );
    if (fields.enabled === 'false') return [];
    return [{
      name: file.replace(/^hookify\.|\.local\.md$/g, ''),
      event: (fields.event ?? 'all') as Rule['event'],
      pattern: new RegExp(fields.pattern ?? '$^'),
      action: fields.action === 'block' ? 'block' : 'warn',
      message: match[2].trim(),
    }];
  });
}

/// The rules of `event` whose pattern matches `text`, blocking ones first.
export function matching(rules: Rule[], event: 'bash' | 'prompt', text: string): Rule[] {
  return rules
    .filter((rule) => (rule.event === event || rule.event === 'all') && rule.pattern.test(text))
    .sort((a, b) => (a.action === b.action ? 0 : a.action === 'block' ? -1 : 1));
}
