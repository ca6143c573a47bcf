// ---------------------------------------------------------------------------------------------
// The canonical tool of a tool event: which kind of tool the host's name is (the host table's
// selector alternatives, the same data the matchers come from, plain names tried before patterns),
// and the fields a guard needs under one name on every host, each with the native key it was read
// from in `nativeKeys`. The native input stays in the payload untouched. A field the table maps and
// the input lacks (or holds as something else) is recorded in `unreadable`, and the copy a handler
// gets reads it as a throw (armTool): a hook that judges the field fails with its policy, a guard is
// never handed a call it cannot judge, and a hook that never looks is not sunk by it. Which native
// keys hold a field is the host table's one rule (ToolInputMap::native_keys in agent-bundle's
// sources), which the contract carries as `input.keys`: the keys tried in order, the first the one a
// canonical field is written under.

/**
 * @param {Contract} contract
 * @param {JsonObject} envelope
 */
function canonicalTool(contract, envelope) {
  const present = (as) => {
    const field = contract.input.find((f) => f.as === as);
    return field && [field.key, ...(field.alternatives ?? [])].find((k) => Object.hasOwn(envelope, k));
  };
  const nameKey = present('toolName');
  const name = nameKey === undefined ? undefined : envelope[nameKey];
  if (typeof name !== 'string') return undefined;
  const inputKey = present('toolInput');
  const identity = (contract.tools ?? []).find((t) => new RegExp(`^(?:${t.pattern})$`).test(name));
  const tool = { kind: identity ? identity.kind : 'other', name, nativeKeys: { name: nameKey } };
  if (identity === undefined) return { tool, nameKey };
  const map = identity.input;
  const unreadable = {};
  let input = inputKey === undefined ? undefined : envelope[inputKey];
  // Copilot CLI's older releases send the arguments as JSON text.
  if (typeof input === 'string') {
    try {
      input = JSON.parse(input);
    } catch {
      // judged below, as any input that is not an object
    }
  }
  const object = isPlainObject(input);
  const optional = new Set(['cwd', 'content', ...(map.optional ?? [])]);
  const take = (field) => {
    const keys = map.keys[field];
    if (keys === undefined) return undefined;
    if (!object) {
      if (!optional.has(field)) {
        unreadable[field] = `${name}'s input (${inputKey ?? 'absent'}) is not an object (got ${show(input)}), so its ${field} is not known`;
      }
      return undefined;
    }
    const record = /** @type {JsonObject} */ (input);
    const key = keys.find((k) => Object.hasOwn(record, k));
    if (key === undefined) {
      if (!optional.has(field)) {
        unreadable[field] = `${contract.host} sent ${name} without ${keys.join(' or ')} in ${inputKey}, so its ${field} is not known`;
      }
      return undefined;
    }
    let value = record[key];
    // A shell tool's command given as a list of command lines (Cline's `run_commands.commands`) is
    // those lines, one after another, as a shell reads them.
    if (field === 'command' && Array.isArray(value) && value.every((line) => typeof line === 'string')) {
      value = value.join('\n');
    }
    if (typeof value !== 'string') {
      unreadable[field] = `${inputKey}.${key} of ${name} is not a string (got ${show(value)}), so its ${field} is not known`;
      return undefined;
    }
    tool.nativeKeys[field] = `${inputKey}.${key}`;
    return value;
  };
  switch (identity.kind) {
    case 'shell': {
      tool.command = take('command');
      const cwd = take('cwd');
      if (cwd !== undefined) tool.cwd = cwd;
      break;
    }
    case 'file.read':
    case 'file.write': {
      const listMap = map.fileList;
      const listed = listMap === undefined ? undefined : fileList(listMap, input, inputKey, name);
      if (typeof listed === 'string') {
        Object.assign(unreadable, { filePaths: listed, filePath: listed });
      } else if (listed !== undefined && listMap !== undefined) {
        tool.nativeKeys.filePaths = `${inputKey}.${listMap.list}`;
      }
      const filePath = listed === undefined ? take('filePath') : typeof listed === 'string' ? undefined : listed[0];
      tool.filePaths = Array.isArray(listed) ? listed : filePath === undefined ? [] : [filePath];
      if (unreadable.filePath !== undefined) unreadable.filePaths = unreadable.filePath;
      const content = take('content');
      if (content !== undefined) tool.content = content;
      if (map.edits !== undefined && object) {
        const edits = fileEdits(map.edits, /** @type {JsonObject} */ (input), inputKey, name, filePath);
        if (typeof edits === 'string') {
          unreadable.edits = edits;
        } else if (edits !== undefined) {
          tool.edits = edits;
          tool.nativeKeys.edits = `${inputKey}${map.edits.list ? `.${map.edits.list}` : ''}`;
        }
      }
      if (map.keys.patch !== undefined) {
        const patch = take('patch');
        const parsed = patch === undefined ? undefined : parsePatch(patch);
        if (parsed !== undefined && parsed.files.length > 0) {
          tool.patch = patch;
          tool.filePaths = parsed.files;
          tool.edits = parsed.edits;
          tool.nativeKeys.filePaths = tool.nativeKeys.patch;
          if (parsed.content !== undefined) tool.content = parsed.content;
        } else {
          const why = unreadable.patch ?? `the patch of ${name} names no file (no "*** Add File:", "*** Update File:" or "*** Delete File:" line), so the files it writes are not known`;
          Object.assign(unreadable, { filePaths: why, filePath: why, edits: why });
        }
      }
      if (tool.filePaths.length > 0) tool.filePath = tool.filePaths[0];
      break;
    }
    case 'mcp': {
      const { mcpContext } = map;
      const context = mcpContext && own(envelope, mcpContext.key);
      const server = mcpContext && isPlainObject(context) ? own(context, mcpContext.server) : undefined;
      const named = mcpContext && isPlainObject(context) ? own(context, mcpContext.tool) : undefined;
      if (mcpContext && typeof server === 'string' && typeof named === 'string') {
        tool.server = server;
        tool.tool = named;
        tool.nativeKeys.server = `${mcpContext.key}.${mcpContext.server}`;
        tool.nativeKeys.tool = `${mcpContext.key}.${mcpContext.tool}`;
      } else {
        const groups = new RegExp(/** @type {string} */ (map.mcpName)).exec(name)?.groups ?? {};
        if (groups.server !== undefined) tool.server = groups.server;
        if (groups.tool !== undefined) tool.tool = groups.tool;
      }
      // One of the plugin's own servers (`mcpServers`), whatever the host calls its tools.
      for (const [ownServer, { match }] of Object.entries(contract.pluginMcp ?? {})) {
        const groups = new RegExp(match).exec(name)?.groups;
        if (groups?.tool !== undefined) {
          tool.ownServer = ownServer;
          tool.tool = groups.tool;
          break;
        }
      }
      tool.arguments = object ? input : {};
      if (inputKey !== undefined) tool.nativeKeys.arguments = inputKey;
      break;
    }
    default:
      break;
  }
  for (const field of Object.keys(unreadable)) delete tool[field];
  if (Object.keys(unreadable).length > 0) tool[UNREADABLE] = unreadable;
  return { tool, nameKey, identity, inputKey, input: object ? input : undefined };
}

