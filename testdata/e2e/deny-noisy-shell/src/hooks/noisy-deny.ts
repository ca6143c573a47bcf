// Writes to the host's stdout by every path a handler has, then denies: the host must still get
// the denial, and none of the writes (issue 23). A path a host's stdio cannot be opened by (a
// socket's /proc/self/fd entry) is skipped, as a logger would.
import { writeFileSync, writeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

const byPath = (path: string, text: string) => {
  try {
    writeFileSync(path, text, { flag: 'a' });
  } catch {}
};

export default async () => {
  console.log('E2E_NOISE console.log');
  process.stdout.write('E2E_NOISE process.stdout\n');
  writeSync(1, 'E2E_NOISE fd 1\n');
  for (const path of ['/dev/stdout', '/proc/self/fd/1', '/dev/fd/1']) byPath(path, `E2E_NOISE ${path}\n`);
  const worker = "const fs = require('node:fs'); fs.writeSync(1, 'E2E_NOISE worker fd 1\\n'); try { fs.writeFileSync('/dev/stdout', 'E2E_NOISE worker /dev/stdout\\n', { flag: 'a' }); } catch {}";
  await new Promise((resolve, reject) => new Worker(worker, { eval: true }).on('exit', resolve).on('error', reject));
  return { outcome: 'deny' as const, reason: 'E2E_NOISY_DENY: agent-bundle blocked this command' };
};
