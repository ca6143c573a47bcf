//! A mock model server on 127.0.0.1 that speaks just enough of the Anthropic Messages API (Claude
//! Code) and the OpenAI Responses API (Codex) to script a run: the main loop gets the scenario's tool
//! calls in order, then a final answer. Every request body is recorded for the checks. The accept
//! loop polls a stop flag, so the server ends when the scenario does.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// A call the scripted model makes, in host-neutral terms.
#[derive(Clone, Debug)]
pub enum Call {
    /// A shell command (Claude `Bash`, or `PowerShell` on Windows; Codex `exec_command`).
    Shell(String),
    /// Create a file with this content (Claude `Write`, Codex `apply_patch`).
    WriteFile { path: String, content: String },
    /// Call tool `tool` of the plugin's MCP server `server`, under whatever name the host offers it:
    /// the request's tool whose name contains the server's and ends with the tool's.
    Mcp { server: String, tool: String, arguments: Value },
}

/// Every tool name a request offers the model, in any dialect (`tools[].name`,
/// `tools[].function.name`, `tools[].functionDeclarations[].name`).
pub fn offered_tools(request: &Value) -> Vec<String> {
    fn walk(value: &Value, names: &mut Vec<String>) {
        match value {
            Value::Array(items) => items.iter().for_each(|item| walk(item, names)),
            Value::Object(map) => {
                if let Some(Value::String(name)) = map.get("name") {
                    names.push(name.clone());
                }
                for (key, value) in map {
                    if matches!(key.as_str(), "function" | "functionDeclarations" | "tools") {
                        walk(value, names);
                    }
                }
            }
            _ => {}
        }
    }
    let mut names = Vec::new();
    walk(&request["tools"], &mut names);
    names
}

/// The host's name of tool `tool` of the plugin's server `server`, as the request offers it.
fn mcp_tool_name(request: &Value, server: &str, tool: &str) -> String {
    offered_tools(request)
        .into_iter()
        .find(|name| name != tool && name.contains(server) && name.ends_with(tool))
        .unwrap_or_else(|| format!("MISSING_MCP_TOOL_{server}_{tool}"))
}

pub const FINAL_TEXT: &str = "MOCK_FINAL_ANSWER";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Anthropic,
    OpenAiResponses,
    /// OpenAI chat completions, streamed (Copilot CLI's bring-your-own-key provider).
    OpenAiChat,
    /// The same API with Qwen Code's tool names (its `openai` auth type).
    QwenChat,
    /// The same API with OpenCode's tool names (a custom `@ai-sdk/openai-compatible` provider).
    OpencodeChat,
    /// The same API with Factory Droid's tool names (a `generic-chat-completion-api` custom model).
    DroidChat,
    /// The same API with Pi's tool names (an `openai-completions` provider in its models.json).
    PiChat,
    /// The same API with Cline CLI's tool names (its `openai-compatible` provider).
    ClineChat,
    /// Gemini's `streamGenerateContent?alt=sse` (Gemini CLI).
    Gemini,
}

pub struct MockServer {
    pub port: u16,
    requests: Arc<Mutex<Vec<Value>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl MockServer {
    pub fn start(dialect: Dialect, calls: Vec<Call>, work: std::path::PathBuf) -> std::io::Result<MockServer> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        listener.set_nonblocking(true)?;
        let port = listener.local_addr()?.port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let requests = requests.clone();
            let stop = stop.clone();
            std::thread::spawn(move || {
                // Bounded: the loop ends when the scenario sets `stop`, or after ten minutes at most.
                let deadline = Instant::now() + Duration::from_secs(600);
                while !stop.load(Ordering::Relaxed) && Instant::now() < deadline {
                    match listener.accept() {
                        Ok((stream, _)) => {
                            let _ = serve(stream, dialect, &calls, &work, &requests);
                        }
                        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                            std::thread::sleep(Duration::from_millis(5));
                        }
                        Err(_) => break,
                    }
                }
            })
        };
        Ok(MockServer { port, requests, stop, thread: Some(thread) })
    }

    /// Every request body received so far, in order.
    pub fn requests(&self) -> Vec<Value> {
        self.requests.lock().unwrap().clone()
    }
}

