//! Running the real Claude Code and Codex programs, offline, against the mock model server, with an
//! emitted plugin installed the way users install it.

use std::ffi::{OsStr, OsString};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::mock::{Call, Dialect, MockServer};

/// Where the pinned host programs are installed (scripts/host-e2e.sh installs them).
pub struct Programs {
    pub claude: PathBuf,
    pub codex: PathBuf,
    pub copilot: PathBuf,
    /// Gemini CLI's one bundled file, run by node.
    pub gemini: PathBuf,
    /// Qwen Code's entry file, run by node.
    pub qwen: PathBuf,
    /// OpenCode's native binary.
    pub opencode: PathBuf,
    /// Factory Droid's native binary (its platform package).
    pub droid: PathBuf,
    /// Kilo CLI's native binary (its platform package).
    pub kilo: PathBuf,
    /// Pi's entry file, run by node.
    pub pi: PathBuf,
    /// Cline CLI's native binary (its platform package).
    pub cline: PathBuf,
    /// Amp's native binary (its platform package), whose plugin runtime runs offline.
    pub amp: PathBuf,
    /// A `qwen` command that runs it (its package ships the entry file without the executable bit),
    /// for `cargo agent-bundle install` and `doctor`.
    pub qwen_launcher: PathBuf,
    /// Where Copilot CLI unpacks itself on first start (kept across runs; each run's HOME is new).
    pub copilot_cache: PathBuf,
    /// The folder holding `node`, put on the hosts' PATH so hook commands find it.
    pub node_dir: PathBuf,
}

impl Programs {
    pub fn locate() -> Result<Programs, String> {
        let dir = std::env::var_os("AGENT_BUNDLE_HOSTS_DIR")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cache/agent-bundle-hosts")))
            .ok_or("set AGENT_BUNDLE_HOSTS_DIR to the folder scripts/host-e2e.sh installs the hosts into")?;
        let claude = dir.join("node_modules/@anthropic-ai/claude-code-linux-x64/claude");
        let codex = dir.join("node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex");
        let copilot = dir.join("node_modules/@github/copilot-linux-x64/copilot");
        let copilot_cache = dir.join("copilot-pkg-cache");
        let gemini = dir.join("node_modules/@google/gemini-cli/bundle/gemini.js");
        let qwen = dir.join("node_modules/@qwen-code/qwen-code/cli.js");
        let opencode = dir.join("node_modules/opencode-linux-x64/bin/opencode");
        let droid = dir.join("node_modules/@factory/cli-linux-x64/bin/droid");
        let pi = dir.join("node_modules/@mariozechner/pi-coding-agent/dist/cli.js");
        let kilo = dir.join("node_modules/@kilocode/cli-linux-x64/bin/kilo");
        let cline = dir.join("node_modules/@cline/cli-linux-x64/bin/cline");
        let amp = dir.join("node_modules/@ampcode/cli-linux-x64/amp");
        for program in [&claude, &codex, &copilot, &gemini, &qwen, &opencode, &droid, &pi, &kilo, &cline, &amp] {
            if !program.is_file() {
                return Err(format!(
                    "{} is missing: run scripts/host-e2e.sh, which installs the pinned Claude Code, Codex, Copilot CLI, Gemini CLI, Qwen Code, OpenCode, Factory Droid, Pi, Kilo CLI, Cline CLI and Amp into {}",
                    program.display(),
                    dir.display()
                ));
            }
        }
        let node = Command::new("sh").args(["-c", "command -v node"]).output().map_err(|e| e.to_string())?;
        let node = String::from_utf8_lossy(&node.stdout).trim().to_string();
        if node.is_empty() {
            return Err("`node` is not on PATH; the emitted wrappers run under Node.js 18+".into());
        }
        let node_dir = Path::new(&node).parent().unwrap().to_path_buf();
        let qwen_launcher = dir.join("bin/qwen");
        let launcher = format!("#!/bin/sh\nexec node \"{}\" \"$@\"\n", qwen.display());
        if std::fs::read_to_string(&qwen_launcher).ok().as_deref() != Some(launcher.as_str()) {
            use std::os::unix::fs::PermissionsExt;
            std::fs::create_dir_all(dir.join("bin")).map_err(|e| e.to_string())?;
            std::fs::write(&qwen_launcher, &launcher).map_err(|e| e.to_string())?;
            std::fs::set_permissions(&qwen_launcher, std::fs::Permissions::from_mode(0o755))
                .map_err(|e| e.to_string())?;
        }
        Ok(Programs {
            claude,
            codex,
            copilot,
            copilot_cache,
            gemini,
            qwen,
            qwen_launcher,
            opencode,
            droid,
            pi,
            kilo,
            cline,
            amp,
            node_dir,
        })
    }

    pub fn path_variable(&self) -> String {
        format!("{}:/usr/local/bin:/usr/bin:/bin", self.node_dir.display())
    }
}

/// What one host run produced.
pub struct HostRun {
    pub exit_code: Option<i32>,
    pub timed_out: bool,
    pub stdout: String,
    pub stderr: String,
    /// Every request the host sent to the model.
    pub requests: Vec<Value>,
    /// The session's working folder (tool calls write here).
    pub work: PathBuf,
    /// Keeps the run's folders alive until the checks are done.
    pub(crate) _temp: tempfile::TempDir,
}

impl HostRun {
    pub fn any_request_contains(&self, needle: &str) -> bool {
        self.requests.iter().any(|r| r.to_string().contains(needle))
    }

