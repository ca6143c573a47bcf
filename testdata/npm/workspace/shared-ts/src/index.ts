// A workspace sibling whose entry is TypeScript: bundled and compiled like the bundle's own code.
export enum Verdict {
  Allow = 'allow',
  Deny = 'deny',
}

export class Judge {
  constructor(private readonly banned: readonly string[]) {}

  judge(command: string): Verdict {
    return this.banned.some((b) => command.includes(b)) ? Verdict.Deny : Verdict.Allow;
  }
}
