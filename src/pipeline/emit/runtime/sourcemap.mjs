// ---------------------------------------------------------------------------------------------
// Source maps: where a handler's error was thrown, in its own sources.

// Where an error was thrown, in the handler's own sources: the stack's frames inside the bundles
// (hooks/handlers/*.mjs), mapped through the source map the build wrote beside each bundle. Read
// only when a handler fails, so a hook that succeeds never pays for it. Returns ' (at file:line:col)',
// with the first frame in the bundle's own code when the throw happened inside a package.
/**
 * @param {unknown} error
 * @returns {string}
 */
function whereThrown(error) {
  try {
    const stack = /** @type {{ stack?: unknown } | null | undefined} */ (error)?.stack;
    const text = typeof stack === 'string' ? stack : '';
    const mapped = [];
    for (const line of text.split('\n').slice(1)) {
      const frame = /((?:file:\/\/)?\/[^\s()]*\/hooks\/handlers\/[^\s()]+\.mjs):(\d+):(\d+)\)?\s*$/.exec(line);
      if (frame) {
        const position = originalPosition(frame[1], Number(frame[2]) - 1, Number(frame[3]) - 1);
        if (position) mapped.push(position);
      }
    }
    if (mapped.length === 0) return '';
    const own = mapped.find((p) => !p.includes('node_modules/'));
    return own && own !== mapped[0] ? ` (at ${mapped[0]}, called from ${own})` : ` (at ${mapped[0]})`;
  } catch {
    return '';
  }
}

const sourceMaps = new Map();
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

// The source position of a generated (0-based) line and column, as `source:line:column` (1-based).
/**
 * @param {string} file
 * @param {number} line
 * @param {number} column
 * @returns {string | undefined}
 */
function originalPosition(file, line, column) {
  if (!sourceMaps.has(file)) {
    // Asked of the host once per file; null: it has none (or none that can be read).
    sourceMaps.set(file, services.sourceMap(file) ?? null);
  }
  const map = sourceMaps.get(file);
  if (!map || typeof map.mappings !== 'string') return undefined;
  const lines = map.mappings.split(';');
  let source = 0;
  let sourceLine = 0;
  let sourceColumn = 0;
  let best;
  for (let index = 0; index <= line && index < lines.length; index += 1) {
    let generated = 0;
    for (const segment of lines[index].split(',')) {
      if (segment === '') continue;
      const fields = decodeVlq(segment);
      generated += fields[0];
      if (fields.length < 4) continue;
      source += fields[1];
      sourceLine += fields[2];
      sourceColumn += fields[3];
      if (index === line && generated <= column) best = [source, sourceLine, sourceColumn];
      if (index === line && generated > column && best === undefined) best = [source, sourceLine, sourceColumn];
    }
  }
  if (!best || typeof map.sources?.[best[0]] !== 'string') return undefined;
  return `${map.sources[best[0]]}:${best[1] + 1}:${best[2] + 1}`;
}

/**
 * @param {string} segment
 * @returns {number[]}
 */
function decodeVlq(segment) {
  const values = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}