    pub fn first_request_index_containing(&self, needle: &str) -> Option<usize> {
        self.requests.iter().position(|r| r.to_string().contains(needle))
    }

    pub fn summary(&self) -> String {
        let tail = |text: &str| text.lines().rev().take(3).collect::<Vec<_>>().join(" | ");
        format!(
            "exit {:?}{}, {} model requests; stderr: {}",
            self.exit_code,
            if self.timed_out { " (timed out)" } else { "" },
            self.requests.len(),
            tail(&self.stderr)
        )
    }
}

/// How the harness puts a plugin where a host loads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// The harness's own way (a marketplace it writes, a folder it copies).
    Manual,
    /// `cargo agent-bundle install --host <host>` into the run's HOME, the way a user installs.
    AgentBundle,
}

impl Programs {
    /// `program` in the environment the suite's install runs share: cleared but for `PATH`, this
    /// run's `HOME` (and Codex's home under it), the hosts' offline switches, and the host programs
    /// named by the variables `cargo agent-bundle install` reads; run in `home`.
    pub fn offline_command(&self, program: &Path, home: &Path) -> Command {
        let mut command = Command::new(program);
        command
            .env_clear()
            .env("PATH", self.path_variable())
            .env("HOME", home)
            .env("CODEX_HOME", home.join(".codex"))
            .env("COPILOT_OFFLINE", "true")
            .env("COPILOT_AUTO_UPDATE", "false")
            .env("COPILOT_PKG_CACHE_HOME", &self.copilot_cache)
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env("DISABLE_TELEMETRY", "1")
            .env("DISABLE_AUTOUPDATER", "1")
            .env("AGENT_BUNDLE_CLAUDE_PROGRAM", &self.claude)
            .env("AGENT_BUNDLE_CODEX_PROGRAM", &self.codex)
            .env("AGENT_BUNDLE_COPILOT_PROGRAM", &self.copilot)
            .env("AGENT_BUNDLE_GEMINI_PROGRAM", &self.gemini)
            .env("AGENT_BUNDLE_QWEN_PROGRAM", &self.qwen_launcher)
            .env("QWEN_CODE_NO_RELAUNCH", "true")
            .current_dir(home);
        command
    }
}

/// The prompt every session of the harness gives its host, unless a scenario asks for its own.
pub const DEFAULT_PROMPT: &str = "Run the scripted tool calls, then answer.";

thread_local! {
    /// The prompt of the sessions this thread starts next (a scenario that invokes a command sets it).
    static PROMPT: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Gives the sessions started on this thread `prompt` until the guard is dropped.
pub fn with_prompt(prompt: Option<String>) -> impl Drop {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            PROMPT.with(|p| *p.borrow_mut() = None);
        }
    }
    PROMPT.with(|p| *p.borrow_mut() = prompt);
    Reset
}

/// The prompt of a session started now.
fn prompt() -> String {
    PROMPT.with(|p| p.borrow().clone()).unwrap_or_else(|| DEFAULT_PROMPT.to_string())
}

/// Runs the real `cargo agent-bundle install --host <host>` for a run, with `home` as `HOME` and
/// `extra` variables on top (Codex's home where the run keeps it elsewhere).
pub fn agent_bundle_install(
    programs: &Programs,
    artifact: &Path,
    host: &str,
    home: &Path,
    extra: &[(&str, &OsStr)],
) -> std::io::Result<()> {
    let mut install = programs.offline_command(Path::new(env!("CARGO_BIN_EXE_cargo-agent-bundle")), home);
    install.envs(extra.iter().copied()).args(["agent-bundle", "install", "--host", host, "--artifact"]).arg(artifact);
    let (code, _, out, err) = run_bounded(install, Duration::from_secs(120))?;
    if code != Some(0) {
        return Err(std::io::Error::other(format!(
            "cargo agent-bundle install --host {host}: exit {code:?}: {out}{err}"
        )));
    }
    Ok(())
}

/// The same with `--scope project`, run in the project `work`.
pub fn agent_bundle_install_in_project(
    programs: &Programs,
    artifact: &Path,
    host: &str,
    home: &Path,
    work: &Path,
) -> std::io::Result<()> {
    let mut install = programs.offline_command(Path::new(env!("CARGO_BIN_EXE_cargo-agent-bundle")), home);
    install.current_dir(work).args(["agent-bundle", "install", "--host", host, "--scope", "project", "--artifact"]);
    install.arg(artifact);
    let (code, _, out, err) = run_bounded(install, Duration::from_secs(120))?;
    if code != Some(0) {
        return Err(std::io::Error::other(format!("install --host {host} --scope project: exit {code:?}: {out}{err}")));
    }
    Ok(())
}

pub struct ClaudeOptions<'a> {
    pub allowed_tools: Option<&'a str>,
    /// Installed for good by `cargo agent-bundle install --host claude` (or `claude-mod`, from its local
    /// marketplace) into the run's HOME, instead of `--plugin-dir` for the session.
    pub installed: bool,
}

