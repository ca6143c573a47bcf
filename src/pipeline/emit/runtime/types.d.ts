// The shapes the hook runtime reads and returns, for the type check of the shipped runtime
// (tests/it/typescript.rs: `tsc --noEmit` with `checkJs` over the files as an artifact holds them).
// Never shipped: the runtime's JSDoc names these types, and only the checker reads them. They are
// global (this file has no import or export), because the runtime's pieces are one module once
// joined and its JSDoc cannot import.

/** `after(ms, fn)`: calls fn once after ms milliseconds; returns a function that cancels it. */
type Timer = (ms: number, fn: () => void) => (() => void) | undefined;

/** What the core asks of its host (installServices). */
interface Services {
  env(name: string): string | undefined;
  isProxy(value: unknown): boolean;
  sourceMap(file: string): SourceMapData | null | undefined;
  sha256Hex(text: string): string;
  after: Timer | undefined;
  pluginRoot(): string | undefined;
  dataDir(own: string | undefined, plugin: string | undefined): string;
  appendFile(path: string, text: string): void;
}

/** A source map as JSON.parse gives it: only what the runtime reads, each part unchecked. */
interface SourceMapData {
  mappings?: unknown;
  sources?: unknown[];
}

/** What a hook decided: its exit code, its lines for stderr and its answer for stdout. */
interface Decision {
  code: number;
  stderr: string[];
  stdout: string | undefined;
}

/**
 * What one delivery decided before its answer is written (decide.mjs: judge): a decision whose
 * checked result, when the hook answered, is still parts (`checked`, with the notes of the parts the
 * host drops); `blocks` marks a guard part with no channel here.
 */
interface Judgement {
  code: number;
  stderr: string[];
  stdout?: string | undefined;
  checked?: CheckedResult;
  notes?: string[];
  blocks?: boolean;
}

/** A JSON object of the envelope (or any parsed JSON object). */
type JsonObject = { [key: string]: unknown };

/** The handler's module loader a wrapper exports. */
type LoadHandler = () => Promise<{ default?: unknown }>;

/** One envelope field of a host contract (src/hosts: InputField). */
interface ContractField {
  key: string;
  alternatives?: string[];
  type: 'string' | 'string|null' | 'boolean' | 'number' | 'object' | 'string[]' | 'enum' | 'any';
  required?: boolean;
  values?: unknown[];
  nonEmpty?: boolean;
  as?: string;
  decode?: 'positive' | 'json';
}

/** Where an edit's old and new text are: in the input itself, or in each element of `list`. */
interface EditsMap {
  list?: string;
  oldText: string;
  newText: string;
  /** An edit may leave its old text out (it inserts or creates). */
  oldOptional?: boolean;
}

/** A tool's input map as the contract carries it (src/hosts: ToolInputMap::for_runtime): for each
 * canonical field the tool keeps under native keys, those keys, tried in order, the first the one a
 * canonical field is written under (ToolInputMap::native_keys); and the rest of the map. */
interface ToolInputMap {
  keys: { [field: string]: string[] | undefined };
  edits?: EditsMap;
  /** The files of a tool that reads a list of them: the list's key, and each object's path key. */
  fileList?: { list: string; path: string };
  mcpName?: string;
  mcpContext?: { key: string; server: string; tool: string };
  optional?: string[];
}

/** One alternative of a selector (src/hosts: ToolIdentity). */
interface ToolIdentity {
  kind: string;
  pattern: string;
  input: ToolInputMap;
}

/** One write of an answer field (src/hosts/answer.rs). */
interface AnswerWrite {
  path: string;
  value?: unknown;
  ifAbsent?: boolean;
}

/** What the build decided for one part of a result on a host event. */
interface PartRule {
  write?: AnswerWrite[];
  drop?: string;
  refuse?: string;
  block?: string;
  exit?: number;
}

/** What the build decided for one `extra` answer on a host event. */
interface ExtraRule {
  field?: string;
  envFile?: string;
  drop?: string;
  refuse?: string;
}

/** The hook a wrapper runs. */
interface ContractHook {
  name: string;
  id: string;
  event: string;
  target: string;
  nativeEvent: string;
  deadlineMs: number;
  maxInputBytes: number;
  answerFd: number;
  failClosed?: { exit: number };
  childProcesses?: boolean;
  workerThreads?: boolean;
  readsStdin?: boolean;
  detach?: boolean;
  route?: { family: string; budgetMs: number; shared?: { epoch: string; fallback: string } };
}

/** A wrapper's contract: its slice of the host table (src/pipeline/emit/wrapper.rs). */
interface Contract {
  hook: ContractHook;
  host: string;
  revision: string;
  input: ContractField[];
  parts?: { [part: string]: PartRule | undefined };
  eventNamed?: { object: string; key: string };
  denyWhen?: { key: string; equals: unknown } | null;
  eventNameKey?: string | null;
  places?: { plugin?: string; dataEnv?: string[]; projectEnv?: string[]; projectKeys?: string[] };
  passWhenPresent?: string;
  passUnless?: { key: string; equals: unknown };
  pluginMcp?: { [server: string]: { name: string; match: string } };
  foreignEnvelopes?: { sender: string; present: string[]; absent: string[]; presentEnv?: string[] }[];
  tools?: ToolIdentity[];
  extras?: { [name: string]: ExtraRule };
  aliases?: { [old: string]: string };
}

/** A checked result: every part an own key of an object with no prototype. */
interface CheckedResult {
  outcome: 'continue' | 'allow' | 'ask' | 'deny';
  reason: string | undefined;
  additionalContext: string | undefined;
  updatedInput: JsonObject | undefined;
  extra: { [name: string]: unknown } | undefined;
}