impl Drop for MockServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn serve(
    stream: TcpStream,
    dialect: Dialect,
    calls: &[Call],
    work: &std::path::Path,
    requests: &Mutex<Vec<Value>>,
) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut content_length = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            content_length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; content_length];
    reader.read_exact(&mut body)?;
    let mut stream = stream;
    if !request_line.starts_with("POST ") {
        return stream.write_all(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
    }
    let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    requests.lock().unwrap().push(request.clone());
    let events = match dialect {
        Dialect::Anthropic => anthropic_reply(&request, calls, work),
        Dialect::OpenAiResponses => responses_reply(&request, calls, work),
        Dialect::OpenAiChat => chat_reply(&request, calls, work, &COPILOT_TOOLS),
        Dialect::QwenChat => chat_reply(&request, calls, work, &QWEN_TOOLS),
        Dialect::OpencodeChat => chat_reply(&request, calls, work, &OPENCODE_TOOLS),
        Dialect::DroidChat => chat_reply(&request, calls, work, &DROID_TOOLS),
        Dialect::PiChat => chat_reply(&request, calls, work, &PI_TOOLS),
        Dialect::ClineChat => chat_reply(&request, calls, work, &CLINE_TOOLS),
        Dialect::Gemini => gemini_reply(&request, calls, work),
    };
    // Chat completion streams have no event names, and end with a bare `[DONE]`.
    let payload: String = events
        .iter()
        .map(|(event, data)| match (event.as_str(), data) {
            ("", Value::String(raw)) => format!("data: {raw}\n\n"),
            ("", data) => format!("data: {data}\n\n"),
            (event, data) => format!("event: {event}\ndata: {data}\n\n"),
        })
        .collect();
    let head = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        payload.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(payload.as_bytes())?;
    stream.flush()
}

/// The main loop's next call: as many calls as tool results the conversation already holds.
fn next_call(calls: &[Call], tool_results: usize) -> Option<&Call> {
    calls.get(tool_results)
}