pub fn run_claude(
    programs: &Programs,
    artifact: &Path,
    calls: Vec<Call>,
    options: ClaudeOptions<'_>,
    limit: Duration,
) -> std::io::Result<HostRun> {
    let temp = tempfile::tempdir()?;
    let (home, tmp, work) = (temp.path().join("home"), temp.path().join("tmp"), temp.path().join("work"));
    for dir in [&home, &tmp, &work] {
        std::fs::create_dir_all(dir)?;
    }
    if options.installed {
        // Claude Code's plugin in the form it was built in: `claude`, or `claude-mod` with its hooks module.
        let manifest = std::fs::read_to_string(artifact.join("agent-bundle.manifest.json"))?;
        let built: serde_json::Value = serde_json::from_str(&manifest).map_err(std::io::Error::other)?;
        let form = if built["hosts"].get("claude-mod").is_some() { "claude-mod" } else { "claude" };
        agent_bundle_install(programs, artifact, form, &home, &[])?;
    }
    let server = MockServer::start(Dialect::Anthropic, calls, work.clone())?;
    let mut command = Command::new(&programs.claude);
    command
        .env_clear()
        .env("PATH", programs.path_variable())
        .env("HOME", &home)
        .env("TMPDIR", &tmp)
        .env("ANTHROPIC_BASE_URL", format!("http://127.0.0.1:{}", server.port))
        .env("ANTHROPIC_API_KEY", "mock-key")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("DISABLE_TELEMETRY", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .env("DISABLE_ERROR_REPORTING", "1")
        // MCP tools offered up front, not behind ToolSearch, so the scripted model can call a plugin's
        // own tool by the name it is offered.
        .env("ENABLE_TOOL_SEARCH", "false")
        .current_dir(&work)
        .arg("-p")
        .arg(prompt())
        .args(["--output-format", "stream-json", "--verbose", "--include-hook-events"]);
    if !options.installed {
        command.arg("--plugin-dir").arg(artifact);
    }
    if let Some(tools) = options.allowed_tools {
        command.args(["--allowedTools", tools]);
    }
    let (exit_code, timed_out, stdout, stderr) = run_bounded(command, limit)?;
    let requests = server.requests();
    Ok(HostRun { exit_code, timed_out, stdout, stderr, requests, work, _temp: temp })
}

pub fn run_codex(
    programs: &Programs,
    artifact: &Path,
    plugin_name: &str,
    placement: Placement,
    calls: Vec<Call>,
    limit: Duration,
) -> std::io::Result<HostRun> {
    let temp = tempfile::tempdir()?;
    let (codex_home, work, marketplace) =
        (temp.path().join("codex-home"), temp.path().join("work"), temp.path().join("marketplace"));
    for dir in [&codex_home, &work, &marketplace.join(".claude-plugin")] {
        std::fs::create_dir_all(dir)?;
    }
    // `codex exec` asks before an MCP tool call and, with no one to ask, refuses it: a scenario whose
    // model calls a plugin's MCP tool runs with approvals bypassed.
    let calls_mcp = calls.iter().any(|call| matches!(call, Call::Mcp { .. }));
    let server = MockServer::start(Dialect::OpenAiResponses, calls, work.clone())?;

    write_codex_config(&codex_home, &codex_home.join("catalog.json").display().to_string(), server.port)?;
    // Codex installs plugins only from a marketplace: a local one listing the artifact.
    write_marketplace(&marketplace, artifact, plugin_name)?;
    let codex = |args: &[OsString]| {
        let mut command = Command::new(&programs.codex);
        command
            .env_clear()
            .env("PATH", programs.path_variable())
            .env("HOME", &codex_home)
            .env("CODEX_HOME", &codex_home)
            .env("MOCK_API_KEY", "mock-key")
            .current_dir(&work)
            .args(args);
        // Codex's own log on its stderr (`E2E_CODEX_LOG=info`): where an MCP server's start fails.
        if let Some(log) = std::env::var_os("E2E_CODEX_LOG") {
            command.env("RUST_LOG", log);
        }
        command
    };
    let installs: [Vec<OsString>; 2] = [
        vec!["plugin".into(), "marketplace".into(), "add".into(), marketplace.clone().into_os_string()],
        vec!["plugin".into(), "add".into(), format!("{plugin_name}@agent-bundle-e2e").into()],
    ];
    if placement == Placement::AgentBundle {
        agent_bundle_install(programs, artifact, "codex", &codex_home, &[("CODEX_HOME", codex_home.as_os_str())])?;
    }
    for args in installs.into_iter().filter(|_| placement == Placement::Manual) {
        let (code, _, out, err) = run_bounded(codex(&args), Duration::from_secs(60))?;
        if code != Some(0) {
            return Err(std::io::Error::other(format!("codex {args:?} failed: {out} {err}")));
        }
    }
    let sandbox: Vec<OsString> = if calls_mcp {
        vec!["--dangerously-bypass-approvals-and-sandbox".into()]
    } else {
        vec!["-s".into(), "workspace-write".into()]
    };
    let mut exec: Vec<OsString> = vec!["exec".into(), "--json".into(), "--skip-git-repo-check".into()];
    exec.extend(sandbox);
    exec.extend::<Vec<OsString>>(vec![
        "-C".into(),
        work.clone().into_os_string(),
        "--dangerously-bypass-hook-trust".into(),
        prompt().into(),
    ]);
    let command = codex(&exec);
    let (exit_code, timed_out, stdout, stderr) = run_bounded(command, limit)?;
    let requests = server.requests();
    Ok(HostRun { exit_code, timed_out, stdout, stderr, requests, work, _temp: temp })
}

/// Codex's home for a run against the mock on `port`: a model catalog entry (which makes Codex offer
/// its `apply_patch` tool to the mock model) at `catalog` as Codex reads the path, and the config.
pub fn write_codex_config(codex_home: &Path, catalog: &str, port: u16) -> std::io::Result<()> {
    let entry = serde_json::json!({ "models": [{
        "slug": "mock-model", "display_name": "mock model", "apply_patch_tool_type": "freeform",
        "supported_reasoning_levels": [], "shell_type": "default", "visibility": "list", "supported_in_api": true,
        "priority": 1, "support_verbosity": false, "truncation_policy": { "mode": "bytes", "limit": 10000 },
        "experimental_supported_tools": [], "base_instructions": "You are a mock model driven by the agent-bundle suite."
    }]});
    std::fs::write(codex_home.join("catalog.json"), entry.to_string())?;
    std::fs::write(
        codex_home.join("config.toml"),
        format!(
            "model = \"mock-model\"\nmodel_provider = \"mock\"\nmodel_catalog_json = '{catalog}'\n\
             check_for_update_on_startup = false\n\n\
             [model_providers.mock]\nname = \"mock\"\nbase_url = \"http://127.0.0.1:{port}/v1\"\n\
             wire_api = \"responses\"\nenv_key = \"MOCK_API_KEY\"\n\n\
             [analytics]\nenabled = false\n\n\
             [features]\nremote_plugin = false\napps = false\nplugin_sharing = false\n"
        ),
    )
}

/// A local marketplace (`.claude-plugin/marketplace.json`, which Claude Code and Codex read) listing a
/// copy of the artifact as `plugin_name`, in `agent-bundle-e2e`.
pub fn write_marketplace(marketplace: &Path, artifact: &Path, plugin_name: &str) -> std::io::Result<()> {
    std::fs::create_dir_all(marketplace.join(".claude-plugin"))?;
    crate::copy_tree(artifact, &marketplace.join(plugin_name))?;
    std::fs::write(
        marketplace.join(".claude-plugin/marketplace.json"),
        serde_json::json!({ "name": "agent-bundle-e2e", "owner": { "name": "agent-bundle tests" },
            "plugins": [{ "name": plugin_name, "source": format!("./{plugin_name}") }] })
        .to_string(),
    )
}

/// How a Copilot run gets the plugin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopilotInstall {
    /// `--plugin-dir`, for the session only.
    PluginDir,
    /// A local marketplace folder listing it, then `copilot plugin install <name>@<marketplace>`.
    Marketplace,
    /// `cargo agent-bundle install --host copilot`.
    AgentBundle,
}

