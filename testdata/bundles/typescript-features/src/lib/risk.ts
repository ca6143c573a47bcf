export enum Risk {
  Low = 'low',
  High = 'high',
}

export const enum Weight {
  Light = 1,
  Heavy = 10,
}

export class Assessor {
  constructor(private readonly patterns: readonly string[], public readonly weight: Weight = Weight.Heavy) {}

  assess(command: string): Risk {
    return this.patterns.some((p) => command.includes(p)) ? Risk.High : Risk.Low;
  }
}
