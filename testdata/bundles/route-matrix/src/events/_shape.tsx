// Renders the result shape named by AGENT_BUNDLE_TEST_SHAPE. `_`-prefixed, so not a route itself.
// The illegal shapes are type errors too, each marked `@ts-expect-error` (tests/typescript.rs).
import { Agent } from '@agent-bundle/runtime';
import type { AgentEventRouteProps } from 'agent-bundle';

type Props = AgentEventRouteProps;

const rewrite = { command: 'echo rewritten' };

async function Later({ text }: { text: string }) {
  await new Promise((resolve) => setTimeout(resolve, 1));
  return <Agent.Context>{text}</Agent.Context>;
}

const shapes: Record<string, (props: Props) => unknown> = {
  'nothing': () => null,
  'continue': () => <Agent.Result value={{ outcome: 'continue' }} />,
  'context': () => <Agent.Context>extra context</Agent.Context>,
  'two contexts and a component': () => (
    <>
      <Agent.Context>first, </Agent.Context>
      <Later text="then second" />
    </>
  ),
  'deny': () => <Agent.Result value={{ outcome: 'deny', reason: 'not allowed here' }} />,
  'deny + context': () => (
    <Agent.Result value={{ outcome: 'deny', reason: 'not allowed here' }}>
      <Agent.Context>extra context</Agent.Context>
    </Agent.Result>
  ),
  'allow': () => <Agent.Result value={{ outcome: 'allow' }} />,
  'ask': () => <Agent.Result value={{ outcome: 'ask' }} />,
  'rewrite': () => <Agent.Result value={{ outcome: 'continue', updatedInput: rewrite }} />,
  'allow + rewrite': () => <Agent.Result value={{ outcome: 'allow', updatedInput: rewrite }} />,
  // The config handler's shapes that have a route form, for the differential test (tests/projection.rs).
  'continue + context': () => (
    <Agent.Result value={{ outcome: 'continue' }}>
      <Agent.Context>extra context</Agent.Context>
    </Agent.Result>
  ),
  'rewrite + context': () => (
    <Agent.Result value={{ outcome: 'continue', updatedInput: rewrite }}>
      <Agent.Context>extra context</Agent.Context>
    </Agent.Result>
  ),
  'allow + context': () => (
    <Agent.Result value={{ outcome: 'allow' }}>
      <Agent.Context>extra context</Agent.Context>
    </Agent.Result>
  ),
  'deny + rewrite': () => (
    // @ts-expect-error: a denial cannot carry a rewrite
    <Agent.Result value={{ outcome: 'deny', reason: 'no', updatedInput: rewrite }} />
  ),
  'props': ({ canonical, native, signal }) => {
    const { observedAt, sequence, ...stable } = canonical;
    const shown = {
      ...stable,
      observedAtIsIso: new Date(observedAt).toISOString() === observedAt,
      frozen: Object.isFrozen(canonical) && Object.isFrozen(canonical.payload) && Object.isFrozen(native),
      nativeEvent: native.hook_event_name,
      signal: { aborted: signal.aborted, isSignal: signal instanceof AbortSignal },
    };
    return <Agent.Context>{JSON.stringify(shown)}</Agent.Context>;
  },
  // The delivery's identity; the sequence counts renders in one process (not in the shape matrix).
  'identity': ({ canonical }) => (
    <Agent.Context>{JSON.stringify({ idempotencyKey: canonical.idempotencyKey, sequence: canonical.sequence })}</Agent.Context>
  ),
  // Waits until the route's signal aborts (only on a route with a budget).
  'waits for its signal': async ({ signal }) => {
    const reason = await new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason)));
    return <Agent.Context>{`aborted by ${(reason as Error).name}`}</Agent.Context>;
  },
  // Illegal shapes.
  'deny without reason': () => (
    // @ts-expect-error: a denial needs a reason
    <Agent.Result value={{ outcome: 'deny' }} />
  ),
  'unknown outcome': () => (
    // @ts-expect-error: not an outcome
    <Agent.Result value={{ outcome: 'approve' }} />
  ),
  'additionalContext in value': () => (
    // @ts-expect-error: context goes in <Agent.Context>
    <Agent.Result value={{ additionalContext: 'no' }} />
  ),
  'text outside context': () => (
    // @ts-expect-error: text reaches a host only inside <Agent.Context>
    <Agent.Result>stray text</Agent.Result>
  ),
  'Agent.Text': () => (
    // @ts-expect-error: no host receives Agent.Text from an event route
    <Agent.Text>shown to nobody</Agent.Text>
  ),
  'an HTML element': () => (
    // @ts-expect-error: no host receives HTML
    <div>hello</div>
  ),
  'two results': () => (
    <>
      <Agent.Result value={{ outcome: 'continue' }} />
      <Agent.Result value={{ outcome: 'continue' }} />
    </>
  ),
  'a plain object': () => ({ outcome: 'deny', reason: 'objects are for config hooks' }),
  'throws': () => {
    throw new Error('route exploded');
  },
  // Values read as the plain data they hold (issue 23): a Proxy or a getter fails the route.
  'a Proxy value that says allow': () => (
    <Agent.Result value={new Proxy({ outcome: 'continue' as const }, { get: (target, key) => (key === 'outcome' ? 'allow' : Reflect.get(target, key)) })} />
  ),
  'a getter value': () => (
    <Agent.Result
      value={{
        get outcome() {
          return 'allow' as const;
        },
      }}
    />
  ),
  'a frozen deny value': () => <Agent.Result value={Object.freeze({ outcome: 'deny' as const, reason: 'not allowed here' })} />,
  // A route that leaves Object.prototype polluted (as a naive merge of model-written JSON does), then
  // renders a result without a value: neither it nor later renders in the process read the pollution.
  'pollutes, then a bare result': () => {
    const prototype = Object.prototype as Record<string, unknown>;
    prototype.value = { outcome: 'allow' };
    prototype.children = 'stray text';
    return <Agent.Result />;
  },
};

export async function renderShape(props: Props) {
  const name = process.env.AGENT_BUNDLE_TEST_SHAPE ?? 'nothing';
  const shape = shapes[name];
  if (!shape) throw new Error(`unknown test shape ${name}`);
  return shape(props);
}
