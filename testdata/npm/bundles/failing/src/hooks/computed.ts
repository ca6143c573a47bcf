export default async (event: { toolName: string }) => {
  const plugin = await import(`./plugins/${event.toolName}.ts`);
  return { additionalContext: plugin.default };
};
