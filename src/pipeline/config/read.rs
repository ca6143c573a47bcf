//! Reading the extracted value tree into the [`Config`] model: unknown keys (with "did you mean"),
//! wrong types and missing keys are reported here, every one of them, not just the first.

use super::{
    Author, BundleConfig, Config, HandlerDeclaration, HookDeclaration, McpServerDeclaration, PartDeclaration,
    PayloadDeclaration, PluginConfig, Spanned,
};
use crate::diagnostic::{Diagnostic, Staged, messages};
use crate::pipeline::extract::{Node, Property, SPREAD_KEY, Value};
use crate::vocabulary::canonical::CanonicalEvent;
use crate::vocabulary::part::PartKind;
use crate::vocabulary::source::{Location, SourceFile};

const CONFIG_KEYS: &[&str] =
    &["agents", "bundle", "commands", "contextFile", "hooks", "mcpServers", "payload", "plugin", "skills", "targets"];
const PART_KEYS: &[&str] = &["source", "targets"];
const MCP_SERVER_KEYS: &[&str] = &["args", "command", "cwd", "env", "headers", "module", "targets", "type", "url"];
const BUNDLE_KEYS: &[&str] = &["combineCommands", "define", "external", "keepOutsideLinks", "warmServer"];
const ENTRY_KEYS: &[&str] = &[
    "args",
    "async",
    "failClosed",
    "handler",
    "maxInputBytes",
    "onMissingSelector",
    "sources",
    "statusMessage",
    "targets",
    "timeout",
    "tools",
];
const PREBUILT_KEYS: &[&str] = &["prebuilt"];
const PLUGIN_KEYS: &[&str] =
    &["author", "description", "homepage", "icon", "interface", "keywords", "license", "name", "repository", "version"];
const AUTHOR_KEYS: &[&str] = &["email", "name", "url"];
const PAYLOAD_KEYS: &[&str] = &["keepOutsideLinks", "source", "targets"];

/// Reads the config's root value. Returns the model (as far as it could be read) and diagnostics.
pub fn read_config(file: &SourceFile, root: &Node) -> Staged<Config> {
    let mut reader = Reader::new(file);
    let config = reader.config(root);
    Staged { value: config, diagnostics: reader.diagnostics }
}

/// Reads values of one file's config tree against a schema, collecting what is wrong; a route's
/// `config` is read with the same helpers.
pub(super) struct Reader<'a> {
    file: &'a SourceFile,
    pub(super) diagnostics: Vec<Diagnostic>,
}

impl<'a> Reader<'a> {
    pub(super) fn new(file: &'a SourceFile) -> Self {
        Reader { file, diagnostics: Vec::new() }
    }

    pub(super) fn at(&self, node: &Node) -> Location {
        self.file.locate(node.span)
    }

    fn key_at(&self, property: &Property) -> Location {
        self.file.locate(property.key_span)
    }

    fn config(&mut self, root: &Node) -> Config {
        let mut config = Config::default();
        let Some(properties) = self.object(root, "the config") else { return config };
        for property in properties {
            match property.key.as_str() {
                "hooks" => config.hooks = self.hooks(&property.value),
                "plugin" => config.plugin = self.plugin(&property.value),
                "targets" => config.targets = self.string_list(&property.value, "targets"),
                "payload" => config.payloads = self.payloads(&property.value),
                "bundle" => config.bundle = self.bundle(&property.value),
                "mcpServers" => config.mcp_servers = self.mcp_servers(&property.value),
                key => match PartKind::from_key(key) {
                    Some(kind) => config.parts.extend(self.part(kind, property)),
                    None => self.unknown_key(property, CONFIG_KEYS, "the config"),
                },
            }
        }
        // Hooks are kept in canonical event order whatever order the object lists them in.
        config.hooks.sort_by_key(|hook| hook.event);
        config
    }

