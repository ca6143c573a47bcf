// Runs hook commands the way a host runs them on Windows, for the real-host suite's Windows checks
// (tests/host_e2e/windows.rs): under Wine, by the Windows Node that scripts/windows-programs.sh
// installs. A Unix pipe as a Windows program's stdio breaks Node's (`open EBADF`), so this script
// reads its jobs from a file and writes the results to another; the hooks it starts get pipes that
// Windows Node makes, as they would from a host.
//
//   node windows-driver.mjs <jobs.json> <results.json>
//
// A job: { id, how, command?, program?, args?, env, cwd, stdin, limitMs }, where `how` is
//   'cmd'         cmd.exe /d /s /c "<command>", the command passed verbatim (Codex; node's own
//                 `shell: true`; the stand-in for a host whose PowerShell Wine lacks),
//   'cmd-escaped' cmd.exe /d /s /c <command> with node quoting the argument, every `"` escaped as
//                 `\"` (Qwen Code's own spawn),
//   'exec'        <program> <args…> through no shell (Claude Code's exec form).
// A result: { id, code, signal, stdout, stderr, ms, timedOut, spawnRetries }. At most two jobs run at
// once. Wine's CreateProcess now and then fails under load before the program starts (`spawn
// UNKNOWN`, thrown by spawn itself); the hook has not run then, so the driver starts it again, at
// most twice, and counts it in `spawnRetries` (the suite prints the count).
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const [jobsFile, resultsFile] = process.argv.slice(2);
const jobs = JSON.parse(readFileSync(jobsFile, 'utf8'));
const comspec = process.env.ComSpec || 'C:\\windows\\system32\\cmd.exe';

const SPAWN_ATTEMPTS = 3;

async function run(job) {
  let result;
  for (let attempt = 0; attempt < SPAWN_ATTEMPTS; attempt++) {
    result = await runOnce(job);
    result.spawnRetries = attempt;
    if (!result.spawnFailed) break;
    await new Promise((resolve) => setTimeout(resolve, 250 * (attempt + 1)));
  }
  delete result.spawnFailed;
  return result;
}

function runOnce(job) {
  return new Promise((resolve) => {
    const env = { ...process.env, ...job.env };
    const options = { cwd: job.cwd, env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true };
    let child;
    try {
      if (job.how === 'cmd') {
        child = spawn(comspec, ['/d', '/s', '/c', `"${job.command}"`], { ...options, windowsVerbatimArguments: true });
      } else if (job.how === 'cmd-escaped') {
        child = spawn(comspec, ['/d', '/s', '/c', job.command], { ...options, shell: false });
      } else if (job.how === 'exec') {
        child = spawn(job.program, job.args, options);
      } else {
        throw new Error(`unknown job kind ${job.how}`);
      }
    } catch (error) {
      resolve({ id: job.id, code: null, signal: null, stdout: '', stderr: `spawn failed: ${error.message}`, ms: 0, timedOut: false, spawnFailed: true });
      return;
    }
    const started = performance.now();
    const out = [];
    const err = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill();
    }, job.limitMs);
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => err.push(chunk));
    child.on('error', (error) => err.push(Buffer.from(`spawn error: ${error.message}`)));
    child.stdin.on('error', () => {});
    child.stdin.end(job.stdin);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({
        id: job.id,
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        ms: Math.round(performance.now() - started),
        timedOut,
      });
    });
  });
}

const results = [];
let next = 0;
async function worker() {
  while (next < jobs.length) {
    const job = jobs[next++];
    results.push(await run(job));
  }
}
await Promise.all([worker(), worker()]);
results.sort((a, b) => a.id - b.id);
writeFileSync(resultsFile, JSON.stringify(results));
