//! `cargo agent-bundle init`: a new bundle that builds, simulates and type-checks as written: the
//! config, one typed handler per chosen event, package.json, tsconfig.json mapping agent-bundle's
//! declarations, `.gitignore` and a README.

use camino::{Utf8Path, Utf8PathBuf};

use crate::hosts;
use crate::vocabulary::canonical::{CONFIG_FILE_NAMES, CanonicalEvent};
use crate::vocabulary::target::Target;

/// The TypeScript a new bundle's package.json pins for `npm run typecheck`.
pub const TYPESCRIPT_VERSION: &str = "5.9.3";

/// Node's types a new bundle pins: the line of the oldest Node the wrappers run on (D6: 18), so a
/// handler that uses an API that Node lacks is a type error, not a failure on a user's machine.
pub const TYPES_NODE_VERSION: &str = "18.19.130";

/// What to create.
#[derive(Debug)]
pub struct InitOptions {
    pub dir: Utf8PathBuf,
    /// Hosts; empty means the default selection.
    pub targets: Vec<Target>,
    /// Events with a handler each; empty means beforeTool and sessionStart.
    pub events: Vec<CanonicalEvent>,
}

/// The files written, root-relative, in order.
pub fn init(options: &InitOptions) -> Result<Vec<String>, String> {
    let dir = &options.dir;
    if let Some(existing) = CONFIG_FILE_NAMES.iter().find(|name| dir.join(name).exists()) {
        return Err(format!("`{dir}` already holds a bundle ({existing}); init writes new bundles only"));
    }
    let targets = if options.targets.is_empty() { Target::DEFAULT_SELECTION.to_vec() } else { options.targets.clone() };
    let events = if options.events.is_empty() {
        vec![CanonicalEvent::SessionStart, CanonicalEvent::BeforeTool]
    } else {
        options.events.clone()
    };
    for event in &events {
        let receivers: Vec<&str> =
            targets.iter().filter(|t| hosts::table(**t).event(*event).is_ok()).map(|t| t.name()).collect();
        if receivers.is_empty() {
            let names: Vec<&str> = targets.iter().map(|t| t.name()).collect();
            return Err(format!(
                "none of the targets ({}) receives `{event}` hooks; choose other --events or --targets",
                names.join(", ")
            ));
        }
    }
    let name = plugin_name(dir);
    let mut files: Vec<(String, String)> = vec![
        ("agent-bundle.config.ts".into(), config(&name, &targets, &events)),
        ("package.json".into(), package_json(&name)),
        ("tsconfig.json".into(), tsconfig()),
        (".gitignore".into(), "artifact/\nnode_modules/\n.artifact.lock\n".into()),
        ("README.md".into(), readme(&name, &events)),
    ];
    for event in &events {
        files.push((format!("src/hooks/{}.ts", event.kebab()), handler(*event)));
    }
    let mut written = Vec::new();
    for (relative, text) in files {
        let path = dir.join(&relative);
        if path.exists() {
            return Err(format!("`{path}` exists; init writes new bundles only"));
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("cannot create `{parent}`: {e}"))?;
        }
        std::fs::write(&path, text).map_err(|e| format!("cannot write `{path}`: {e}"))?;
        written.push(relative);
    }
    let types = super::types::write_types(dir, false)?;
    written.extend(types.written);
    Ok(written)
}

/// The folder's name as a kebab-case plugin name.
fn plugin_name(dir: &Utf8Path) -> String {
    let base = std::fs::canonicalize(dir)
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .or_else(|| dir.file_name().map(str::to_string))
        .unwrap_or_default();
    let mut name = String::new();
    for c in base.chars() {
        if c.is_ascii_alphanumeric() {
            name.push(c.to_ascii_lowercase());
        } else if !name.ends_with('-') && !name.is_empty() {
            name.push('-');
        }
    }
    let name = name.trim_matches('-').to_string();
    if name.is_empty() { "my-hooks".into() } else { name }
}

fn config(name: &str, targets: &[Target], events: &[CanonicalEvent]) -> String {
    let targets: Vec<String> = targets.iter().map(|t| format!("'{t}'")).collect();
    let mut hooks = String::new();
    for event in events {
        let path = format!("./src/hooks/{}.ts", event.kebab());
        let entry = match event {
            CanonicalEvent::BeforeTool | CanonicalEvent::AfterTool => {
                format!("{{ handler: '{path}', tools: ['shell'] }}")
            }
            _ => format!("'{path}'"),
        };
        hooks.push_str(&format!("    {event}: {entry},\n"));
    }
    format!(
        "import {{ defineConfig }} from 'agent-bundle/config';\n\
         \n\
         export default defineConfig({{\n\
         \x20 plugin: {{\n\
         \x20   name: '{name}',\n\
         \x20   description: 'Hooks for coding agents, built with agent-bundle.',\n\
         \x20   version: '0.1.0',\n\
         \x20   author: 'Your Name <you@example.com>',\n\
         \x20   license: 'MIT',\n\
         \x20 }},\n\
         \x20 targets: [{}],\n\
         \x20 hooks: {{\n{hooks}\x20 }},\n\
         }});\n",
        targets.join(", ")
    )
}