    fn hooks(&mut self, node: &Node) -> Vec<HookDeclaration> {
        let mut hooks = Vec::new();
        let Some(properties) = self.object(node, "`hooks`") else { return hooks };
        for property in properties.iter().filter(|p| p.key != SPREAD_KEY) {
            let Some(event) = CanonicalEvent::from_name(&property.key) else {
                self.diagnostics.push(messages::unknown_event(&property.key, &self.key_at(property)));
                continue;
            };
            match &property.value.value {
                Value::Array(items) => {
                    for item in items {
                        if let Value::Array(_) = item.value {
                            self.diagnostics.push(messages::nested_hook_array(event, &self.at(item)));
                        } else if let Some(hook) = self.entry(event, item) {
                            hooks.push(hook);
                        }
                    }
                }
                _ => hooks.extend(self.entry(event, &property.value)),
            }
        }
        hooks
    }

    fn entry(&mut self, event: CanonicalEvent, node: &Node) -> Option<HookDeclaration> {
        let at = self.at(node);
        let blank = |handler| HookDeclaration {
            event,
            at: at.clone(),
            handler,
            targets: None,
            timeout: None,
            tools: Vec::new(),
            args: None,
            fail_closed: None,
            max_input_bytes: None,
            sources: None,
            on_missing_selector: None,
            run_async: None,
            status_message: None,
        };
        match &node.value {
            Value::Unreadable => None,
            Value::String(_) => Some(blank(self.handler(node))),
            Value::Object(properties) => {
                let mut hook = blank(HandlerDeclaration::Invalid);
                let mut has_handler = false;
                for property in properties {
                    let value = &property.value;
                    match property.key.as_str() {
                        "handler" => {
                            has_handler = true;
                            hook.handler = self.handler(value);
                        }
                        "targets" => hook.targets = self.string_list(value, "targets"),
                        "timeout" => hook.timeout = self.timeout(value),
                        "failClosed" => hook.fail_closed = self.boolean(value, "failClosed"),
                        "async" => hook.run_async = self.boolean(value, "async"),
                        "statusMessage" => {
                            hook.status_message = self
                                .string(value, "statusMessage")
                                .map(|text| Spanned { value: text, at: self.at(value) })
                        }
                        "maxInputBytes" => hook.max_input_bytes = self.number(value, "maxInputBytes"),
                        "sources" => hook.sources = self.string_list(value, "sources"),
                        "onMissingSelector" => {
                            hook.on_missing_selector = self
                                .string(value, "onMissingSelector")
                                .map(|name| Spanned { value: name, at: self.at(value) })
                        }
                        "tools" => {
                            hook.tools = self
                                .string_list(value, "tools")
                                .map(|list| list.value)
                                .unwrap_or_default()
                                .into_iter()
                                .map(|s| Spanned { value: s.value.trim().to_string(), at: s.at })
                                .collect();
                        }
                        "args" => {
                            hook.args = self.string_list(value, "args").map(|list| Spanned {
                                value: list.value.into_iter().map(|s| s.value).collect(),
                                at: list.at,
                            });
                        }
                        _ => self.unknown_key(property, ENTRY_KEYS, &format!("a `{event}` hook entry")),
                    }
                }
                if !has_handler && !has_spread(properties) {
                    self.diagnostics.push(messages::missing_handler(event, &at));
                }
                Some(hook)
            }
            other => {
                self.diagnostics.push(messages::invalid_hook_entry(event, other.kind(), &at));
                None
            }
        }
    }

    fn handler(&mut self, node: &Node) -> HandlerDeclaration {
        let at = self.at(node);
        match &node.value {
            Value::Unreadable => HandlerDeclaration::Invalid,
            Value::String(path) if !path.trim().is_empty() => {
                HandlerDeclaration::Module(Spanned { value: path.clone(), at })
            }
            Value::Object(properties) => {
                let mut prebuilt = None;
                for property in properties {
                    match property.key.as_str() {
                        "prebuilt" => match &property.value.value {
                            Value::String(path) if !path.trim().is_empty() => {
                                prebuilt = Some(Spanned { value: path.clone(), at: self.at(&property.value) });
                            }
                            Value::Unreadable => return HandlerDeclaration::Invalid,
                            other => {
                                self.diagnostics
                                    .push(messages::invalid_handler(&other.found(), &self.at(&property.value)));
                                return HandlerDeclaration::Invalid;
                            }
                        },
                        _ => self.unknown_key(property, PREBUILT_KEYS, "a prebuilt handler"),
                    }
                }
                match prebuilt {
                    Some(path) => HandlerDeclaration::Prebuilt(path),
                    None => {
                        self.diagnostics.push(messages::invalid_handler(&node.value.found(), &at));
                        HandlerDeclaration::Invalid
                    }
                }
            }
            other => {
                self.diagnostics.push(messages::invalid_handler(&other.found(), &at));
                HandlerDeclaration::Invalid
            }
        }
    }

