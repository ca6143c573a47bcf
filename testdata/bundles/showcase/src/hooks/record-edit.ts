interface AfterToolEvent {
  readonly toolName: string;
}

export default (event: AfterToolEvent) => ({
  additionalContext: `${event.toolName} finished; keep the CHANGELOG in step.`,
});