/// Copilot CLI in `-p` mode with the plugin installed as `install` says, offline, with its
/// bring-your-own-key provider pointed at the mock.
pub fn run_copilot(
    programs: &Programs,
    artifact: &Path,
    plugin_name: &str,
    install: CopilotInstall,
    calls: Vec<Call>,
    limit: Duration,
) -> std::io::Result<HostRun> {
    let temp = tempfile::tempdir()?;
    let (home, work, logs) = (temp.path().join("home"), temp.path().join("work"), temp.path().join("logs"));
    for dir in [&home, &work, &logs, &programs.copilot_cache] {
        std::fs::create_dir_all(dir)?;
    }
    let server = MockServer::start(Dialect::OpenAiChat, calls, work.clone())?;
    // Every Copilot command of the run: offline, this run's HOME, the unpacked binary kept.
    let copilot = || {
        let mut command = Command::new(&programs.copilot);
        command
            .env_clear()
            .env("PATH", programs.path_variable())
            .env("HOME", &home)
            .env("COPILOT_OFFLINE", "true")
            .env("COPILOT_AUTO_UPDATE", "false")
            .env("COPILOT_PKG_CACHE_HOME", &programs.copilot_cache)
            .current_dir(&work);
        command
    };
    if install == CopilotInstall::AgentBundle {
        agent_bundle_install(programs, artifact, "copilot", &home, &[])?;
    }
    if install == CopilotInstall::Marketplace {
        let marketplace = temp.path().join("marketplace");
        crate::copy_tree(artifact, &marketplace.join("plugins").join(plugin_name))?;
        std::fs::create_dir_all(marketplace.join(".github/plugin"))?;
        std::fs::write(
            marketplace.join(".github/plugin/marketplace.json"),
            serde_json::json!({ "name": "agent-bundle-e2e", "owner": { "name": "agent-bundle tests" },
                "plugins": [{ "name": plugin_name, "source": format!("./plugins/{plugin_name}") }] })
            .to_string(),
        )?;
        let steps: [Vec<OsString>; 2] = [
            vec!["plugin".into(), "marketplace".into(), "add".into(), marketplace.into_os_string()],
            vec!["plugin".into(), "install".into(), format!("{plugin_name}@agent-bundle-e2e").into()],
        ];
        for args in steps {
            let mut step = copilot();
            step.args(&args);
            let (code, _, out, err) = run_bounded(step, Duration::from_secs(60))?;
            if code != Some(0) {
                return Err(std::io::Error::other(format!("copilot {args:?} failed: {out} {err}")));
            }
        }
    }
    let mut command = copilot();
    command
        .env("COPILOT_PROVIDER_BASE_URL", format!("http://127.0.0.1:{}/v1", server.port))
        .env("COPILOT_PROVIDER_API_KEY", "mock-key")
        .env("COPILOT_MODEL", "mock-model")
        .arg("-p")
        .arg(prompt())
        .args(["--allow-all-tools", "--output-format", "json"])
        .args(["--log-level", "debug", "--log-dir"])
        .arg(&logs);
    if install == CopilotInstall::PluginDir {
        command.arg("--plugin-dir").arg(artifact);
    }
    let (exit_code, timed_out, stdout, mut stderr) = run_bounded(command, limit)?;
    for entry in std::fs::read_dir(&logs).into_iter().flatten().flatten() {
        stderr.push_str(&std::fs::read_to_string(entry.path()).unwrap_or_default());
    }
    let requests = server.requests();
    Ok(HostRun { exit_code, timed_out, stdout, stderr, requests, work, _temp: temp })
}

