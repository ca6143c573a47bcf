//! A plugin's own MCP servers (`mcpServers`, issue 43): written where each host reads them, beside the
//! shared runtime's server in one document, with each host's root; a module server's bundle runs
//! from every host's folder and answers the MCP handshake; the wrappers know the plugin's tool names.

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};

use camino::Utf8Path;
use serde_json::{Value, json};

fn read_json(artifact: &Utf8Path, path: &str) -> Value {
    let text = std::fs::read_to_string(artifact.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The shared-runtime example (a route rendered in the plugin's generated server) with servers of the
/// plugin's own added: both land in Claude Code's one `.mcp.json`.
fn shared_runtime_with_servers() -> (tempfile::TempDir, camino::Utf8PathBuf) {
    let work = tempfile::tempdir().unwrap();
    let bundle = work.path().join("bundle");
    common::copy_tree(std::path::Path::new("testdata/bundles/shared-runtime"), &bundle);
    common::copy_tree(std::path::Path::new("testdata/bundles/mcp-servers/src/mcp"), &bundle.join("src/mcp"));
    let config = std::fs::read_to_string(bundle.join("agent-bundle.config.ts")).unwrap();
    let config = config.replace(
        "  targets: ['claude', 'codex'],",
        "  mcpServers: {\n    notes: { module: './src/mcp/notes.ts', env: { NOTES_DIR: '${pluginRoot}/notes' } },\n    search: { command: 'npx', args: ['-y', '@example/search-mcp'] },\n  },\n  targets: ['claude', 'codex', 'gemini', 'droid'],",
    );
    assert!(config.contains("mcpServers"), "the example's targets line moved");
    std::fs::write(bundle.join("agent-bundle.config.ts"), config).unwrap();
    let root = common::utf8(&bundle);
    let (temp, artifact) = common::build_root(&root);
    // The work folder (the sources) is dropped with the test: keep it alive in the guard's stead.
    std::mem::forget(work);
    (temp, artifact)
}

#[test]
fn every_host_reads_the_plugins_servers_in_its_own_place_with_its_own_root() {
    let (_temp, artifact) = shared_runtime_with_servers();

    // Claude Code: one `.mcp.json`, the shared runtime's server beside the plugin's own.
    let claude = read_json(&artifact, ".mcp.json");
    let servers = claude["mcpServers"].as_object().unwrap();
    assert_eq!(servers.keys().collect::<Vec<_>>(), ["notes", "search", "shared-runtime-runtime"]);
    assert_eq!(
        claude["mcpServers"]["notes"],
        json!({ "command": "node", "args": ["${CLAUDE_PLUGIN_ROOT}/hooks/handlers/src/mcp/notes.mjs"],
                "env": { "NOTES_DIR": "${CLAUDE_PLUGIN_ROOT}/notes" } })
    );
    assert_eq!(claude["mcpServers"]["search"], json!({ "command": "npx", "args": ["-y", "@example/search-mcp"] }));

    // Codex: its own file, named by its manifest, the server started in the root.
    let manifest = read_json(&artifact, ".codex-plugin/plugin.json");
    assert_eq!(manifest["mcpServers"], "./.codex-plugin/mcp.json");
    let codex = read_json(&artifact, ".codex-plugin/mcp.json");
    assert_eq!(
        codex["mcpServers"]["notes"],
        json!({ "command": "node", "args": ["./hooks/handlers/src/mcp/notes.mjs"], "cwd": "./",
                "env": { "NOTES_DIR": "./notes" } })
    );
    assert!(codex["mcpServers"].get("shared-runtime-runtime").is_none(), "Codex hosts no shared runtime");

    // Gemini CLI: the servers in its extension manifest, the bundle copied into its folder.
    let gemini = read_json(&artifact, "gemini/gemini-extension.json");
    assert_eq!(gemini["name"], "shared-runtime");
    assert_eq!(gemini["mcpServers"]["notes"]["args"], json!(["${extensionPath}/hooks/handlers/src/mcp/notes.mjs"]));
    assert!(artifact.join("gemini/hooks/handlers/src/mcp/notes.mjs").is_file());

    // Factory Droid: the program that needs nothing of the plugin's, and not the module server.
    let droid = read_json(&artifact, "droid/mcp.json");
    assert_eq!(droid["mcpServers"].as_object().unwrap().keys().collect::<Vec<_>>(), ["search"]);
    assert!(!artifact.join("droid/hooks/handlers/src/mcp/notes.mjs").exists());

    // The artifact manifest names each host's MCP document.
    let recorded = read_json(&artifact, "agent-bundle.manifest.json");
    let text = recorded.to_string();
    for document in [".mcp.json", ".codex-plugin/mcp.json", "droid/mcp.json"] {
        assert!(text.contains(&format!("\"{document}\"")), "{document} is not recorded");
    }
}

/// The module server's bundle holds what it imports and runs from each host's copy: the MCP
/// handshake, its tools, a call that writes under the root it was given.
#[test]
fn a_module_servers_bundle_answers_the_handshake_from_every_hosts_folder() {
    common::require_node();
    let (_temp, artifact) = shared_runtime_with_servers();
    for (folder, root) in [("", artifact.to_string()), ("gemini/", artifact.join("gemini").to_string())] {
        let notes = tempfile::tempdir().unwrap();
        let mut child = Command::new("node")
            .arg(artifact.join(format!("{folder}hooks/handlers/src/mcp/notes.mjs")))
            .env("NOTES_DIR", notes.path())
            .current_dir(&root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let requests = [
            json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "t", "version": "0" } } }),
            json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
            json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list" }),
            json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": { "name": "add_note", "arguments": { "id": "a", "body": "hello" } } }),
        ];
        {
            let mut stdin = child.stdin.take().unwrap();
            for request in requests {
                writeln!(stdin, "{request}").unwrap();
            }
        }
        let output = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        let answers: Vec<Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(answers.len(), 3, "{folder}: {stdout}\n{}", String::from_utf8_lossy(&output.stderr));
        assert_eq!(answers[0]["result"]["protocolVersion"], "2025-06-18");
        let tools: Vec<&str> =
            answers[1]["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(tools, ["list_notes", "add_note", "delete_note"]);
        assert_eq!(answers[2]["result"]["content"][0]["text"], "added a");
        assert_eq!(std::fs::read_to_string(notes.path().join("a.md")).unwrap(), "hello");
    }
}

/// A hook's `mcp:<server>` selector is each host's own tool name in its matcher, and its wrappers
/// carry the host's names for the plugin's servers (for `tool.ownServer` and `mcpToolName`).
#[test]
fn mcp_selectors_are_each_hosts_own_names_and_the_wrappers_know_them() {
    let (_temp, artifact) = common::build_bundle("mcp-servers");
    let matcher = |document: &str, event: &str| -> String {
        let document = read_json(&artifact, document);
        let entry = &document["hooks"][event][0];
        entry["matcher"].as_str().unwrap().to_string()
    };
    assert_eq!(
        matcher("hooks/hooks.json", "PreToolUse"),
        "^(?:mcp__plugin_mcp-servers_notes__delete_note|mcp__plugin_mcp-servers_search__.*)$"
    );
    assert_eq!(matcher(".codex-plugin/hooks.json", "PreToolUse"), "^(?:mcp__notes__delete_note|mcp__search__.*)$");
    assert_eq!(matcher("gemini/hooks/hooks.json", "BeforeTool"), "^(?:mcp_notes_delete_note|mcp_search_.*)$");
    assert_eq!(matcher(".plugin/hooks.json", "preToolUse"), "^(?:notes-delete_note|search-.*)$");
    // Factory Droid gets no `notes` server, so `onMissingSelector: 'skip-selector'` leaves it out there.
    assert_eq!(matcher("droid/hooks/hooks.json", "PreToolUse"), "^(?:search___.*)$");

    let wrapper = std::fs::read_dir(artifact.join("hooks"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".claude.mjs"))
        .expect("a Claude Code wrapper");
    let text = std::fs::read_to_string(wrapper).unwrap();
    assert!(text.contains("\"pluginMcp\""), "the wrapper's contract names the plugin's servers");
    assert!(text.contains("mcp__plugin_mcp-servers_notes__{tool}"));
}

/// A module server that imports a package shipped whole (`bundle.external`), for a host with a
/// folder of its own and no hooks there: the package ships into that folder too, and the server runs
/// from it.
#[test]
fn a_module_servers_packages_shipped_whole_reach_a_host_folder_without_hooks() {
    common::require_node();
    let work = tempfile::tempdir().unwrap();
    let bundle = work.path().join("bundle");
    common::write_file(
        &bundle,
        "agent-bundle.config.ts",
        "export default {\n  mcpServers: { s: { module: './src/mcp/s.ts' } },\n  bundle: { external: ['tiny-greeting'] },\n  plugin: { name: 'server-only', description: 'd', version: '1.0.0', author: 'a' },\n  targets: ['gemini'],\n};\n",
    );
    common::write_file(
        &bundle,
        "src/mcp/s.ts",
        "import { greet } from 'tiny-greeting';\nprocess.stdout.write(greet('server'));\n",
    );
    common::write_file(
        &bundle,
        "node_modules/tiny-greeting/package.json",
        r#"{ "name": "tiny-greeting", "version": "1.0.0", "type": "module", "exports": "./index.js" }"#,
    );
    common::write_file(
        &bundle,
        "node_modules/tiny-greeting/index.js",
        "export const greet = (who) => `hello from ${who}`;\n",
    );
    let (_temp, artifact) = common::build_root(&common::utf8(&bundle));
    assert!(artifact.join("gemini/hooks/node_modules/tiny-greeting/index.js").is_file());
    let away = tempfile::tempdir().unwrap();
    common::copy_tree(artifact.join("gemini").as_std_path(), &away.path().join("gemini"));
    let output = Command::new("node")
        .arg(away.path().join("gemini/hooks/handlers/src/mcp/s.mjs"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "hello from server",
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
