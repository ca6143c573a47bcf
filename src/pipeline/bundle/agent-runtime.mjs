// @agent-bundle/runtime, provided by agent-bundle to every bundle it builds (nothing to install):
// the Agent elements an event route answers with, and the JSX factories the compiler's automatic
// JSX transform calls. Elements are plain frozen records; the hook runtime renders them.
const ELEMENT = Symbol.for('agent-bundle.element');

function protocol(name) {
  const element = () => {
    throw new Error(`<Agent.${name}> is rendered by agent-bundle; it cannot be called as a function`);
  };
  Object.defineProperty(element, ELEMENT, { value: name });
  Object.defineProperty(element, 'name', { value: `Agent.${name}` });
  return Object.freeze(element);
}

export const Agent = Object.freeze({
  Result: protocol('Result'),
  Context: protocol('Context'),
  Text: protocol('Text'),
  Markdown: protocol('Markdown'),
  Json: protocol('Json'),
  Progress: protocol('Progress'),
  Image: protocol('Image'),
  Audio: protocol('Audio'),
  Resource: protocol('Resource'),
  Error: protocol('Error'),
});

export const Fragment = Symbol.for('agent-bundle.fragment');

export function jsx(type, props, key) {
  return Object.freeze({ $$typeof: ELEMENT, type, props: props ?? {}, key: key ?? null });
}

export { jsx as jsxs, jsx as jsxDEV };
