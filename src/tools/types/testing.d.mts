
// agent-bundle's test kit: a test runs a handler or an event route as a host's wrapper would, on an
// envelope the host sent, without building. Import it as `#agent-bundle/testing` (the bundle's
// package.json maps it, for Node, test runners and TypeScript alike):
//
//   import { readEnvelope, runHook } from '#agent-bundle/testing';
//   import guard from '../src/hooks/before-tool';
//
//   const run = await runHook('claude', 'beforeTool', guard, readEnvelope('test/fixtures/rm-rf.json'));
//   expect(run.result?.outcome).toBe('deny');
//
// Every call decides the delivery with the hook runtime's own code and the host tables the build
// uses, so the handler gets exactly what a wrapper hands it and the answer is the one the host would
// read. Not kept here: the hook's deadline (the test's own timeout stands for it; a route's budget
// is kept), the wrapper's stdin limit, and the answer channel (the answer is returned).

import type {
  AgentEventRouteProps,
  CanonicalEvent,
  Family,
  HookContext,
  HookPayload,
  HookResult,
  HookTarget,
} from './index';
import type { AgentNode } from '../@agent-bundle/runtime/jsx-runtime';

/**
 * What a host sent a hook: its envelope as a JSON object (`readEnvelope` reads a recorded one). On
 * OpenCode also the hook arguments it passes a plugin (`{ input, output }` of a tool hook, a session
 * event object), of which the kit makes the envelope as the plugin's entry module does.
 */
export type Envelope = Readonly<Record<string, unknown>>;

/** The hook's declaration and surroundings in a test. */
export interface TestOptions {
  /**
   * The variables the host sets for its hooks (`CLAUDE_PROJECT_DIR`, `CLAUDE_PLUGIN_DATA`, …), as
   * the wrapper reads them. Default: none; the test runner's own environment never leaks in.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** `pluginRoot`: the folder the host runs the plugin from. Default: undefined. */
  pluginRoot?: string;
  /**
   * `dataDir` when `env` gives no host variable for it. Default: one temporary folder per process
   * (a wrapper's default, agent-bundle's per-user folder, is not written by tests).
   */
  dataDir?: string;
  /** The hook's name in the lines the wrapper writes. Default: the event's. */
  name?: string;
  /** The hook is declared `failClosed: true`: any failure of it blocks the call. */
  failClosed?: boolean;
  /** A route's `config.timeoutMs`. Default: the host's deadline for the event. */
  timeoutMs?: number;
  /** OpenCode: the plugin's `directory`, for an envelope made of its hook arguments. Default: the working folder. */
  directory?: string;
}

/** A result as the wrapper checked it: `outcome` always, `updatedInput` as the host receives it (the tool's own keys). */
export type Checked<R> = R extends unknown
  ? Omit<R, 'outcome'> & { readonly outcome: Exclude<R extends { outcome?: infer O } ? O : never, undefined> }
  : never;

/** A config handler's result, as checked. */
export type CheckedResult<E extends CanonicalEvent> = Checked<HookResult<E>>;

/** A route's result, as checked. */
export interface CheckedRouteResult {
  readonly outcome: 'continue' | 'allow' | 'ask' | 'deny';
  readonly reason?: string;
  readonly additionalContext?: string;
  readonly updatedInput?: Readonly<Record<string, unknown>>;
  readonly extra?: { readonly systemMessage?: string; readonly env?: Readonly<Record<string, string>> };
}

/** One delivery as the wrapper decided it. A failure of the hook is thrown instead: a {@link HookFailure}. */
export interface HookRun<R> {
  /**
   * `answered`: the result was checked and answered (`answer`, nothing when there is nothing to say);
   * `blocked`: it holds a denial, ask or rewrite this host has no channel for on this event, so the
   * wrapper blocks the call with the host's blocking exit (`exitCode`; the reason in `stderr`);
   * `passed`: the wrapper let the delivery through without running the hook (another host's envelope,
   * or a native event where the canonical one does not happen).
   */
  readonly status: 'answered' | 'blocked' | 'passed';
  /** The result as checked (`answered`). */
  readonly result: R | undefined;
  /** The host's answer, parsed: what the wrapper writes on the host's answer channel. */
  readonly answer: Readonly<Record<string, unknown>> | undefined;
  /** The same answer as the text the host reads. */
  readonly stdout: string | undefined;
  /** The lines the wrapper writes on stderr (the notes of dropped parts, a block's reason). */
  readonly stderr: readonly string[];
  /** The wrapper's exit code. */
  readonly exitCode: number;
  /** The parts of the result this host has no channel for, each with why (also a note in `stderr`). */
  readonly dropped: readonly string[];
}

