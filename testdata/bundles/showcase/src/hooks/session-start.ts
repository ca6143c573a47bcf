interface SessionStartEvent {
  readonly cwd?: string;
  readonly source?: string;
}

export default (event: SessionStartEvent) => ({
  additionalContext: `Session ${event.source ?? 'startup'} in ${event.cwd ?? process.cwd()}: run the tests before you finish.`,
});