// The host's name for tool `tool` of the plugin's own MCP server `server` (an `mcpServers` name), or
// undefined where that server is not placed.
/**
 * @param {Contract} contract
 * @param {unknown} server
 * @param {unknown} tool
 * @returns {string | undefined}
 */
function mcpToolName(contract, server, tool) {
  const own = contract.pluginMcp;
  if (typeof server !== 'string' || typeof tool !== 'string' || !own || !Object.hasOwn(own, server)) return undefined;
  return own[server].name.split('{tool}').join(tool);
}

// A rewrite may be given in canonical words: a key that is one of the canonical tool's fields and
// not one of the tool's own keys is written under the native key the host uses for it (`filePath`
// as Claude's `file_path`, Copilot's `path`; `patch` as Codex's `command`; `cwd` as Gemini's
// `dir_path`); for an MCP tool, `arguments` is the whole new input. The tool's own keys pass as they
// are. A canonical field the host's tool has no key for, or one that is read from a call and never
// written (`filePaths`, `edits`), fails the hook: a rewrite is never half-applied.
const WRITABLE_TOOL_FIELDS = { shell: ['command', 'cwd'], 'file.read': ['filePath'], 'file.write': ['filePath', 'content', 'patch'] };
const CANONICAL_INPUT_FIELDS = ['command', 'cwd', 'filePath', 'filePaths', 'content', 'edits', 'patch'];