/// A run's temporary folder, `HOME` and work folder for a host that loads extensions from
/// `~/.<host>/extensions/` (Gemini CLI, Qwen Code): the artifact's `<host>/` folder placed there
/// (copied, as `<host> extensions install` does, or by `cargo agent-bundle install`), and the host's
/// `settings.json` written.
fn extension_home(
    programs: &Programs,
    artifact: &Path,
    host: &str,
    plugin_name: &str,
    placement: Placement,
    settings: &Value,
) -> std::io::Result<(tempfile::TempDir, PathBuf, PathBuf)> {
    let temp = tempfile::tempdir()?;
    let (home, work) = (temp.path().join("home"), temp.path().join("work"));
    let extensions = home.join(format!(".{host}/extensions"));
    std::fs::create_dir_all(&extensions)?;
    std::fs::create_dir_all(&work)?;
    match placement {
        Placement::Manual => crate::copy_tree(&artifact.join(host), &extensions.join(plugin_name))?,
        Placement::AgentBundle => agent_bundle_install(programs, artifact, host, &home, &[])?,
    }
    std::fs::write(home.join(format!(".{host}/settings.json")), settings.to_string())?;
    Ok((temp, home, work))
}

/// A host that loads extensions from `~/.<name>/extensions/` and is a node script, as a session
/// needs it: its settings, its mock's dialect, and how it is pointed at the mock.
pub struct ExtensionHost {
    name: &'static str,
    script: fn(&Programs) -> &Path,
    settings: fn() -> Value,
    dialect: Dialect,
    /// The variables that point it at the mock on `port`, and switch off what would go online.
    env: fn(u16) -> Vec<(&'static str, String)>,
    args: &'static [&'static str],
}

/// Gemini CLI 0.61.0, through its Gemini API key auth type.
pub const GEMINI: ExtensionHost = ExtensionHost {
    name: "gemini",
    script: |programs| &programs.gemini,
    settings: || {
        serde_json::json!({
            "security": { "auth": { "selectedType": "gemini-api-key" } },
            "general": { "enableAutoUpdate": false, "enableAutoUpdateNotification": false },
            "privacy": { "usageStatisticsEnabled": false },
            "telemetry": { "enabled": false }
        })
    },
    dialect: Dialect::Gemini,
    env: |port| {
        vec![
            ("GEMINI_API_KEY", "mock-key".into()),
            ("GOOGLE_GEMINI_BASE_URL", format!("http://127.0.0.1:{port}")),
            ("GEMINI_CLI_TRUST_WORKSPACE", "true".into()),
        ]
    },
    args: &["--model", "gemini-2.5-flash", "--yolo", "--output-format", "json", "--debug"],
};

/// Qwen Code 0.24.4, through its `openai` auth type (no relaunch, no yolo banner).
pub const QWEN: ExtensionHost = ExtensionHost {
    name: "qwen",
    script: |programs| &programs.qwen,
    settings: || {
        serde_json::json!({
            "security": { "auth": { "selectedType": "openai" } },
            "general": { "disableAutoUpdate": true, "disableUpdateNag": true },
            "privacy": { "usageStatisticsEnabled": false },
            "telemetry": { "enabled": false }
        })
    },
    dialect: Dialect::QwenChat,
    env: |port| {
        vec![
            ("OPENAI_BASE_URL", format!("http://127.0.0.1:{port}/v1")),
            ("OPENAI_API_KEY", "mock-key".into()),
            ("OPENAI_MODEL", "qwen3-coder-plus".into()),
            ("QWEN_CODE_NO_RELAUNCH", "true".into()),
            ("QWEN_CODE_SUPPRESS_YOLO_WARNING", "1".into()),
        ]
    },
    args: &["--yolo", "--output-format", "json"],
};

/// An extension host in `-p` mode with the artifact's `<name>/` folder copied into
/// `~/.<name>/extensions/` (what `<name> extensions install` does, without its consent prompts) or
/// put there by `cargo agent-bundle install`, offline against the mock.
pub fn run_extension_host(
    host: &ExtensionHost,
    programs: &Programs,
    artifact: &Path,
    plugin_name: &str,
    placement: Placement,
    calls: Vec<Call>,
    limit: Duration,
) -> std::io::Result<HostRun> {
    let (temp, home, work) = extension_home(programs, artifact, host.name, plugin_name, placement, &(host.settings)())?;
    let server = MockServer::start(host.dialect, calls, work.clone())?;
    let mut command = Command::new("node");
    command
        .arg((host.script)(programs))
        .env_clear()
        .env("PATH", programs.path_variable())
        .env("HOME", &home)
        .envs((host.env)(server.port))
        .current_dir(&work)
        .args(host.args)
        .arg("-p")
        .arg(prompt());
    let (exit_code, timed_out, stdout, stderr) = run_bounded(command, limit)?;
    let requests = server.requests();
    Ok(HostRun { exit_code, timed_out, stdout, stderr, requests, work, _temp: temp })
}

/// Where a run puts the plugin of a host that loads it into its own process (OpenCode, Kilo CLI, Pi).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InProcessPlacement {
    /// The harness's own way: OpenCode's and Kilo's `opencode/` folder copied out and named in the
    /// config's `plugin` list (`file://…/plugin.mjs`); Pi's `pi/` folder copied into the project's
    /// `.pi/extensions/<plugin>/`; Cline's `cline/` folder copied as the project's `.clinerules/hooks/`.
    Manual,
    /// Installed by `cargo agent-bundle install --host <host>` into the run's HOME: OpenCode's and
    /// Kilo's config folder's `plugins/`, with the module beside it that the host loads; Pi's
    /// `~/.pi/agent/extensions/`; Cline's `~/.cline/hooks/`.
    Installed,
    /// The same, `--scope project`: the project's `.opencode/plugins/`, `.kilo/plugins/`,
    /// `.pi/extensions/`, `.clinerules/hooks/`.
    InstalledInProject,
    /// A control: installed in the project for another host (`--host opencode`, for a Kilo session).
    InstalledInProjectFor(&'static str),
}

