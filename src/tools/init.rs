//! `cargo agent-bundle init`: a new bundle that builds, simulates, type-checks and tests as written:
//! the config, one typed handler per chosen event, an example test of one of them on an envelope in
//! a real host's shape (run by `npm test` through agent-bundle's test kit), package.json,
//! tsconfig.json mapping agent-bundle's declarations, vitest.config.ts, `.gitignore` and a README.

use camino::{Utf8Path, Utf8PathBuf};

use crate::hosts;
use crate::vocabulary::canonical::{CONFIG_FILE_NAMES, CanonicalEvent, Selector};
use crate::vocabulary::target::Target;

/// The TypeScript a new bundle's package.json pins for `npm run typecheck`.
pub const TYPESCRIPT_VERSION: &str = "5.9.3";

/// Node's types a new bundle pins: the line of the oldest Node the wrappers run on (D6: 18), so a
/// handler that uses an API that Node lacks is a type error, not a failure on a user's machine.
pub const TYPES_NODE_VERSION: &str = "18.19.130";

/// The test runner a new bundle's package.json pins for `npm test`: the last line that runs on Node
/// 18 and 20 and takes Node 18's types (its example test runs the handlers through the test kit).
pub const VITEST_VERSION: &str = "3.2.7";

/// The Vite that test runner runs on, pinned beside it: Vite 7 wants Node 20.19's types and Node
/// 20.19 itself, where the handlers are written for Node 18 (D6), so npm would warn of the clash.
pub const VITE_VERSION: &str = "6.4.6";

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
    let example = example_test(&targets, &events);
    let mut files: Vec<(String, String)> = vec![
        ("agent-bundle.config.ts".into(), config(&name, &targets, &events)),
        ("package.json".into(), package_json(&name, example.is_some())),
        ("tsconfig.json".into(), tsconfig()),
        ("vitest.config.ts".into(), VITEST_CONFIG.into()),
        (".gitignore".into(), "artifact/\nnode_modules/\n.artifact.lock\n".into()),
        ("README.md".into(), readme(&name, &events, example.as_ref())),
    ];
    for event in &events {
        files.push((format!("src/hooks/{}.ts", event.kebab()), handler(*event)));
    }
    if let Some(example) = example {
        files.extend(example.files);
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

/// `imports` maps the test kit (`#agent-bundle/testing`) for Node, vitest and TypeScript alike.
/// Without an example test (no chosen host was recorded), `npm test` passes until one is written.
fn package_json(name: &str, example: bool) -> String {
    let test = if example { "vitest run" } else { "vitest run --passWithNoTests" };
    let value = serde_json::json!({
        "name": name,
        "version": "0.1.0",
        "private": true,
        "type": "module",
        "imports": super::types::testing::package_imports(),
        "scripts": {
            "build": "cargo agent-bundle build",
            "test": test,
            "typecheck": "tsc --noEmit",
        },
        "devDependencies": {
            "@types/node": TYPES_NODE_VERSION,
            "typescript": TYPESCRIPT_VERSION,
            "vite": VITE_VERSION,
            "vitest": VITEST_VERSION,
        },
    });
    crate::vocabulary::json::pretty(&value) + "\n"
}

/// agent-bundle's tsconfig, with Node's types (the package.json pins them): handlers run under Node.
/// The tests and the test runner's config are type-checked too.
fn tsconfig() -> String {
    let mut tsconfig = super::types::tsconfig_template();
    tsconfig["compilerOptions"]["types"] = serde_json::json!(["node"]);
    tsconfig["include"] = serde_json::json!(["agent-bundle.config.ts", "src", "test", "vitest.config.ts"]);
    crate::vocabulary::json::pretty(&tsconfig) + "\n"
}

/// vitest's config: an event route's `@agent-bundle/runtime` (which the build provides) is the same
/// module, written by `cargo agent-bundle types`, in tests.
const VITEST_CONFIG: &str = "\
// `npm test` runs the tests under test/ with vitest. An event route (src/events/**/*.tsx) imports
// `@agent-bundle/runtime` and its JSX entries, which agent-bundle's build provides: in tests, the
// same module stands for them (`cargo agent-bundle types` writes it beside the declarations).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: [
      {
        find: /^@agent-bundle\\/runtime(?:\\/jsx-(?:dev-)?runtime)?$/,
        replacement: fileURLToPath(new URL('./.agent-bundle/types/@agent-bundle/runtime/index.mjs', import.meta.url)),
      },
    ],
  },
});
";

