import handler from './hooks/lodash-es.ts';
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const envelope = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const result = await handler({ toolName: envelope.tool_name, toolInput: envelope.tool_input });
process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: result.additionalContext } }));