/// Where `cargo agent-bundle install` put the plugin for a run ([`InProcessPlacement::install`]).
pub enum Placed {
    /// Not installed: the run copies the artifact's folder its own way.
    Manual,
    /// In the run's HOME.
    Home,
    /// In the project, for this host.
    Project(&'static str),
}

impl InProcessPlacement {
    /// Installs the artifact for `host` as this placement asks (nothing for `Manual`), and says where.
    pub fn install(
        self,
        programs: &Programs,
        artifact: &Path,
        host: &'static str,
        home: &Path,
        work: &Path,
    ) -> std::io::Result<Placed> {
        let in_project = |for_host: &'static str| -> std::io::Result<Placed> {
            agent_bundle_install_in_project(programs, artifact, for_host, home, work)?;
            Ok(Placed::Project(for_host))
        };
        match self {
            InProcessPlacement::Manual => Ok(Placed::Manual),
            InProcessPlacement::Installed => {
                agent_bundle_install(programs, artifact, host, home, &[])?;
                Ok(Placed::Home)
            }
            InProcessPlacement::InstalledInProject => in_project(host),
            InProcessPlacement::InstalledInProjectFor(other) => in_project(other),
        }
    }
}

/// What differs between OpenCode and its fork Kilo CLI, which loads OpenCode's plugin modules: its
/// program, config folder and file, the package it installs into each config folder, and its
/// environment switches.
pub struct OpencodeStyle {
    /// The host's name for `cargo agent-bundle install --host`.
    pub host: &'static str,
    /// Its program.
    pub program: fn(&Programs) -> &Path,
    /// The config folder's name under `~/.config` (and, with a dot, in the project).
    pub config: &'static str,
    /// The project's config file.
    pub config_file: &'static str,
    /// The package the host installs into every config folder at start-up, and its version.
    pub plugin_package: (&'static str, &'static str),
    /// The prefix of its environment switches (`OPENCODE_`, `KILO_`).
    pub env_prefix: &'static str,
}

pub const OPENCODE: OpencodeStyle = OpencodeStyle {
    host: "opencode",
    program: |programs| &programs.opencode,
    config: "opencode",
    config_file: "opencode.json",
    plugin_package: ("@opencode-ai/plugin", "1.18.33"),
    env_prefix: "OPENCODE_",
};

pub const KILO: OpencodeStyle = OpencodeStyle {
    host: "kilo",
    program: |programs| &programs.kilo,
    config: "kilo",
    config_file: "kilo.json",
    plugin_package: ("@kilocode/plugin", "7.7.9"),
    env_prefix: "KILO_",
};

/// OpenCode 1.18.33 in `run` mode, offline, with its `@ai-sdk/openai-compatible` provider pointed at
/// the mock and the plugin placed as `placement` says, every tool allowed.
pub fn run_opencode(
    programs: &Programs,
    artifact: &Path,
    plugin_name: &str,
    placement: InProcessPlacement,
    calls: Vec<Call>,
    limit: Duration,
) -> std::io::Result<HostRun> {
    run_opencode_style(&OPENCODE, programs, artifact, plugin_name, placement, calls, limit)
}

/// Kilo CLI 7.7.9 the same way: the artifact's `opencode/` folder is its plugin too.
pub fn run_kilo(
    programs: &Programs,
    artifact: &Path,
    plugin_name: &str,
    placement: InProcessPlacement,
    calls: Vec<Call>,
    limit: Duration,
) -> std::io::Result<HostRun> {
    run_opencode_style(&KILO, programs, artifact, plugin_name, placement, calls, limit)
}