fn handler(event: CanonicalEvent) -> String {
    let body = match event {
        CanonicalEvent::SessionStart => {
            "// Adds a line of context to the model's first request.\n\
             const greet: HookHandler<'sessionStart'> = (event) => ({\n\
             \x20 additionalContext: `This session runs in ${event.cwd ?? process.cwd()}.`,\n\
             });\n\nexport default greet;\n"
        }
        CanonicalEvent::BeforeTool => {
            "// Refuses shell commands that delete the root or home folder; everything else goes on to the\n\
             // host's own permission rules (returning nothing decides nothing).\n\
             const guard: HookHandler<'beforeTool'> = ({ tool }) => {\n\
             \x20 // `tool` is the same on every host: its kind, and for a shell tool the command.\n\
             \x20 if (tool.kind === 'shell' && /\\brm\\s+-[a-z]*r[a-z]*\\s+(\\/|~)(\\s|$)/.test(tool.command)) {\n\
             \x20   return { outcome: 'deny', reason: `Refusing to run \\`${tool.command}\\`: it deletes a root or home folder.` };\n\
             \x20 }\n\
             };\n\nexport default guard;\n"
        }
        CanonicalEvent::AfterTool => {
            "// Tells the model which tool ran.\n\
             const note: HookHandler<'afterTool'> = (event) => ({ additionalContext: `${event.toolName} ran.` });\n\n\
             export default note;\n"
        }
        CanonicalEvent::Stop => {
            "// Keeps the agent going once with a reminder, then lets it stop.\n\
             const onceMore: HookHandler<'stop'> = (event) => {\n\
             \x20 if (!event.reentry) {\n\
             \x20   return { outcome: 'deny', reason: 'Check the work once more before you finish.' };\n\
             \x20 }\n\
             };\n\nexport default onceMore;\n"
        }
        CanonicalEvent::AgentStart => {
            "// Adds context for every subagent.\n\
             const brief: HookHandler<'agentStart'> = (event) => ({ additionalContext: `You are the ${event.agentType} subagent.` });\n\n\
             export default brief;\n"
        }
        CanonicalEvent::AgentStop => {
            "// Lets subagents stop; return { outcome: 'deny', reason } to keep one going.\n\
             const done: HookHandler<'agentStop'> = () => undefined;\n\n\
             export default done;\n"
        }
        CanonicalEvent::WorkspaceOpen => {
            "// Observes a workspace opening (Cursor).\n\
             const opened: HookHandler<'workspaceOpen'> = () => undefined;\n\n\
             export default opened;\n"
        }
    };
    format!("import type {{ HookHandler }} from 'agent-bundle';\n\n{body}")
}

fn package_json(name: &str) -> String {
    let value = serde_json::json!({
        "name": name,
        "version": "0.1.0",
        "private": true,
        "type": "module",
        "scripts": {
            "build": "cargo agent-bundle build",
            "typecheck": "tsc --noEmit",
        },
        "devDependencies": { "@types/node": TYPES_NODE_VERSION, "typescript": TYPESCRIPT_VERSION },
    });
    crate::vocabulary::json::pretty(&value) + "\n"
}

/// agent-bundle's tsconfig, with Node's types (the package.json pins them): handlers run under Node.
fn tsconfig() -> String {
    let mut tsconfig = super::types::tsconfig_template();
    tsconfig["compilerOptions"]["types"] = serde_json::json!(["node"]);
    crate::vocabulary::json::pretty(&tsconfig) + "\n"
}

fn readme(name: &str, events: &[CanonicalEvent]) -> String {
    let hooks: Vec<String> = events.iter().map(|e| format!("- `src/hooks/{}.ts`: the `{e}` hook", e.kebab())).collect();
    format!(
        "# {name}\n\n\
         Hooks for coding agents, declared once in `agent-bundle.config.ts` and built by agent-bundle into\n\
         one plugin folder that {} load natively.\n\n\
         {}\n\n\
         ```sh\n\
         cargo agent-bundle build                  # writes artifact/\n\
         cargo agent-bundle hooks list --artifact artifact\n\
         npm install && npm run typecheck          # tsc --noEmit against agent-bundle's declarations\n\
         ```\n\n\
         The declarations live in `.agent-bundle/types/` (tsconfig.json maps them); `cargo agent-bundle types`\n\
         rewrites them after an agent-bundle upgrade.\n",
        crate::hosts::products_prose(),
        hooks.join("\n")
    )
}
