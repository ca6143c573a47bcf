// Returns (or throws) the result shape named by AGENT_BUNDLE_TEST_SHAPE.
type Shape = () => unknown;

const rewrite = { command: 'echo rewritten' };

const shapes: Record<string, Shape> = {
  'nothing': () => undefined,
  'null': () => null,
  'empty object': () => ({}),
  'continue': () => ({ outcome: 'continue' }),
  'context': () => ({ additionalContext: 'extra context' }),
  'continue + context': () => ({ outcome: 'continue', additionalContext: 'extra context' }),
  'deny': () => ({ outcome: 'deny', reason: 'not allowed here' }),
  'deny + context': () => ({ outcome: 'deny', reason: 'not allowed here', additionalContext: 'extra context' }),
  'rewrite': () => ({ updatedInput: rewrite }),
  'rewrite + context': () => ({ updatedInput: rewrite, additionalContext: 'extra context' }),
  'logs, then context': () => {
    console.log('a log line that must not reach stdout');
    process.stdout.write('a raw stdout write\n');
    return { additionalContext: 'extra context' };
  },
  'async deny': async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return { outcome: 'deny', reason: 'decided later' };
  },
  // Illegal shapes.
  'deny without reason': () => ({ outcome: 'deny' }),
  'deny with blank reason': () => ({ outcome: 'deny', reason: '   ' }),
  'reason without deny': () => ({ reason: 'why not' }),
  'deny + rewrite': () => ({ outcome: 'deny', reason: 'no', updatedInput: rewrite }),
  'stop': () => ({ outcome: 'stop' }),
  'allow': () => ({ outcome: 'allow' }),
  'unknown key': () => ({ decision: 'block' }),
  'context not a string': () => ({ additionalContext: 42 }),
  'reason not a string': () => ({ outcome: 'deny', reason: 7 }),
  'rewrite not an object': () => ({ updatedInput: 'echo hi' }),
  'rewrite an array': () => ({ updatedInput: ['echo', 'hi'] }),
  'an array': () => [],
  'a string': () => 'deny',
  'a class instance': () => new Date(0),
  'throws': () => {
    throw new Error('the handler broke');
  },
  'rejects': () => Promise.reject(new TypeError('the handler gave up')),
  'hangs': () => new Promise(() => {}),
};

export default (): unknown => {
  const name = process.env.AGENT_BUNDLE_TEST_SHAPE ?? 'nothing';
  const shape = shapes[name];
  if (!shape) {
    throw new Error(`unknown test shape ${name}`);
  }
  return shape();
};