    fn timeout(&mut self, node: &Node) -> Option<Spanned<f64>> {
        match node.value {
            Value::Number(n) => Some(Spanned { value: n, at: self.at(node) }),
            Value::Unreadable => None,
            ref other => {
                self.diagnostics.push(messages::invalid_timeout(&other.preview(), Some(other.kind()), &self.at(node)));
                None
            }
        }
    }

    fn plugin(&mut self, node: &Node) -> Option<PluginConfig> {
        let properties = self.object(node, "`plugin`")?;
        let mut plugin = PluginConfig {
            name: None,
            description: None,
            version: None,
            author: None,
            license: None,
            icon: None,
            interface: Vec::new(),
            homepage: None,
            repository: None,
            keywords: None,
            at: self.at(node),
        };
        let mut saw_name = false;
        for property in properties {
            let key = property.key.as_str();
            match key {
                "license" => plugin.license = self.string(&property.value, "plugin.license"),
                "homepage" => plugin.homepage = self.string(&property.value, "plugin.homepage"),
                "repository" => plugin.repository = self.string(&property.value, "plugin.repository"),
                "keywords" => {
                    plugin.keywords = self
                        .string_list(&property.value, "plugin.keywords")
                        .map(|list| list.value.into_iter().map(|k| k.value).collect())
                }
                "icon" => {
                    plugin.icon = self
                        .string(&property.value, "plugin.icon")
                        .map(|value| Spanned { value, at: self.at(&property.value) })
                }
                "name" | "description" | "version" => {
                    if key == "name" {
                        saw_name = true;
                    }
                    let Some(text) = self.string(&property.value, &format!("plugin.{key}")) else { continue };
                    match key {
                        "name" => plugin.name = Some(Spanned { value: text, at: self.at(&property.value) }),
                        "description" => plugin.description = Some(text),
                        _ => plugin.version = Some(text),
                    }
                }
                "author" => plugin.author = self.author(&property.value),
                "interface" => {
                    let Some(fields) = self.object(&property.value, "`plugin.interface`") else { continue };
                    plugin.interface = fields
                        .iter()
                        .filter(|f| f.key != SPREAD_KEY && !f.value.is_unreadable())
                        .map(|f| {
                            let key = Spanned { value: f.key.clone(), at: self.key_at(f) };
                            (key, Spanned { value: f.value.to_json(), at: self.at(&f.value) })
                        })
                        .collect();
                }
                _ => self.unknown_key(property, PLUGIN_KEYS, "`plugin`"),
            }
        }
        if !saw_name && !has_spread(properties) {
            self.diagnostics.push(messages::missing_key("name", "`plugin`", &plugin.at));
        }
        Some(plugin)
    }

    /// `author: 'Name <email> (url)'` or `author: { name, email, url }`.
    fn author(&mut self, node: &Node) -> Option<Author> {
        match &node.value {
            Value::String(line) => {
                let author = Author::from_npm_line(line);
                if author.is_none() {
                    self.diagnostics.push(messages::missing_key("name", "`plugin.author`", &self.at(node)));
                }
                author
            }
            Value::Object(properties) => {
                let mut author = Author { name: String::new(), email: None, url: None };
                for property in properties {
                    let key = property.key.as_str();
                    match key {
                        "name" | "email" | "url" => {
                            let Some(text) = self.string(&property.value, &format!("plugin.author.{key}")) else {
                                continue;
                            };
                            match key {
                                "name" => author.name = text,
                                "email" => author.email = Some(text),
                                _ => author.url = Some(text),
                            }
                        }
                        _ => self.unknown_key(property, AUTHOR_KEYS, "`plugin.author`"),
                    }
                }
                if author.name.trim().is_empty() && !has_spread(properties) {
                    self.diagnostics.push(messages::missing_key("name", "`plugin.author`", &self.at(node)));
                    return None;
                }
                Some(author)
            }
            Value::Unreadable => None,
            other => {
                self.diagnostics.push(messages::wrong_type(
                    "`plugin.author`",
                    "a string or `{ name, email, url }`",
                    &other.found(),
                    &self.at(node),
                ));
                None
            }
        }
    }

