// Refuses deleting a note the model has not named exactly; lets every search through.
interface Call {
  tool: { name: string; kind: string; arguments?: Record<string, unknown> };
}

export default ({ tool }: Call) => {
  if (tool.name.endsWith('delete_note') && typeof tool.arguments?.id !== 'string') {
    return { outcome: 'deny' as const, reason: 'delete_note needs the id of one note' };
  }
  return { outcome: 'continue' as const };
};
