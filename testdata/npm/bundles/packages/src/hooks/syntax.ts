// Syntax newer than Node 18: `using` (explicit resource management), TypeScript's experimental
// decorators (tsconfig.json sets experimentalDecorators), private methods.
const log: string[] = [];

function traced(_target: object, key: string, descriptor: PropertyDescriptor): PropertyDescriptor {
  const original = descriptor.value as () => string;
  descriptor.value = function (this: unknown) {
    log.push(key);
    return original.call(this);
  };
  return descriptor;
}

class Counter {
  #count = 0;
  @traced
  next(): string {
    this.#count += 1;
    return `n${this.#count}`;
  }
}

export default () => {
  {
    using resource = { [Symbol.dispose]: () => log.push('disposed') };
    void resource;
  }
  const value = new Counter().next();
  return { additionalContext: `syntax ${value} ${log.join(',')}` };
};