    /// `bundle: { external: ['pkg', …] }`: how handlers are bundled.
    fn bundle(&mut self, node: &Node) -> Option<BundleConfig> {
        let properties = self.object(node, "`bundle`")?;
        let mut bundle = BundleConfig::default();
        for property in properties {
            match property.key.as_str() {
                "external" => {
                    bundle.external =
                        self.string_list(&property.value, "bundle.external").map(|l| l.value).unwrap_or_default()
                }
                "keepOutsideLinks" => {
                    bundle.keep_outside_links = self.boolean(&property.value, "bundle.keepOutsideLinks")
                }
                "combineCommands" => bundle.combine_commands = self.boolean(&property.value, "bundle.combineCommands"),
                "warmServer" => bundle.warm_server = self.boolean(&property.value, "bundle.warmServer"),
                "define" => bundle.define = self.defines(&property.value),
                _ => self.unknown_key(property, BUNDLE_KEYS, "`bundle`"),
            }
        }
        Some(bundle)
    }

    /// `bundle.define`: name → replacement, the replacement as code (esbuild's and tsup's form: a
    /// string holds an expression, so a string constant is written `'"production"'`), or a number,
    /// boolean or null, which stand for themselves.
    fn defines(&mut self, node: &Node) -> Vec<(Spanned<String>, Spanned<String>)> {
        let Some(properties) = self.object(node, "`bundle.define`") else { return Vec::new() };
        let mut defines = Vec::new();
        for property in properties.iter().filter(|p| p.key != SPREAD_KEY) {
            let name = Spanned { value: property.key.clone(), at: self.key_at(property) };
            let code = match &property.value.value {
                Value::String(code) => code.clone(),
                Value::Number(number) => crate::pipeline::extract::format_number(*number),
                Value::Bool(flag) => flag.to_string(),
                Value::Null => "null".to_string(),
                Value::Unreadable => continue,
                other => {
                    self.diagnostics.push(messages::wrong_type(
                        &format!("`bundle.define.{}`", property.key),
                        "a string of code (`'\"production\"'`), a number, a boolean or null",
                        &other.found(),
                        &self.at(&property.value),
                    ));
                    continue;
                }
            };
            defines.push((name, Spanned { value: code, at: self.at(&property.value) }));
        }
        defines
    }

    fn payloads(&mut self, node: &Node) -> Vec<PayloadDeclaration> {
        let mut payloads = Vec::new();
        let Some(properties) = self.object(node, "`payload`") else { return payloads };
        for property in properties.iter().filter(|p| p.key != SPREAD_KEY) {
            let name = Spanned { value: property.key.clone(), at: self.key_at(property) };
            let value = &property.value;
            match &value.value {
                Value::String(source) => payloads.push(PayloadDeclaration {
                    name,
                    source: Spanned { value: source.clone(), at: self.at(value) },
                    targets: None,
                    keep_outside_links: None,
                }),
                Value::Object(fields) => {
                    let mut source = None;
                    let mut targets = None;
                    let mut keep_outside_links = None;
                    for field in fields {
                        match field.key.as_str() {
                            "source" => {
                                source = self
                                    .string(&field.value, "payload source")
                                    .map(|s| Spanned { value: s, at: self.at(&field.value) })
                            }
                            "targets" => targets = self.string_list(&field.value, "targets"),
                            "keepOutsideLinks" => {
                                keep_outside_links = self.boolean(&field.value, "keepOutsideLinks");
                            }
                            _ => self.unknown_key(field, PAYLOAD_KEYS, &format!("payload `{}`", property.key)),
                        }
                    }
                    match source {
                        Some(source) => payloads.push(PayloadDeclaration { name, source, targets, keep_outside_links }),
                        None if fields.iter().any(|f| f.key == "source") || has_spread(fields) => {}
                        None => self.diagnostics.push(messages::missing_key(
                            "source",
                            &format!("payload `{}`", property.key),
                            &self.at(value),
                        )),
                    }
                }
                Value::Unreadable => {}
                other => self.diagnostics.push(messages::wrong_type(
                    &format!("payload `{}`", property.key),
                    "a source path or `{ source, targets, keepOutsideLinks }`",
                    &other.found(),
                    &self.at(value),
                )),
            }
        }
        payloads
    }