/// The example test: one handler run by the test kit on an envelope in a real host's shape.
struct ExampleTest {
    /// The test file, root-relative.
    path: String,
    /// The host it runs on, as the README names it.
    host: String,
    /// The test file and its fixtures.
    files: Vec<(String, String)>,
}

/// The example test of the beforeTool guard (else of the sessionStart greeting), on the first of
/// `targets` that has the event and a recorded envelope of it: that envelope is the fixture, in the
/// shape the real host sent. `None` when neither event is chosen or no host of them was recorded.
fn example_test(targets: &[Target], events: &[CanonicalEvent]) -> Option<ExampleTest> {
    let event = [CanonicalEvent::BeforeTool, CanonicalEvent::SessionStart].into_iter().find(|e| events.contains(e))?;
    targets.iter().find_map(|target| {
        let table = hosts::table(*target);
        let mapping = table.event(event).ok()?;
        let recorded = crate::tools::workbench::recorded(*target, &mapping.native)?;
        let host = table.host.clone();
        let fixture = |case: &str| format!("test/fixtures/{target}-{}{case}.json", mapping.native);
        let json = |value: &serde_json::Value| crate::vocabulary::json::pretty(value) + "\n";
        let path = format!("test/{}.test.ts", event.kebab());
        let files = match event {
            CanonicalEvent::BeforeTool => {
                let mut dangerous = recorded.clone();
                set_shell_command(table, mapping, &mut dangerous, "rm -rf ~")?;
                let (harmless, refused) = (fixture(""), fixture(".rm-rf-home"));
                let test = guard_test(*target, &host, &harmless, &refused);
                vec![(path.clone(), test), (harmless, json(&recorded)), (refused, json(&dangerous))]
            }
            _ => {
                // The greeting names the envelope's folder.
                recorded.get("cwd")?.as_str()?;
                let file = fixture("");
                vec![(path.clone(), greeting_test(*target, &host, &file)), (file, json(&recorded))]
            }
        };
        Some(ExampleTest { path, host, files })
    })
}

/// Sets the command of a recorded shell call: under the host's key of the tool's input, at the key
/// its shell tool keeps the command under (the host table's input map, as the runtime reads it).
fn set_shell_command(
    table: &hosts::HostTable,
    mapping: &hosts::EventMapping,
    envelope: &mut serde_json::Value,
    command: &str,
) -> Option<()> {
    let surface = table.hooks.as_ref()?;
    let key = |canonical: &str| {
        surface.input_fields(mapping).find(|f| f.canonical.as_deref() == Some(canonical)).map(|f| f.key.clone())
    };
    let (name_key, input_key) = (key("toolName")?, key("toolInput")?);
    let name = envelope.get(&name_key)?.as_str()?.to_string();
    let identity = table.tool_identities().into_iter().find(|identity| {
        regex::Regex::new(&format!("^(?:{})$", identity.pattern)).is_ok_and(|pattern| pattern.is_match(&name))
    })?;
    if identity.kind != Selector::Shell {
        return None;
    }
    let command_key = identity.input.native_keys("command").first()?.to_string();
    envelope.get_mut(&input_key)?.as_object_mut()?.insert(command_key, serde_json::json!(command));
    Some(())
}

/// The example test of the guard: `{host}`, `{target}`, `{harmless}` and `{refused}` (its fixtures,
/// relative to the test) filled in.
const GUARD_TEST: &str = "\
// The beforeTool guard, run as {host}'s wrapper runs it, on envelopes in the shape {host} sends
// (test/fixtures/, recorded from the real program): agent-bundle's test kit hands the handler what
// the wrapper would, and checks and answers its result by the same rules, without a build.
import { describe, expect, it } from 'vitest';
import { readEnvelope, runHook } from '#agent-bundle/testing';
import guard from '../src/hooks/before-tool';

