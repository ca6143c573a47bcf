interface BeforeToolEvent {
  readonly toolName: string;
  readonly toolInput: unknown;
}

export default (event: BeforeToolEvent) => {
  process.stderr.write(`audit: ${event.toolName}\n`);
};