fn anthropic_reply(request: &Value, calls: &[Call], work: &std::path::Path) -> Vec<(String, Value)> {
    // Claude Code's shell tool: `Bash`, or `PowerShell` where it runs on Windows without Git Bash.
    let offered = |name: &str| request["tools"].as_array().is_some_and(|tools| tools.iter().any(|t| t["name"] == name));
    let shell = if offered("Bash") { "Bash" } else { "PowerShell" };
    let is_main_loop = offered(shell);
    let tool_results = request["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|m| m["content"].as_array().into_iter().flatten())
        .filter(|c| c["type"] == "tool_result")
        .count();
    let call = if is_main_loop { next_call(calls, tool_results) } else { None };
    let (block, stop_reason) = match call {
        Some(Call::Shell(command)) => (
            json!({ "type": "tool_use", "id": format!("toolu_mock_{tool_results}"), "name": shell,
                     "input": { "command": command, "description": "mock call from the agent-bundle suite" } }),
            "tool_use",
        ),
        Some(Call::WriteFile { path, content }) => (
            json!({ "type": "tool_use", "id": format!("toolu_mock_{tool_results}"), "name": "Write",
                     "input": { "file_path": work.join(path).to_string_lossy(), "content": content } }),
            "tool_use",
        ),
        Some(Call::Mcp { server, tool, arguments }) => (
            json!({ "type": "tool_use", "id": format!("toolu_mock_{tool_results}"),
                     "name": mcp_tool_name(request, server, tool), "input": arguments }),
            "tool_use",
        ),
        None => (json!({ "type": "text", "text": FINAL_TEXT }), "end_turn"),
    };
    let mut events = vec![(
        "message_start".to_string(),
        json!({ "type": "message_start", "message": { "id": "msg_mock", "type": "message", "role": "assistant",
            "model": request["model"], "content": [], "stop_reason": null, "stop_sequence": null,
            "usage": { "input_tokens": 1, "output_tokens": 1 } } }),
    )];
    if block["type"] == "text" {
        events.push((
            "content_block_start".into(),
            json!({ "type": "content_block_start", "index": 0, "content_block": { "type": "text", "text": "" } }),
        ));
        events.push((
            "content_block_delta".into(),
            json!({ "type": "content_block_delta", "index": 0, "delta": { "type": "text_delta", "text": FINAL_TEXT } }),
        ));
    } else {
        let mut start = block.clone();
        start["input"] = json!({});
        events.push((
            "content_block_start".into(),
            json!({ "type": "content_block_start", "index": 0, "content_block": start }),
        ));
        events.push((
            "content_block_delta".into(),
            json!({ "type": "content_block_delta", "index": 0,
            "delta": { "type": "input_json_delta", "partial_json": block["input"].to_string() } }),
        ));
    }
    events.push(("content_block_stop".into(), json!({ "type": "content_block_stop", "index": 0 })));
    events.push(("message_delta".into(), json!({ "type": "message_delta", "delta": { "stop_reason": stop_reason, "stop_sequence": null }, "usage": { "output_tokens": 1 } })));
    events.push(("message_stop".into(), json!({ "type": "message_stop" })));
    events
}

fn responses_reply(request: &Value, calls: &[Call], _work: &std::path::Path) -> Vec<(String, Value)> {
    let is_main_loop =
        request["tools"].as_array().is_some_and(|tools| tools.iter().any(|t| t["name"] == "exec_command"));
    let tool_results = request["input"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|item| matches!(item["type"].as_str(), Some("function_call_output" | "custom_tool_call_output")))
        .count();
    let call = if is_main_loop { next_call(calls, tool_results) } else { None };
    let item = match call {
        Some(Call::Shell(command)) => json!({ "type": "function_call", "id": format!("fc_mock_{tool_results}"),
            "call_id": format!("call_mock_{tool_results}"), "name": "exec_command",
            "arguments": json!({ "cmd": command }).to_string() }),
        Some(Call::WriteFile { path, content }) => {
            let added: String = content.lines().map(|l| format!("+{l}\n")).collect();
            json!({ "type": "custom_tool_call", "id": format!("ctc_mock_{tool_results}"),
                "call_id": format!("call_mock_{tool_results}"), "name": "apply_patch",
                "input": format!("*** Begin Patch\n*** Add File: {path}\n{added}*** End Patch\n") })
        }
        Some(Call::Mcp { server, tool, arguments }) => {
            // Codex offers an MCP server's tools as a namespace (`mcp__<server>`) of functions.
            let namespace = request["tools"].as_array().into_iter().flatten().find(|t| {
                t["type"] == "namespace"
                    && t["name"].as_str().is_some_and(|n| n.contains(server.as_str()))
                    && t["tools"].as_array().is_some_and(|f| f.iter().any(|f| f["name"] == tool.as_str()))
            });
            let mut call = json!({ "type": "function_call",
                "id": format!("fc_mock_{tool_results}"), "call_id": format!("call_mock_{tool_results}"),
                "name": mcp_tool_name(request, server, tool), "arguments": arguments.to_string() });
            if let Some(namespace) = namespace {
                call["name"] = tool.as_str().into();
                call["namespace"] = namespace["name"].clone();
            }
            call
        }
        None => json!({ "type": "message", "role": "assistant", "id": "msg_mock",
            "content": [{ "type": "output_text", "text": FINAL_TEXT, "annotations": [] }] }),
    };
    vec![
        ("response.created".into(), json!({ "type": "response.created", "response": { "id": "resp_mock" } })),
        (
            "response.output_item.done".into(),
            json!({ "type": "response.output_item.done", "output_index": 0, "item": item }),
        ),
        (
            "response.completed".into(),
            json!({ "type": "response.completed", "response": { "id": "resp_mock",
            "usage": { "input_tokens": 1, "input_tokens_details": { "cached_tokens": 0 }, "output_tokens": 1,
                       "output_tokens_details": { "reasoning_tokens": 0 }, "total_tokens": 2 } } }),
        ),
    ]
}

/// A chat-completions host's tools: its shell (which also marks its main loop's requests) and how it
/// writes a file.
struct ChatTools {
    shell: &'static str,
    shell_input: fn(&str) -> Value,
    write: &'static str,
    write_input: fn(&std::path::Path, &str) -> Value,
}

const COPILOT_TOOLS: ChatTools = ChatTools {
    shell: "bash",
    shell_input: |command| json!({ "command": command, "description": "mock call from the agent-bundle suite" }),
    write: "create",
    write_input: |path, content| json!({ "path": path.to_string_lossy(), "file_text": content }),
};

const QWEN_TOOLS: ChatTools = ChatTools {
    shell: "run_shell_command",
    shell_input: |command| json!({ "command": command, "is_background": false, "description": "mock call from the agent-bundle suite" }),
    write: "write_file",
    write_input: |path, content| json!({ "file_path": path.to_string_lossy(), "content": content }),
};

const OPENCODE_TOOLS: ChatTools = ChatTools {
    shell: "bash",
    shell_input: |command| json!({ "command": command, "description": "mock call from the agent-bundle suite" }),
    write: "write",
    write_input: |path, content| json!({ "filePath": path.to_string_lossy(), "content": content }),
};

const PI_TOOLS: ChatTools = ChatTools {
    shell: "bash",
    shell_input: |command| json!({ "command": command }),
    write: "write",
    write_input: |path, content| json!({ "path": path.to_string_lossy(), "content": content }),
};

const CLINE_TOOLS: ChatTools = ChatTools {
    shell: "run_commands",
    shell_input: |command| json!({ "commands": [command] }),
    write: "editor",
    write_input: |path, content| json!({ "path": path.to_string_lossy(), "new_text": content }),
};

const DROID_TOOLS: ChatTools = ChatTools {
    shell: "Execute",
    // Droid refuses an Execute call without its risk fields.
    shell_input: |command| json!({ "command": command, "riskLevel": "low", "riskLevelReason": "a mock call from the agent-bundle suite" }),
    write: "Create",
    write_input: |path, content| json!({ "file_path": path.to_string_lossy(), "content": content }),
};

/// The ids of the mock's calls of a host's tool search, whose results are not the scenario's.
const SEARCH_CALL: &str = "call_search_";

/// A deferred tool's name the request mentions (a host's "deferred tools" reminder): a word that
/// contains the server's name and ends with the tool's.
fn deferred_name(request: &Value, server: &str, tool: &str) -> Option<String> {
    let text = request["messages"].to_string();
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .find(|word| *word != tool && word.contains(server) && word.ends_with(tool))
        .map(str::to_string)
}

fn chat_reply(request: &Value, calls: &[Call], work: &std::path::Path, tools: &ChatTools) -> Vec<(String, Value)> {
    let is_main_loop =
        request["tools"].as_array().is_some_and(|t| t.iter().any(|t| t["function"]["name"] == tools.shell));
    let tool_results = request["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["role"] == "tool" && !m["tool_call_id"].as_str().is_some_and(|id| id.starts_with(SEARCH_CALL)))
        .count();
    let searches =
        request["messages"].as_array().into_iter().flatten().filter(|m| m["role"] == "tool").count() - tool_results;
    let call = if is_main_loop { next_call(calls, tool_results) } else { None };
    let chunk = |delta: Value, finish: Value| {
        json!({ "id": "chatcmpl-mock", "object": "chat.completion.chunk", "created": 0, "model": request["model"],
            "choices": [{ "index": 0, "delta": delta, "finish_reason": finish }] })
    };
    let tool_call = |name: &str, arguments: Value| {
        json!({ "role": "assistant", "tool_calls": [{ "index": 0, "id": format!("call_mock_{tool_results}"),
            "type": "function", "function": { "name": name, "arguments": arguments.to_string() } }] })
    };
    let mut events = match call {
        Some(Call::Shell(command)) => vec![
            chunk(tool_call(tools.shell, (tools.shell_input)(command)), Value::Null),
            chunk(json!({}), json!("tool_calls")),
        ],
        Some(Call::WriteFile { path, content }) => vec![
            chunk(tool_call(tools.write, (tools.write_input)(&work.join(path), content)), Value::Null),
            chunk(json!({}), json!("tool_calls")),
        ],
        Some(Call::Mcp { server, tool, arguments }) => {
            let offered = offered_tools(request);
            let search = offered.iter().find(|n| matches!(n.as_str(), "ToolSearch" | "tool_search"));
            let name = mcp_tool_name(request, server, tool);
            match (offered.contains(&name), search, deferred_name(request, server, tool)) {
                // Loaded, and still hidden: called through the host's bridge (Qwen Code's `tool_call`).
                (false, Some(_), Some(deferred)) if searches > 0 && offered.iter().any(|n| n == "tool_call") => vec![
                    chunk(tool_call("tool_call", json!({ "name": deferred, "arguments": arguments })), Value::Null),
                    chunk(json!({}), json!("tool_calls")),
                ],
                // Behind the host's tool search: load it by name first, as a model would.
                (false, Some(search), Some(deferred)) => {
                    let call = json!({ "role": "assistant", "tool_calls": [{ "index": 0,
                        "id": format!("{SEARCH_CALL}{searches}"), "type": "function",
                        "function": { "name": search, "arguments": json!({ "query": format!("select:{deferred}") }).to_string() } }] });
                    vec![chunk(call, Value::Null), chunk(json!({}), json!("tool_calls"))]
                }
                _ => {
                    vec![chunk(tool_call(&name, arguments.clone()), Value::Null), chunk(json!({}), json!("tool_calls"))]
                }
            }
        }
        None => {
            let mut last = chunk(json!({}), json!("stop"));
            last["usage"] = json!({ "prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2 });
            vec![chunk(json!({ "role": "assistant", "content": FINAL_TEXT }), Value::Null), last]
        }
    };
    events.push(Value::String("[DONE]".into()));
    events.into_iter().map(|data| (String::new(), data)).collect()
}

fn gemini_reply(request: &Value, calls: &[Call], work: &std::path::Path) -> Vec<(String, Value)> {
    let is_main_loop = request["tools"].as_array().is_some_and(|tools| {
        tools.iter().any(|t| {
            t["functionDeclarations"].as_array().is_some_and(|d| d.iter().any(|f| f["name"] == "run_shell_command"))
        })
    });
    let tool_results = request["contents"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|c| c["parts"].as_array().into_iter().flatten())
        .filter(|p| p.get("functionResponse").is_some())
        .count();
    let call = if is_main_loop { next_call(calls, tool_results) } else { None };
    let part = match call {
        Some(Call::Shell(command)) => json!({ "functionCall": { "name": "run_shell_command",
            "args": { "command": command, "description": "mock call from the agent-bundle suite" } } }),
        Some(Call::WriteFile { path, content }) => json!({ "functionCall": { "name": "write_file",
            "args": { "file_path": work.join(path).to_string_lossy(), "content": content } } }),
        Some(Call::Mcp { server, tool, arguments }) => json!({ "functionCall": {
            "name": mcp_tool_name(request, server, tool), "args": arguments } }),
        None => json!({ "text": FINAL_TEXT }),
    };
    let response = json!({
        "candidates": [{ "content": { "role": "model", "parts": [part] }, "finishReason": "STOP", "index": 0 }],
        "usageMetadata": { "promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2 },
        "modelVersion": "gemini-2.5-flash"
    });
    vec![(String::new(), response)]
}
