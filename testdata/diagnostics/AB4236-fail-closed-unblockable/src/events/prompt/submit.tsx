// Cursor's beforeSubmitPrompt has no recorded way for a failing hook to block the prompt, so a
// fail-closed prompt guard would fail open there.
export const config = { failClosed: true };

export default async function PromptGuard() {
  return null;
}