/**
 * @param {Contract} contract
 * @param {JsonObject} envelope
 * @param {JsonObject} updated
 * @returns {JsonObject}
 */
function nativeRewrite(contract, envelope, updated) {
  const found = contract.tools === undefined ? undefined : canonicalTool(contract, envelope);
  if (found?.identity === undefined) return updated;
  const { tool, identity, inputKey, input } = found;
  const map = identity.input;
  if (tool.kind === 'mcp') {
    if (!Object.hasOwn(updated, 'arguments') || Object.hasOwn(input ?? {}, 'arguments')) return updated;
    if (Object.keys(updated).length !== 1 || !isPlainObject(updated.arguments)) {
      throw new HookError('updatedInput.arguments is the whole new input of an MCP tool: give it alone, as an object');
    }
    return updated.arguments;
  }
  const native = new Set([
    ...Object.keys(input ?? {}),
    ...Object.values(map.keys).flat(),
    ...(map.edits === undefined ? [] : [map.edits.list, map.edits.oldText, map.edits.newText].filter((k) => k !== undefined)),
  ]);
  const writable = WRITABLE_TOOL_FIELDS[tool.kind] ?? [];
  /** @type {JsonObject} */
  const rewritten = {};
  /** @type {Set<string>} */
  const written = new Set();
  for (const [key, value] of Object.entries(updated)) {
    if (native.has(key) || !CANONICAL_INPUT_FIELDS.includes(key)) {
      // A native field a canonical one is also written to keeps that one's value (below).
      if (!written.has(key)) rewritten[key] = value;
      continue;
    }
    if (!writable.includes(key)) {
      throw new HookError(`updatedInput.${key} cannot be written: a ${tool.kind} tool's ${key} is read from the call, never rewritten`);
    }
    const keys = map.keys[key];
    if (keys === undefined) {
      throw new HookError(`updatedInput.${key} cannot be written: ${contract.host}'s ${tool.name} takes no ${key}`);
    }
    const from = tool.nativeKeys[key];
    const target = from !== undefined && from.startsWith(`${inputKey}.`) ? from.slice(/** @type {string} */ (inputKey).length + 1) : keys[0];
    // The native field as the call had it (a copy of the call's input with the canonical field set)
    // gives way to the canonical one; changed too, the two disagree.
    const original = isPlainObject(input) ? own(/** @type {JsonObject} */ (input), target) : undefined;
    if (Object.hasOwn(updated, target) && JSON.stringify(updated[target]) !== JSON.stringify(original)) {
      throw new HookError(`updatedInput gives both ${key} and ${target}, the same field of ${tool.name} on ${contract.host}`);
    }
    // A command held as a list of command lines is rewritten as a list of the one line.
    const lines = key === 'command' && Array.isArray(original) && typeof value === 'string';
    rewritten[target] = lines ? [value] : value;
    written.add(target);
  }
  return rewritten;
}

// Where a decoded tool keeps its unreadable fields until armTool turns them into throws (a plain
// key, so the record survives the structured clone of the payload).
const UNREADABLE = '__agentBundleUnreadable';

// In the copy of the payload a handler or route gets (before it is frozen): each unreadable field
// of the tool becomes a property whose read fails the hook, saying why.
/**
 * @param {any} payload
 * @param {boolean} route
 */
function armTool(payload, route) {
  const tool = route ? payload.tool?.value : payload.tool;
  const unreadable = tool?.[UNREADABLE];
  if (unreadable === undefined) return payload;
  delete tool[UNREADABLE];
  for (const [field, why] of Object.entries(unreadable)) {
    Object.defineProperty(tool, field, /** @type {PropertyDescriptor} */ ({
      __proto__: null,
      // Enumerable, so that a copy (a spread, JSON.stringify) fails as a read does.
      enumerable: true,
      get() {
        throw new HookError(`tool.${field} cannot be read: ${why}`);
      },
    }));
  }
  return payload;
}

// A file tool's replacements: the input itself is one (`old_string`/`new_string`), or each element
// of a list of them is (`edits`). A string: why they cannot be read.
/**
 * @param {EditsMap} map
 * @param {JsonObject} input
 * @param {string | undefined} inputKey
 * @param {string} name
 * @param {string | undefined} filePath
 */
