// tool/after cannot deny: the tool has already run, so there is nothing for a failure to block.
export const config = { failClosed: true };

export default async function AfterTool() {
  return null;
}
