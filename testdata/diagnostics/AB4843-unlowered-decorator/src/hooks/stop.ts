// No tsconfig.json sets experimentalDecorators, so this is a standard (TC39) decorator.
function logged<T>(method: T, _context: ClassMethodDecoratorContext): T {
  return method;
}

class Check {
  @logged
  run(): undefined {
    return undefined;
  }
}

export default () => new Check().run();