/**
 * A failure of the hook, with the wrapper's own line as its message (`cause`: what the handler
 * threw, when it threw): an envelope the wrapper refuses (the message names the field), a handler
 * that throws or returns an illegal result. `hookInput` and `routeInput` also throw it, with exit
 * code 0, for a delivery the wrapper passes without running the hook.
 */
export declare class HookFailure extends Error {
  /** The exit code the wrapper ends with: 1, or the host's blocking code for a fail-closed hook. */
  readonly exitCode: number;
  readonly stderr: readonly string[];
  /** The host blocks the call (a fail-closed hook failed). */
  readonly blocks: boolean;
}

/** A handler, its module, or a promise of its module (`import('../src/hooks/before-tool')`). */
export type HandlerUnderTest<E extends CanonicalEvent> =
  | ((event: HookPayload<E>, context: HookContext) => unknown)
  | { readonly default: (event: HookPayload<E>, context: HookContext) => unknown }
  | Promise<{ readonly default: (event: HookPayload<E>, context: HookContext) => unknown }>;

/** A route component, its module, or a promise of its module (`import('../src/events/tool/before')`). */
export type RouteUnderTest<F extends Family> =
  | ((props: AgentEventRouteProps<F>) => AgentNode | Promise<AgentNode>)
  | { readonly default: (props: AgentEventRouteProps<F>) => AgentNode | Promise<AgentNode> }
  | Promise<{ readonly default: (props: AgentEventRouteProps<F>) => AgentNode | Promise<AgentNode> }>;

/** A host's own name of an event (`PreToolUse`): any name but a config event's, whose calls are typed by it. */
export type NativeEventName<N extends string> = N extends CanonicalEvent ? never : N;

/**
 * What a wrapper of `host`'s `event` hands its handler for `envelope`: the canonical `event` (tool
 * names translated into `tool`) and the `context`. `event` may also be the host's own name of it
 * (`PreToolUse`). Throws a {@link HookFailure} where the wrapper would refuse the envelope.
 */
export function hookInput<E extends CanonicalEvent>(
  host: HookTarget,
  event: E,
  envelope: Envelope,
  options?: TestOptions,
): Promise<{ readonly event: HookPayload<E>; readonly context: HookContext }>;
export function hookInput<N extends string>(
  host: HookTarget,
  nativeEvent: NativeEventName<N>,
  envelope: Envelope,
  options?: TestOptions,
): Promise<{ readonly event: HookPayload<CanonicalEvent>; readonly context: HookContext }>;

/**
 * Runs `handler` on `envelope` as a wrapper of `host`'s `event` does: the result checked by the
 * runtime's rules for that host and event and projected into the host's answer.
 */
export function runHook<E extends CanonicalEvent>(
  host: HookTarget,
  event: E,
  handler: HandlerUnderTest<E>,
  envelope: Envelope,
  options?: TestOptions,
): Promise<HookRun<CheckedResult<E>>>;
export function runHook<N extends string>(
  host: HookTarget,
  nativeEvent: NativeEventName<N>,
  handler: HandlerUnderTest<any>,
  envelope: Envelope,
  options?: TestOptions,
): Promise<HookRun<CheckedResult<CanonicalEvent>>>;

/** The props a route of `family` gets on `host` for `envelope` (the original's `createEventRouteInput`). */
export function routeInput<F extends Family>(
  host: HookTarget,
  family: F,
  envelope: Envelope,
  options?: TestOptions,
): Promise<AgentEventRouteProps<F>>;

/** Renders `route` on `envelope` as the wrapper of `host`'s route of `family` does, into the host's answer. */
export function renderRoute<F extends Family>(
  host: HookTarget,
  family: F,
  route: RouteUnderTest<F>,
  envelope: Envelope,
  options?: TestOptions,
): Promise<HookRun<CheckedRouteResult>>;

/** The envelope recorded in `file` (a path relative to the working folder, or a `file:` URL). */
export function readEnvelope(file: string | URL): Envelope;