    /// `skills`, `commands`, `agents` or `contextFile`: `'./path'` or `{ source, targets }`.
    fn part(&mut self, kind: PartKind, property: &Property) -> Option<PartDeclaration> {
        let value = &property.value;
        let at = self.key_at(property);
        let what = format!("`{}`", kind.key());
        match &value.value {
            Value::String(source) => Some(PartDeclaration {
                kind,
                at,
                source: Spanned { value: source.clone(), at: self.at(value) },
                targets: None,
            }),
            Value::Object(fields) => {
                let (mut source, mut targets) = (None, None);
                for field in fields {
                    match field.key.as_str() {
                        "source" => {
                            source = self
                                .string(&field.value, &format!("{}.source", kind.key()))
                                .map(|s| Spanned { value: s, at: self.at(&field.value) })
                        }
                        "targets" => targets = self.string_list(&field.value, "targets"),
                        _ => self.unknown_key(field, PART_KEYS, &what),
                    }
                }
                match source {
                    Some(source) => Some(PartDeclaration { kind, at, source, targets }),
                    None if fields.iter().any(|f| f.key == "source") || has_spread(fields) => None,
                    None => {
                        self.diagnostics.push(messages::missing_key("source", &what, &self.at(value)));
                        None
                    }
                }
            }
            Value::Unreadable => None,
            other => {
                let expected = if kind.is_file() { "a file path" } else { "a folder path" };
                self.diagnostics.push(messages::wrong_type(
                    &what,
                    &format!("{expected} or `{{ source, targets }}`"),
                    &other.found(),
                    &self.at(value),
                ));
                None
            }
        }
    }

    /// `mcpServers: { <name>: { command, args, env, cwd } | { type, url, headers } | { module, args, env } }`:
    /// read as written; which keys go together is normalisation's judgement.
    fn mcp_servers(&mut self, node: &Node) -> Vec<McpServerDeclaration> {
        let mut servers = Vec::new();
        let Some(properties) = self.object(node, "`mcpServers`") else { return servers };
        for property in properties.iter().filter(|p| p.key != SPREAD_KEY) {
            let name = Spanned { value: property.key.clone(), at: self.key_at(property) };
            let what = format!("MCP server `{}`", property.key);
            let Some(fields) = self.object(&property.value, &format!("`mcpServers.{}`", property.key)) else {
                continue;
            };
            let mut server = McpServerDeclaration {
                name,
                at: self.at(&property.value),
                command: None,
                module: None,
                url: None,
                transport: None,
                args: Vec::new(),
                env: Vec::new(),
                headers: Vec::new(),
                cwd: None,
                targets: None,
            };
            for field in fields {
                let value = &field.value;
                let key = format!("mcpServers.{}.{}", property.key, field.key);
                let spanned = |reader: &mut Self| {
                    reader.string(value, &key).map(|text| Spanned { value: text, at: reader.at(value) })
                };
                match field.key.as_str() {
                    "command" => server.command = spanned(self),
                    "module" => server.module = spanned(self),
                    "url" => server.url = spanned(self),
                    "type" => server.transport = spanned(self),
                    "cwd" => server.cwd = spanned(self),
                    "args" => server.args = self.string_list(value, &key).map(|l| l.value).unwrap_or_default(),
                    "targets" => server.targets = self.string_list(value, "targets"),
                    "env" => server.env = self.string_map(value, &key),
                    "headers" => server.headers = self.string_map(value, &key),
                    _ => self.unknown_key(field, MCP_SERVER_KEYS, &what),
                }
            }
            servers.push(server);
        }
        servers
    }

