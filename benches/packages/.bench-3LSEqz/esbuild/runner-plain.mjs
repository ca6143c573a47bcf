// benches/packages/.bench-3LSEqz/bundle/src/hooks/plain.ts
var plain_default = (event) => ({ additionalContext: `ran ${event.toolName}` });

// benches/packages/.bench-3LSEqz/bundle/src/runner-plain.ts
var chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
var envelope = JSON.parse(Buffer.concat(chunks).toString("utf8"));
var result = await plain_default({ toolName: envelope.tool_name, toolInput: envelope.tool_input });
process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: result.additionalContext } }));