const fixture = (name: string) => readEnvelope(new URL(`./fixtures/${name}`, import.meta.url));

describe('beforeTool on {target}', () => {
  it('refuses to delete the home folder, and {host} is told', async () => {
    const run = await runHook('{target}', 'beforeTool', guard, fixture('{refused}'));
    expect(run.result?.outcome).toBe('deny');
    expect(run.result?.reason).toContain('rm -rf ~');
    expect(run.stdout).toContain('rm -rf ~');
  });

  it('decides nothing on another command, so {host} gets no answer', async () => {
    const run = await runHook('{target}', 'beforeTool', guard, fixture('{harmless}'));
    expect(run.result?.outcome).toBe('continue');
    expect(run.answer).toBeUndefined();
  });
});
";

/// The example test of the greeting: `{host}`, `{target}` and `{fixture}` filled in.
const GREETING_TEST: &str = "\
// The sessionStart hook, run as {host}'s wrapper runs it, on an envelope in the shape {host} sends
// (test/fixtures/, recorded from the real program): agent-bundle's test kit hands the handler what
// the wrapper would, and checks and answers its result by the same rules, without a build.
import { expect, it } from 'vitest';
import { readEnvelope, runHook } from '#agent-bundle/testing';
import greet from '../src/hooks/session-start';

it('tells the model on {target} which folder the session runs in', async () => {
  const envelope = readEnvelope(new URL('./fixtures/{fixture}', import.meta.url));
  const run = await runHook('{target}', 'sessionStart', greet, envelope);
  expect(run.result?.additionalContext).toBe(`This session runs in ${envelope.cwd}.`);
});
";

/// A fixture's name in `test/fixtures/`.
fn fixture_name(path: &str) -> &str {
    path.trim_start_matches("test/fixtures/")
}

fn guard_test(target: Target, host: &str, harmless: &str, refused: &str) -> String {
    GUARD_TEST
        .replace("{host}", host)
        .replace("{target}", target.name())
        .replace("{harmless}", fixture_name(harmless))
        .replace("{refused}", fixture_name(refused))
}

fn greeting_test(target: Target, host: &str, fixture: &str) -> String {
    GREETING_TEST.replace("{host}", host).replace("{target}", target.name()).replace("{fixture}", fixture_name(fixture))
}

fn readme(name: &str, events: &[CanonicalEvent], example: Option<&ExampleTest>) -> String {
    let hooks: Vec<String> = events.iter().map(|e| format!("- `src/hooks/{}.ts`: the `{e}` hook", e.kebab())).collect();
    let tests = match example {
        Some(example) => format!(
            "`{}` runs a hook as {}'s wrapper runs it, on envelopes in the shape {} sends\n\
             (`test/fixtures/`), through agent-bundle's test kit: `#agent-bundle/testing` (package.json maps it)\n\
             hands the handler what the wrapper would and checks and answers its result by the same rules,\n\
             without a build. Its `runHook`, `hookInput`, `renderRoute` and `routeInput` take any host and event.\n",
            example.path, example.host, example.host
        ),
        None => "Tests go under `test/`: agent-bundle's test kit, `#agent-bundle/testing` (package.json maps it), runs\n\
                 a hook as a host's wrapper runs it (`runHook`, `hookInput`, `renderRoute`, `routeInput`), without a build.\n"
            .to_string(),
    };
    format!(
        "# {name}\n\n\
         Hooks for coding agents, declared once in `agent-bundle.config.ts` and built by agent-bundle into\n\
         one plugin folder that {} load natively.\n\n\
         {}\n\n\
         ```sh\n\
         cargo agent-bundle build                  # writes artifact/\n\
         cargo agent-bundle hooks list --artifact artifact\n\
         npm install && npm run typecheck          # tsc --noEmit against agent-bundle's declarations\n\
         npm test                                  # vitest: the tests under test/\n\
         ```\n\n\
         {tests}\n\
         The declarations and the test kit live in `.agent-bundle/types/` (tsconfig.json and package.json map\n\
         them); `cargo agent-bundle types` rewrites them after an agent-bundle upgrade.\n",
        crate::hosts::products_prose(),
        hooks.join("\n")
    )
}
