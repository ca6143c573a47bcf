// Asks for the user's confirmation, which Codex and Gemini CLI cannot ask for: the call is blocked
// rather than let through.
export default () => ({ outcome: 'ask' as const });
