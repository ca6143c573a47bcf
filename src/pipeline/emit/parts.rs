//! The plugin's skills, commands, agents and context file, placed as the plan says: each read once
//! from the bundle (and judged: a skill is `<name>/SKILL.md` with `name` and `description`, a
//! command or agent one `<name>.md`), then written into each host's place in its form (Gemini CLI's
//! commands as TOML), with the manifest key that names the place where a host reads it only then.

use std::collections::BTreeMap;

use camino::Utf8Path;
use serde_json::{Map, Value};

use super::assembly::{Assembly, Producer};
use super::front_matter::{self, FrontMatter};
use crate::artifact::ArtifactFile;
use crate::diagnostic::{Diagnostic, messages};
use crate::hosts::parts::PartFormat;
use crate::io::stamp::InputSet;
use crate::io::tree::Decision;
use crate::io::{Disk, lexical_join};
use crate::pipeline::Bundle;
use crate::pipeline::normalise::parts::Part;
use crate::pipeline::plan::parts::PartDelivery;
use crate::vocabulary::is_portable_name;
use crate::vocabulary::part::PartKind;
use crate::vocabulary::source::{Location, SourceFile, Span};
use crate::vocabulary::target::Target;

/// One file of a part as read: its path inside the part's source, bytes and mode.
struct ReadFile {
    path: String,
    bytes: Vec<u8>,
    mode: u32,
}

/// A part's files, read and judged.
pub(super) struct ReadPart {
    kind: PartKind,
    files: Vec<ReadFile>,
    /// Each command's or agent's name with its front matter's fields and its body (commands only).
    items: BTreeMap<String, Item>,
}

struct Item {
    description: Option<String>,
    /// The front matter's keys, each with its lines as written.
    front: Vec<(String, String)>,
    body: String,
}

impl Item {
    /// The file with only the front matter keys `kept`, and the keys left out.
    fn keeping(&self, kept: &[String]) -> Option<(Vec<u8>, Vec<String>)> {
        let dropped: Vec<String> =
            self.front.iter().filter(|(k, _)| !kept.contains(k)).map(|(k, _)| k.clone()).collect();
        if dropped.is_empty() {
            return None;
        }
        let mut text = String::from("---\n");
        for (_, written) in self.front.iter().filter(|(k, _)| kept.contains(k)) {
            text.push_str(written);
        }
        text.push_str("---\n");
        text.push_str(&self.body);
        Some((text.into_bytes(), dropped))
    }
}

