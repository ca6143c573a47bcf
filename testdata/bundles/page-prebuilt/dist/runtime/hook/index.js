// A hook runtime the project compiles itself; agent-bundle ships it as is.
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  const envelope = JSON.parse(input);
  const path = envelope.tool_input?.file_path ?? 'a file';
  process.stdout.write(JSON.stringify({
    hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: `Recorded the edit of ${path}.` },
  }));
});
