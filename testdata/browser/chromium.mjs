// The browser the Workbench test drives: Chromium from the pinned npm package @sparticuz/chromium
// (a self-contained build with the NSS libraries it needs), unpacked once into
// target/test-tools/chromium-<version>/ and used offline from then on. `CHROMIUM=<path>` uses a
// browser of your own instead. Usage as a module: `await chromium()` → { executablePath, env };
// as a script: `node chromium.mjs` unpacks it and prints the path.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export async function chromium() {
  if (process.env.CHROMIUM) return { executablePath: process.env.CHROMIUM, env: {} };
  const pkg = join(here, 'node_modules/@sparticuz/chromium');
  const { version } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
  const dir = resolve(process.env.AGENT_BUNDLE_TEST_TOOLS || join(here, '../../target/test-tools'), `chromium-${version}`);
  if (!existsSync(join(dir, 'chromium'))) await unpack(pkg, dir);
  fontConfig(join(dir, 'fonts'));
  return {
    executablePath: join(dir, 'chromium'),
    env: { LD_LIBRARY_PATH: join(dir, 'al2023/lib'), FONTCONFIG_PATH: join(dir, 'fonts') },
  };
}

// The package's fonts.conf names folders of the machine it was made for (/tmp/fonts, /opt/fonts), so
// on another machine the page would render with no font at all (every text box zero-sized): point
// it at the fonts unpacked beside it, with its cache there too. Written through a rename, so two
// tests doing it at once never leave a half-written file.
function fontConfig(fonts) {
  const config = `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n` +
    `  <dir>${join(fonts, 'fonts')}</dir>\n  <cachedir>${join(fonts, 'cache')}</cachedir>\n</fontconfig>\n`;
  const path = join(fonts, 'fonts.conf');
  if (existsSync(path) && readFileSync(path, 'utf8') === config) return;
  const staging = `${path}.partial-${process.pid}`;
  writeFileSync(staging, config);
  renameSync(staging, path);
}

// Unpacks beside `dir` and renames into place, so a half-unpacked browser is never used and two
// tests unpacking at once both end with the same complete folder.
async function unpack(pkg, dir) {
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  // The package unpacks into os.tmpdir(), which reads TMPDIR at each call.
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = staging;
  try {
    const { inflate } = await import('@sparticuz/chromium');
    const bin = join(pkg, 'bin');
    // al2023.tar.br holds libnss3 and the libraries beside it: the browser needs no system package.
    for (const archive of ['chromium.br', 'fonts.tar.br', 'swiftshader.tar.br', 'al2023.tar.br']) {
      await inflate(join(bin, archive));
    }
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  }
  try {
    renameSync(staging, dir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(dir, 'chromium'))) throw error;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log((await chromium()).executablePath);
}
