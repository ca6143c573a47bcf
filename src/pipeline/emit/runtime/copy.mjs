// ---------------------------------------------------------------------------------------------
// Plain data: own properties only, the one copy of a result, and how values are named in messages.

/**
 * @param {unknown} value
 * @returns {value is JsonObject}
 */
function isPlainObject(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return false;
  }
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

// An own property's value, never one read through the prototype chain (which code that ran in
// this process, a handler's merge of a model-written `__proto__` above all, may have polluted).
/**
 * @param {any} object
 * @param {string | symbol} key
 * @returns {any}
 */
function own(object, key) {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

// A copy of a contract (or any JSON data) whose objects have no prototype: reading a part, a rule
// or a field that is absent gives undefined, whatever was added to Object.prototype.
function ownData(value) {
  if (Array.isArray(value)) return value.map(ownData);
  if (value === null || typeof value !== 'object') return value;
  const copy = Object.create(null);
  for (const key of Object.keys(value)) copy[key] = ownData(value[key]);
  return copy;
}

// What a handler (or a route's <Agent.Result value>) returned, copied once into plain data: the own
// enumerable data properties of plain objects and arrays, read through their descriptors, so that no
// getter, Proxy trap, toJSON or prototype is ever run or read, and the copy's objects have no
// prototype. What cannot be copied as it is (a Proxy, a getter, a hidden key, a function, a class
// instance or other non-plain object inside the result, a cycle) fails the hook: the checks never
// judge one thing while the host is sent another. A top-level value that is not a plain object is
// returned as it is, for the checks to refuse by its kind.
/**
 * @param {unknown} value
 * @param {string} where
 */
function resultSnapshot(value, where) {
  if ((typeof value === 'object' || typeof value === 'function') && value !== null && services.isProxy(value)) {
    throw new HookError(`${where} is a Proxy; a result must be plain data`);
  }
  if (!isPlainObject(value)) return value;
  return copyPlain(value, where, []);
}

/**
 * @param {unknown} value
 * @param {string} where
 * @param {unknown[]} ancestors
 * @returns {unknown}
 */
function copyPlain(value, where, ancestors) {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'undefined':
      return value;
    case 'object':
      if (value === null) return null;
      break;
    default:
      throw new HookError(`${where} is a ${typeof value}; a result must be plain data`);
  }
  if (services.isProxy(value)) throw new HookError(`${where} is a Proxy; a result must be plain data`);
  if (ancestors.includes(value)) throw new HookError(`${where} refers back to an object that holds it; a result must be plain data`);
  const array = Array.isArray(value);
  const prototype = Object.getPrototypeOf(value);
  if (array ? prototype !== Array.prototype : prototype !== Object.prototype && prototype !== null) {
    throw new HookError(`${where} is ${kindOf(value)}; a result must be plain data (objects, arrays, strings, numbers, booleans, null)`);
  }
  const inner = [...ancestors, value];
  const entry = (key, shown) => {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor === undefined) return undefined;
    if (!Object.hasOwn(descriptor, 'value')) throw new HookError(`${shown} is a getter; a result must be plain data`);
    if (!descriptor.enumerable) throw new HookError(`${shown} is not enumerable; a result must be plain data`);
    return copyPlain(descriptor.value, shown, inner);
  };
  if (array) {
    const copy = [];
    for (let index = 0; index < value.length; index += 1) copy.push(entry(String(index), `${where}[${index}]`));
    return copy;
  }
  const copy = Object.create(null);
  for (const key of Object.getOwnPropertyNames(value)) {
    copy[key] = entry(key, `${where}.${key}`);
  }
  return copy;
}

/**
 * @param {unknown} value
 * @returns {string}
 */
function kindOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') {
    if (isPlainObject(value)) return 'an object';
    const name = value.constructor?.name;
    return typeof name === 'string' && name !== '' && name !== 'Object' ? `a ${name} object` : 'an object with a prototype of its own';
  }
  return `a ${typeof value}`;
}

/**
 * @param {unknown} value
 * @returns {string}
 */
function show(value) {
  if (value === undefined) return 'nothing';
  let text;
  try {
    text = JSON.stringify(value);
  } catch {
    text = String(value);
  }
  text ??= String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * @param {unknown} error
 * @returns {string}
 */
function describeError(error) {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return show(error);
}