/// Reads every part declared for one of `hosts`, judging what it holds.
pub(super) fn read(
    bundle: &Bundle,
    hosts: &[Target],
    root: &Utf8Path,
    disk: &dyn Disk,
    inputs: &mut InputSet,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<ReadPart> {
    let within = crate::io::tree::confinement(root, disk);
    let mut read = Vec::new();
    for part in bundle.normalised.parts.iter().filter(|p| p.targets.iter().any(|t| hosts.contains(t))) {
        let source = lexical_join(root, &part.source);
        let mut files = Vec::new();
        if part.kind.is_file() {
            let (recorded, content) = disk.read_recorded_with_mode(&source);
            let Some((bytes, mode)) = content else {
                diagnostics.push(messages::part_source(part.kind, &part.source, "no such file", &part.declared_at));
                continue;
            };
            inputs.files.insert(source.to_string(), recorded);
            let name = part.source.rsplit('/').next().unwrap_or(&part.source).to_string();
            files.push(ReadFile { path: name, bytes, mode });
        } else {
            let walked = match disk.walk_tree(&source, &within, &|_, _| Decision::Ship) {
                Ok(walked) => walked,
                Err(error) => {
                    let why = format!("it cannot be read ({error})");
                    diagnostics.push(messages::part_source(part.kind, &part.source, &why, &part.declared_at));
                    continue;
                }
            };
            for link in walked.outside.iter().chain(&walked.broken) {
                let why = format!("`{}` is a link to `{}`, outside the bundle or nowhere", link.path, link.target);
                diagnostics.push(messages::part_source(part.kind, &part.source, &why, &part.declared_at));
            }
            for file in &walked.files {
                let (recorded, content) = disk.read_recorded_with_mode(&file.real);
                let Some((bytes, mode)) = content else { continue };
                inputs.files.insert(file.real.to_string(), recorded);
                files.push(ReadFile { path: file.path.clone(), bytes, mode });
            }
            for folder in &walked.dirs {
                inputs.dirs.insert(folder.to_string(), disk.record_dir(folder));
            }
        }
        let items = judge(part, &files, diagnostics);
        read.push(ReadPart { kind: part.kind, files, items });
    }
    read
}

/// A skill's name as the hosts take it: lowercase letters, digits and `-`.
fn is_skill_name(name: &str) -> bool {
    is_portable_name(name) && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// The location of 1-based `line` in the file shown as `shown`.
fn line_of(shown: &str, text: &str, line: u32) -> Location {
    let file = SourceFile::new(shown, text.to_string());
    let start: usize = text.split_inclusive('\n').take(line.saturating_sub(1) as usize).map(str::len).sum();
    file.locate(Span::new(start as u32, start as u32))
}

/// Judges a part's files; returns each command's or agent's name with what it says.
fn judge(part: &Part, files: &[ReadFile], diagnostics: &mut Vec<Diagnostic>) -> BTreeMap<String, Item> {
    let mut items = BTreeMap::new();
    let shown = |path: &str| format!("{}/{path}", part.source);
    match part.kind {
        PartKind::ContextFile => {}
        PartKind::Skills => {
            let mut folders: Vec<&str> = Vec::new();
            for file in files {
                match file.path.split_once('/') {
                    Some((folder, _)) => {
                        if !folders.contains(&folder) {
                            folders.push(folder);
                        }
                    }
                    None => diagnostics.push(messages::skill_shape(
                        &shown(&file.path),
                        "is a file beside the skill folders, not in one",
                        Some(&part.declared_at),
                    )),
                }
            }
            for folder in folders {
                let skill = format!("{folder}/SKILL.md");
                let Some(file) = files.iter().find(|f| f.path == skill) else {
                    let what = "has no `SKILL.md`";
                    diagnostics.push(messages::skill_shape(&shown(folder), what, Some(&part.declared_at)));
                    continue;
                };
                let text = String::from_utf8_lossy(&file.bytes);
                let here = |line| line_of(&shown(&skill), &text, line);
                match front_matter::read(&text) {
                    Err(error) => {
                        diagnostics.push(messages::skill_shape(&shown(&skill), &error.what, Some(&here(error.line))))
                    }
                    Ok(read) => {
                        if !is_skill_name(folder) {
                            let what = "is not named with lowercase letters, digits and `-` (at most 64), as hosts name skills";
                            diagnostics.push(messages::skill_shape(&shown(folder), what, Some(&here(1))));
                        }
                        check_named(&read, folder, &shown(&skill), &here, messages::skill_shape, diagnostics);
                    }
                }
            }
        }
        PartKind::Commands | PartKind::Agents => {
            let shape = if part.kind == PartKind::Commands { messages::command_shape } else { messages::agent_shape };
            for file in files {
                let name = file.path.strip_suffix(".md").filter(|n| !n.contains('/'));
                // Gemini CLI takes an agent's name in lowercase only.
                let fits = |n: &&str| {
                    is_portable_name(n)
                        && (part.kind == PartKind::Commands || !n.chars().any(|c| c.is_ascii_uppercase()))
                };
                let Some(name) = name.filter(fits) else {
                    let what = if file.path.contains('/') {
                        "is in a subfolder; hosts read this folder's own files only"
                    } else if part.kind == PartKind::Commands {
                        "is not named `<name>.md` with letters, digits, `_` and `-` (at most 64)"
                    } else {
                        "is not named `<name>.md` with lowercase letters, digits, `_` and `-` (at most 64), as hosts name agents"
                    };
                    diagnostics.push(shape(&shown(&file.path), what, Some(&part.declared_at)));
                    continue;
                };
                let text = String::from_utf8_lossy(&file.bytes);
                let here = |line| line_of(&shown(&file.path), &text, line);
                match front_matter::read(&text) {
                    Err(error) => {
                        let what = format!("has front matter that does not parse: {}", error.what);
                        diagnostics.push(shape(&shown(&file.path), &what, Some(&here(error.line))))
                    }
                    Ok(read) => {
                        if part.kind == PartKind::Agents {
                            check_named(&read, name, &shown(&file.path), &here, shape, diagnostics);
                        }
                        let front = read
                            .fields
                            .iter()
                            .zip(&read.written)
                            .map(|((k, _), w)| (k.to_string(), w.to_string()))
                            .collect();
                        let description = read.get("description").map(str::to_string);
                        items.insert(name.to_string(), Item { description, front, body: read.body.to_string() });
                    }
                }
            }
        }
    }
    items
}

/// Checks that `read` gives `name` (equal to `expected`) and a `description`.
fn check_named(
    read: &FrontMatter<'_>,
    expected: &str,
    shown: &str,
    here: &dyn Fn(u32) -> Location,
    shape: fn(&str, &str, Option<&Location>) -> Diagnostic,
    diagnostics: &mut Vec<Diagnostic>,
) {
    if read.fields.is_empty() {
        diagnostics.push(shape(shown, "has no front matter", Some(&here(1))));
        return;
    }
    match read.get("name") {
        None => diagnostics.push(shape(shown, "gives no `name` in its front matter", Some(&here(1)))),
        Some(name) if name != expected => {
            let line = read.fields.iter().position(|(k, _)| *k == "name").map_or(1, |i| i as u32 + 2);
            let what = format!(
                "is named `{name}` in its front matter and `{expected}` by its file, which hosts may take for two"
            );
            diagnostics.push(shape(shown, &what, Some(&here(line))));
        }
        Some(_) => {}
    }
    if read.get("description").is_none_or(|d| d.trim().is_empty()) {
        diagnostics.push(shape(
            shown,
            "gives no `description` in its front matter (hosts show it to the model to choose by)",
            Some(&here(1)),
        ));
    }
}

/// A TOML basic string over several lines, holding `text` exactly.
fn toml_string(text: &str) -> String {
    let mut out = String::from("\"\"\"\n");
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' | '\t' => out.push(c),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push_str("\"\"\"");
    out
}

/// A command as Gemini CLI's TOML: `description` and `prompt`, with `$ARGUMENTS` written `{{args}}`.
fn gemini_toml(item: &Item) -> String {
    let mut out = String::new();
    if let Some(description) = &item.description {
        out.push_str(&format!("description = {}\n", serde_json::to_string(description).expect("strings serialise")));
    }
    let prompt = item.body.trim_start_matches('\n').replace("$ARGUMENTS", "{{args}}");
    out.push_str(&format!("prompt = {}\n", toml_string(&prompt)));
    out
}

/// Whether a command's body names arguments one by one (`$1`…`$9`).
fn positional(body: &str) -> bool {
    body.as_bytes().windows(2).any(|w| w[0] == b'$' && w[1].is_ascii_digit())
}

/// What [`place`] leaves to the manifests.
#[derive(Default)]
pub(super) struct PlacedParts {
    /// Per host, the keys its plugin manifest gains (pointers at the places).
    pub manifest_keys: BTreeMap<Target, Map<String, Value>>,
    /// Per host, the artifact paths of the part files it reads (for the artifact manifest).
    pub files: BTreeMap<Target, std::collections::BTreeSet<String>>,
}

/// Places the parts read as `bundle.parts` plans them for `hosts`.
pub(super) fn place(
    files: &mut Assembly,
    bundle: &Bundle,
    read: &[ReadPart],
    hosts: &[Target],
    diagnostics: &mut Vec<Diagnostic>,
) -> PlacedParts {
    let mut placed = PlacedParts::default();
    let manifest_keys = &mut placed.manifest_keys;
    for plan in &bundle.parts {
        let Some(part) = read.iter().find(|r| r.kind == plan.kind) else { continue };
        let declared =
            bundle.normalised.parts.iter().find(|p| p.kind == plan.kind).expect("planned parts are declared");
        let producer = Producer::Part { kind: plan.kind };
        let mut unsaid: Vec<Target> = Vec::new();
        // Per file, the hosts that get it without some of its front matter keys, and which.
        let mut dropped: BTreeMap<String, Vec<(Target, Vec<String>)>> = BTreeMap::new();
        for planned in plan.targets.iter().filter(|t| hosts.contains(&t.target)) {
            let (target, delivery) = (&planned.target, &planned.delivery);
            let PartDelivery::Placed { folder, format, suffix, pointer, front_matter_keys, .. } = delivery else {
                continue;
            };
            let at = |path: &str| if folder.is_empty() { path.to_string() } else { format!("{folder}/{path}") };
            let mut add = |path: String, file: ArtifactFile| {
                placed.files.entry(*target).or_default().insert(path.clone());
                files.add(path, file, producer.clone());
            };
            match (plan.kind, format) {
                (PartKind::Commands | PartKind::Agents, PartFormat::GeminiToml) => {
                    for (name, item) in &part.items {
                        if positional(&item.body) && !unsaid.contains(target) {
                            unsaid.push(*target);
                        }
                        let suffix = suffix.as_deref().unwrap_or(".toml");
                        let file = ArtifactFile::new(gemini_toml(item).into_bytes());
                        add(at(&format!("{name}{suffix}")), file);
                    }
                }
                (PartKind::Commands | PartKind::Agents, PartFormat::Markdown) => {
                    let suffix = suffix.as_deref().unwrap_or(".md");
                    for file in &part.files {
                        let Some(name) = file.path.strip_suffix(".md") else { continue };
                        let Some(item) = part.items.get(name) else { continue };
                        let kept = front_matter_keys.as_deref().and_then(|keys| item.keeping(keys));
                        let bytes = match kept {
                            Some((bytes, left)) => {
                                dropped
                                    .entry(format!("{}/{}", declared.source, file.path))
                                    .or_default()
                                    .push((*target, left));
                                bytes
                            }
                            None => file.bytes.clone(),
                        };
                        add(at(&format!("{name}{suffix}")), ArtifactFile::with_mode(bytes, file.mode));
                    }
                }
                (_, _) => {
                    for file in &part.files {
                        add(at(&file.path), ArtifactFile::with_mode(file.bytes.clone(), file.mode));
                    }
                }
            }
            if let Some((key, value)) = pointer {
                manifest_keys.entry(*target).or_default().insert(key.clone(), value.clone().into());
            }
        }
        for (file, hosts) in dropped {
            diagnostics.push(messages::front_matter_left_out(&file, &hosts, &declared.declared_at));
        }
        if !unsaid.is_empty() {
            let file = part
                .items
                .iter()
                .find(|(_, item)| positional(&item.body))
                .map(|(name, _)| format!("{}/{name}.md", declared.source));
            diagnostics.push(messages::command_argument_form(
                &file.unwrap_or_default(),
                &unsaid,
                Some(&declared.declared_at),
            ));
        }
    }
    placed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_becomes_gemini_toml_that_holds_its_prompt_exactly() {
        let item = Item {
            description: Some("Say \"hi\"".into()),
            front: Vec::new(),
            body: "\nGreet $ARGUMENTS with a \\ and \"\"\" quotes\n".into(),
        };
        let toml = gemini_toml(&item);
        assert_eq!(
            toml,
            "description = \"Say \\\"hi\\\"\"\nprompt = \"\"\"\nGreet {{args}} with a \\\\ and \\\"\\\"\\\" quotes\n\"\"\"\n"
        );
    }

    #[test]
    fn positional_arguments_are_found() {
        assert!(positional("Fix issue $1 in $2"));
        assert!(!positional("Fix $ARGUMENTS for $ 5"));
    }

    /// TOML's multi-line basic string, read as the spec says (the newline after the opening quotes
    /// dropped; `\\`, `\"`, `\n`, `\t` and `\uXXXX` escapes), for the property below.
    fn read_toml_string(written: &str) -> String {
        let inner = written.strip_prefix("\"\"\"").and_then(|s| s.strip_suffix("\"\"\"")).expect("quoted");
        let inner = inner.strip_prefix('\n').unwrap_or(inner);
        assert!(!inner.contains("\"\"\""), "three quotes inside close the string early: {written:?}");
        let mut out = String::new();
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                assert!(c == '\n' || c == '\t' || !c.is_control(), "a raw control character {c:?}");
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('\\') => out.push('\\'),
                Some('"') => out.push('"'),
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('u') => {
                    let hex: String = chars.by_ref().take(4).collect();
                    out.push(char::from_u32(u32::from_str_radix(&hex, 16).unwrap()).unwrap());
                }
                other => panic!("an escape TOML does not have: {other:?}"),
            }
        }
        out
    }

    /// For any prompt (quotes, backslashes, runs of `"`, control characters, `{{args}}`, non-ASCII),
    /// the TOML written holds exactly the prompt with `$ARGUMENTS` as `{{args}}`.
    #[test]
    fn any_prompt_survives_the_toml_form_exactly() {
        let alphabet: Vec<char> = "ab $ARGUMENTS{}\"\\\n\t\r\u{0}\u{1b}\u{7f}é€😀'#=[]".chars().collect();
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..2000 {
            let len = (next() % 40) as usize;
            let body: String = (0..len).map(|_| alphabet[(next() % alphabet.len() as u64) as usize]).collect();
            let item = Item { description: None, front: Vec::new(), body: body.clone() };
            let toml = gemini_toml(&item);
            let prompt = toml.strip_prefix("prompt = ").and_then(|s| s.strip_suffix('\n')).expect("one key");
            let expected = body.trim_start_matches('\n').replace("$ARGUMENTS", "{{args}}");
            assert_eq!(read_toml_string(prompt), expected, "{body:?}");
        }
    }
}