fn run_opencode_style(
    style: &OpencodeStyle,
    programs: &Programs,
    artifact: &Path,
    plugin_name: &str,
    placement: InProcessPlacement,
    calls: Vec<Call>,
    limit: Duration,
) -> std::io::Result<HostRun> {
    let temp = tempfile::tempdir()?;
    let (home, work, plugins) = (temp.path().join("home"), temp.path().join("work"), temp.path().join("plugins"));
    let config = home.join(".config").join(style.config);
    // At start-up the host installs its plugin package into each config folder unless the folder's
    // lockfile already lists it; offline, that install retries for about 70 s. Its own check reads
    // package.json and package-lock.json beside a node_modules folder: they say it is there.
    let (package, version) = style.plugin_package;
    let dependency = serde_json::json!({ package: version });
    let mark_installed = |folder: &Path| -> std::io::Result<()> {
        std::fs::create_dir_all(folder.join("node_modules"))?;
        std::fs::write(folder.join("package.json"), serde_json::json!({ "dependencies": dependency }).to_string())?;
        std::fs::write(
            folder.join("package-lock.json"),
            serde_json::json!({ "lockfileVersion": 3, "packages": { "": { "dependencies": dependency } } }).to_string(),
        )
    };
    std::fs::create_dir_all(&work)?;
    mark_installed(&config)?;
    let listed = match placement.install(programs, artifact, style.host, &home, &work)? {
        Placed::Manual => {
            crate::copy_tree(&artifact.join("opencode"), &plugins.join(plugin_name))?;
            vec![format!("file://{}", plugins.join(plugin_name).join("plugin.mjs").display())]
        }
        Placed::Home => Vec::new(),
        Placed::Project(host) => {
            // The project's own config folder gets the host's package check too.
            mark_installed(&work.join(format!(".{host}")))?;
            Vec::new()
        }
    };
    let server = MockServer::start(Dialect::OpencodeChat, calls, work.clone())?;
    std::fs::write(
        work.join(style.config_file),
        serde_json::json!({
            "model": "mock/mock-model",
            "provider": { "mock": {
                "npm": "@ai-sdk/openai-compatible",
                "name": "Mock",
                "options": { "baseURL": format!("http://127.0.0.1:{}/v1", server.port), "apiKey": "mock-key" },
                "models": { "mock-model": { "name": "Mock model", "tool_call": true } }
            } },
            "plugin": listed,
            "permission": { "bash": "allow", "edit": "allow" },
            "autoupdate": false,
            "share": "disabled"
        })
        .to_string(),
    )?;
    let mut command = Command::new((style.program)(programs));
    command.env_clear().env("PATH", programs.path_variable()).env("HOME", &home);
    for switch in ["DISABLE_MODELS_FETCH", "DISABLE_AUTOUPDATE", "DISABLE_SHARE", "DISABLE_LSP_DOWNLOAD"] {
        command.env(format!("{}{switch}", style.env_prefix), "1");
    }
    command.current_dir(&work).args(["run", "--format", "json"]).arg(prompt());
    let (exit_code, timed_out, stdout, mut stderr) = run_bounded(command, limit)?;
    let logs = home.join(".local/share").join(style.config).join("log");
    for entry in std::fs::read_dir(&logs).into_iter().flatten().flatten() {
        stderr.push_str(&std::fs::read_to_string(entry.path()).unwrap_or_default());
    }
    let requests = server.requests();
    Ok(HostRun { exit_code, timed_out, stdout, stderr, requests, work, _temp: temp })
}

/// Pi 0.73.1 in `--mode json`, offline (`PI_OFFLINE=1`), with a custom `openai-completions` provider in
/// its `models.json` pointed at the mock, and the plugin's extension in one of the folders Pi loads
/// extensions from.
pub fn run_pi(
    programs: &Programs,
    artifact: &Path,
    plugin_name: &str,
    placement: InProcessPlacement,
    calls: Vec<Call>,
    limit: Duration,
) -> std::io::Result<HostRun> {
    let temp = tempfile::tempdir()?;
    let (home, work) = (temp.path().join("home"), temp.path().join("work"));
    let agent = home.join(".pi/agent");
    for dir in [&work, &agent] {
        std::fs::create_dir_all(dir)?;
    }
    if let Placed::Manual = placement.install(programs, artifact, "pi", &home, &work)? {
        crate::copy_tree(&artifact.join("pi"), &work.join(".pi/extensions").join(plugin_name))?;
    }
    let server = MockServer::start(Dialect::PiChat, calls, work.clone())?;
    let models = serde_json::json!({ "providers": { "mock": {
        "baseUrl": format!("http://127.0.0.1:{}/v1", server.port),
        "api": "openai-completions",
        "apiKey": "mock-key",
        "models": [{ "id": "mock-model" }]
    } } });
    std::fs::write(agent.join("models.json"), models.to_string())?;
    let mut command = Command::new("node");
    command
        .env_clear()
        .env("PATH", programs.path_variable())
        .env("HOME", &home)
        .env("PI_OFFLINE", "1")
        .current_dir(&work)
        .arg(&programs.pi)
        .args(["--mode", "json", "--provider", "mock", "--model", "mock-model"])
        .arg(prompt());
    let (exit_code, timed_out, stdout, stderr) = run_bounded(command, limit)?;
    let requests = server.requests();
    Ok(HostRun { exit_code, timed_out, stdout, stderr, requests, work, _temp: temp })
}

/// Cline CLI 3.0.65, headless (`--json --auto-approve true`, its local session backend: no hub
/// daemon), offline, with its `openai-compatible` provider pointed at the mock, and the plugin's hook
/// files where Cline runs them. Cline ends a run whose call a hook cancels without telling the model
/// why; the reason is in its log, which the run's stderr gets after the host's own (`== cline.log`).
pub fn run_cline(
    programs: &Programs,
    artifact: &Path,
    placement: InProcessPlacement,
    calls: Vec<Call>,
    limit: Duration,
) -> std::io::Result<HostRun> {
    let temp = tempfile::tempdir()?;
    let (home, work) = (temp.path().join("home"), temp.path().join("work"));
    let settings = home.join(".cline/data/settings");
    for dir in [&work, &settings] {
        std::fs::create_dir_all(dir)?;
    }
    if let Placed::Manual = placement.install(programs, artifact, "cline", &home, &work)? {
        crate::copy_tree(&artifact.join("cline"), &work.join(".clinerules/hooks"))?;
    }
    let server = MockServer::start(Dialect::ClineChat, calls, work.clone())?;
    // The provider as Cline's own `auth` command writes it (its settings' providers.json).
    let base = format!("http://127.0.0.1:{}/v1", server.port);
    let mut auth = Command::new(&programs.cline);
    auth.env_clear().env("PATH", programs.path_variable()).env("HOME", &home).current_dir(&work);
    auth.args(["auth", "-p", "openai-compatible", "-k", "mock-key", "-m", "mock-model", "-b", &base]);
    let (code, _, out, err) = run_bounded(auth, Duration::from_secs(60))?;
    if code != Some(0) || !settings.join("providers.json").is_file() {
        return Err(std::io::Error::other(format!("cline auth: exit {code:?}: {out}{err}")));
    }
    let mut command = Command::new(&programs.cline);
    command
        .env_clear()
        .env("PATH", programs.path_variable())
        .env("HOME", &home)
        .env("CLINE_SESSION_BACKEND_MODE", "local")
        .current_dir(&work)
        .args(["--json", "--auto-approve", "true"])
        .arg(prompt());
    let (exit_code, timed_out, stdout, mut stderr) = run_bounded(command, limit)?;
    let log = std::fs::read_to_string(home.join(".cline/data/logs/cline.log")).unwrap_or_default();
    stderr.push_str(&format!("\n== cline.log\n{log}"));
    let requests = server.requests();
    Ok(HostRun { exit_code, timed_out, stdout, stderr, requests, work, _temp: temp })
}