function fileEdits(map, input, inputKey, name, filePath) {
  const one = (edit, where) => {
    const newText = own(edit, map.newText);
    // Where an edit may leave its old text out, it inserts or creates (Cline's `editor`).
    const oldText = own(edit, map.oldText) ?? (map.oldOptional === true && newText !== undefined ? '' : undefined);
    if (oldText === undefined && newText === undefined) return undefined;
    if (typeof oldText !== 'string' || typeof newText !== 'string') {
      return `${where} of ${name} does not hold ${map.oldText} and ${map.newText} as strings`;
    }
    return { filePath, oldText, newText };
  };
  if (map.list === undefined) {
    const edit = one(input, inputKey);
    return typeof edit === 'string' ? edit : edit && [edit];
  }
  const list = own(input, map.list);
  if (list === undefined) return undefined;
  if (!Array.isArray(list) || !list.every(isPlainObject)) {
    return `${inputKey}.${map.list} of ${name} is not an array of objects (got ${show(list)})`;
  }
  const edits = list.map((edit, i) => one(edit, `${inputKey}.${map.list}[${i}]`) ?? { filePath, oldText: '', newText: '' });
  return edits.find((edit) => typeof edit === 'string') ?? edits;
}

// The files of a tool that reads a list of them (Cline's `read_files.files`): each element a path,
// or an object holding one under `map.path`. A string: why they cannot be read.
/**
 * @param {{ list: string, path: string }} map
 * @param {unknown} input
 * @param {string | undefined} inputKey
 * @param {string} name
 * @returns {string[] | string}
 */
function fileList(map, input, inputKey, name) {
  const list = isPlainObject(input) ? own(/** @type {JsonObject} */ (input), map.list) : undefined;
  const paths = Array.isArray(list) ? list.map((item) => (isPlainObject(item) ? own(item, map.path) : item)) : [];
  if (!Array.isArray(list) || list.length === 0 || !paths.every((path) => typeof path === 'string')) {
    return `${inputKey}.${map.list} of ${name} is not a list of paths or of objects with ${map.path} (got ${show(list)}), so the files are not known`;
  }
  return /** @type {string[]} */ (paths);
}

// The files a patch in the apply_patch format touches (added, updated, deleted, moved to), in
// order, with each hunk as an edit (context and removed lines the old text, context and added
// lines the new), and an added file's content when the patch adds exactly one file and nothing else.
/** @param {string} text */
function parsePatch(text) {
  /** @type {string[]} */
  const files = [];
  /** @type {{ filePath: string | undefined, oldText: string, newText: string }[]} */
  const edits = [];
  /** @type {string[]} */
  const added = [];
  /** @type {string | undefined} */
  let current;
  /** @type {{ old: string[], new: string[] } | undefined} */
  let hunk;
  const flush = () => {
    if (hunk !== undefined && (hunk.old.length > 0 || hunk.new.length > 0)) {
      edits.push({ filePath: current, oldText: hunk.old.join('\n'), newText: hunk.new.join('\n') });
    }
    hunk = undefined;
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim() === raw ? raw : raw.replace(/^\s+(?=\*\*\*)/, '');
    const header = /^\*\*\* (Add|Update|Delete) File:\s*(.+?)\s*$/.exec(line);
    const moved = /^\*\*\* Move to:\s*(.+?)\s*$/.exec(line);
    if (header !== null || moved !== null) {
      flush();
      const path = header !== null ? header[2] : /** @type {RegExpExecArray} */ (moved)[1];
      if (!files.includes(path)) files.push(path);
      if (header?.[1] === 'Add') added.push(path);
      if (header !== null) current = path;
      hunk = header?.[1] === 'Delete' ? undefined : { old: [], new: [] };
      continue;
    }
    if (line.startsWith('***')) {
      flush();
      continue;
    }
    if (line.startsWith('@@')) {
      flush();
      if (current !== undefined) hunk = { old: [], new: [] };
      continue;
    }
    if (hunk === undefined) continue;
    if (raw.startsWith('+')) {
      hunk.new.push(raw.slice(1));
    } else if (raw.startsWith('-')) {
      hunk.old.push(raw.slice(1));
    } else if (raw.startsWith(' ')) {
      hunk.old.push(raw.slice(1));
      hunk.new.push(raw.slice(1));
    }
  }
  flush();
  const content = added.length === 1 && files.length === 1 ? edits.find((e) => e.filePath === added[0])?.newText ?? '' : undefined;
  return { files, edits, content };
}
