interface Event {
  readonly toolInput: Record<string, unknown>;
}

export default (event: Event) => ({
  updatedInput: { ...event.toolInput, command: 'echo rewritten > rewritten.txt' },
});