    /// An object of string values (`env`, `headers`), in declaration order. Values of another type are
    /// reported and left out.
    fn string_map(&mut self, node: &Node, key: &str) -> Vec<(Spanned<String>, Spanned<String>)> {
        let Some(properties) = self.object(node, &format!("`{key}`")) else { return Vec::new() };
        let mut map = Vec::new();
        for property in properties.iter().filter(|p| p.key != SPREAD_KEY) {
            let Some(text) = self.string(&property.value, &format!("{key}.{}", property.key)) else { continue };
            map.push((
                Spanned { value: property.key.clone(), at: self.key_at(property) },
                Spanned { value: text, at: self.at(&property.value) },
            ));
        }
        map
    }

    fn object<'n>(&mut self, node: &'n Node, what: &str) -> Option<&'n [Property]> {
        match &node.value {
            Value::Object(properties) => Some(properties),
            Value::Unreadable => None,
            other => {
                self.diagnostics.push(messages::wrong_type(what, "an object", &other.found(), &self.at(node)));
                None
            }
        }
    }

    pub(super) fn number(&mut self, node: &Node, key: &str) -> Option<Spanned<f64>> {
        self.scalar(node, key, "a number", |value| if let Value::Number(n) = value { Some(*n) } else { None })
    }

    pub(super) fn boolean(&mut self, node: &Node, key: &str) -> Option<Spanned<bool>> {
        self.scalar(node, key, "a boolean", |value| if let Value::Bool(b) = value { Some(*b) } else { None })
    }

    /// A value of one JSON kind (`read` picks it out), or AB1021 naming `key` and what was found.
    fn scalar<T>(
        &mut self,
        node: &Node,
        key: &str,
        kind: &str,
        read: impl Fn(&Value) -> Option<T>,
    ) -> Option<Spanned<T>> {
        if let Some(value) = read(&node.value) {
            return Some(Spanned { value, at: self.at(node) });
        }
        if node.value != Value::Unreadable {
            self.diagnostics.push(messages::wrong_type(&format!("`{key}`"), kind, &node.value.found(), &self.at(node)));
        }
        None
    }

    pub(super) fn string(&mut self, node: &Node, what: &str) -> Option<String> {
        match &node.value {
            Value::String(s) => Some(s.clone()),
            Value::Unreadable => None,
            other => {
                self.diagnostics.push(messages::wrong_type(
                    &format!("`{what}`"),
                    "a string",
                    &other.found(),
                    &self.at(node),
                ));
                None
            }
        }
    }

    /// An array of strings. Items of another type are reported and left out.
    fn string_list(&mut self, node: &Node, key: &str) -> Option<Spanned<Vec<Spanned<String>>>> {
        let items = match &node.value {
            Value::Array(items) => items,
            Value::Unreadable => return None,
            other => {
                self.diagnostics.push(messages::wrong_type(
                    &format!("`{key}`"),
                    "an array of strings",
                    &other.found(),
                    &self.at(node),
                ));
                return None;
            }
        };
        let mut list = Vec::with_capacity(items.len());
        for item in items {
            match &item.value {
                Value::String(s) => list.push(Spanned { value: s.clone(), at: self.at(item) }),
                Value::Unreadable => {}
                other => self.diagnostics.push(messages::wrong_type(
                    &format!("an item of `{key}`"),
                    "a string",
                    &other.found(),
                    &self.at(item),
                )),
            }
        }
        Some(Spanned { value: list, at: self.at(node) })
    }

    pub(super) fn unknown_key(&mut self, property: &Property, known: &[&str], context: &str) {
        if property.key == SPREAD_KEY {
            return; // an unreadable spread, already reported
        }
        self.diagnostics.push(messages::unknown_key(&property.key, context, known, &self.key_at(property)));
    }
}

/// Whether an object had an unreadable spread, which may have supplied keys we cannot see.
fn has_spread(properties: &[Property]) -> bool {
    properties.iter().any(|p| p.key == SPREAD_KEY)
}