/// Factory Droid 0.225.2 in `exec` mode, offline, with a `generic-chat-completion-api` custom model
/// pointed at the mock, and the plugin installed from a local marketplace (`droid plugin marketplace
/// add`, `droid plugin install`): the artifact's `droid/` folder where it has one, else the artifact
/// as a Claude Code plugin, which Droid accepts.
pub fn run_droid(
    programs: &Programs,
    artifact: &Path,
    plugin_name: &str,
    calls: Vec<Call>,
    limit: Duration,
) -> std::io::Result<HostRun> {
    let temp = tempfile::tempdir()?;
    let (home, work, marketplace) = (temp.path().join("home"), temp.path().join("work"), temp.path().join("market"));
    for dir in [&home.join(".factory"), &work, &marketplace.join(".claude-plugin")] {
        std::fs::create_dir_all(dir)?;
    }
    crate::copy_tree(artifact, &marketplace.join("plugins").join(plugin_name))?;
    // As a repository publishing for both hosts has them (what `build` writes from
    // agent-bundle.marketplace.json): Claude Code's catalog names the artifact, Droid's its `droid/`
    // folder. Droid reads its own first, so a plugin built for it installs from `droid/`, and one
    // built for Claude Code only from the root.
    let catalog = |source: String| {
        serde_json::json!({ "name": "agent-bundle-e2e", "owner": { "name": "agent-bundle tests" },
            "plugins": [{ "name": plugin_name, "source": source }] })
        .to_string()
    };
    std::fs::write(marketplace.join(".claude-plugin/marketplace.json"), catalog(format!("./plugins/{plugin_name}")))?;
    if artifact.join("droid").is_dir() {
        std::fs::create_dir_all(marketplace.join(".factory-plugin"))?;
        std::fs::write(
            marketplace.join(".factory-plugin/marketplace.json"),
            catalog(format!("./plugins/{plugin_name}/droid")),
        )?;
    }
    let server = MockServer::start(Dialect::DroidChat, calls, work.clone())?;
    std::fs::write(
        home.join(".factory/settings.json"),
        serde_json::json!({ "customModels": [{
            "model": "mock-model", "displayName": "Mock", "provider": "generic-chat-completion-api",
            "baseUrl": format!("http://127.0.0.1:{}/v1", server.port), "apiKey": "mock-key", "maxOutputTokens": 1024
        }] })
        .to_string(),
    )?;
    let droid = |args: &[OsString]| {
        let mut command = Command::new(&programs.droid);
        command.env_clear().env("PATH", programs.path_variable()).env("HOME", &home).current_dir(&work).args(args);
        command
    };
    // Droid names a marketplace after its folder.
    let steps: [Vec<OsString>; 2] = [
        vec!["plugin".into(), "marketplace".into(), "add".into(), marketplace.into_os_string()],
        vec!["plugin".into(), "install".into(), format!("{plugin_name}@market").into()],
    ];
    for args in steps {
        let (code, _, out, err) = run_bounded(droid(&args), Duration::from_secs(60))?;
        if code != Some(0) {
            return Err(std::io::Error::other(format!("droid {args:?} failed: {out} {err}")));
        }
    }
    let exec: Vec<OsString> = ["exec", "--auto", "high", "-m", "custom:mock-model", "-o", "json"]
        .into_iter()
        .map(OsString::from)
        .chain([OsString::from(prompt())])
        .collect();
    let (exit_code, timed_out, stdout, mut stderr) = run_bounded(droid(&exec), limit)?;
    stderr.push_str(&std::fs::read_to_string(home.join(".factory/logs/droid-log-single.log")).unwrap_or_default());
    let requests = server.requests();
    Ok(HostRun { exit_code, timed_out, stdout, stderr, requests, work, _temp: temp })
}

/// Runs a program with no stdin, killing its whole process group at `limit`.
pub fn run_bounded(mut command: Command, limit: Duration) -> std::io::Result<(Option<i32>, bool, String, String)> {
    let out_file = tempfile::NamedTempFile::new()?;
    let err_file = tempfile::NamedTempFile::new()?;
    let mut child =
        command.stdin(Stdio::null()).stdout(out_file.reopen()?).stderr(err_file.reopen()?).process_group(0).spawn()?;
    let started = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if started.elapsed() > limit {
            timed_out = true;
            // SAFETY: kill(2) on the process group this function created.
            unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
            break child.wait()?;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = std::fs::read_to_string(out_file.path()).unwrap_or_default();
    let stderr = std::fs::read_to_string(err_file.path()).unwrap_or_default();
    Ok((status.code(), timed_out, stdout, stderr))
}
