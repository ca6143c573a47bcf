// Drives the Workbench page in headless Chromium (from npm, see chromium.mjs; through Playwright's
// driver) the way a user would: pick the claude shell guard, run a denied command, read the outcome. Prints one JSON
// report. Usage: node workbench.mjs <page url with token> <screenshot.png>
import { chromium } from 'playwright-core';
import { chromium as browserFromNpm } from './chromium.mjs';

const [url, screenshot] = process.argv.slice(2);
const { executablePath, env } = await browserFromNpm();
const browser = await chromium.launch({
  executablePath,
  env: { ...process.env, ...env },
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const report = {};
try {
  const page = await browser.newPage();
  page.setDefaultTimeout(20_000);
  const external = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(new URL(url).origin)) external.push(request.url());
  });
  await page.goto(url);
  await page.locator('#build.ok').waitFor();
  const guard = page.locator('nav button[data-host="claude"][data-hook*="deny-dangerous"]');
  await guard.click();
  report.title = await page.locator('#title').textContent();
  const fact = (name) => page.evaluate((name) =>
    [...document.querySelectorAll('#facts dt')].find((dt) => dt.textContent === name)?.nextElementSibling?.textContent, name);
  report.nativeEvent = await fact('native event');
  report.handler = await fact('handler');
  await page.locator('#input').fill(JSON.stringify({
    sessionId: 's', transcriptPath: '/tmp/t.jsonl', cwd: '/tmp', toolName: 'Bash',
    toolInput: { command: 'rm -rf /' }, toolUseId: 'toolu_1',
  }));
  await page.locator('#run').click();
  const outcome = page.locator('#runs .outcome');
  await outcome.waitFor();
  report.outcome = await outcome.textContent();
  report.stdout = await page.locator('#runs pre[data-field="stdout"]').textContent();
  // The page's own origin, without the token: refused.
  report.withoutToken = await page.evaluate(async () => (await fetch('/api/state')).status);
  report.external = external;
  if (screenshot) await page.screenshot({ path: screenshot, fullPage: true });
} finally {
  await browser.close();
}
console.log(JSON.stringify(report));
