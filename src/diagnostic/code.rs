//! The catalogue of diagnostic codes: one code per kind of problem, each with its severity and a
//! one-line summary. Codes from the TypeScript original keep their number; `original` records the
//! original's target-scoped plan code where it had one instead of an AB number.

use serde::Serialize;

use super::Severity;

macro_rules! catalogue {
    ($( $variant:ident = $code:literal, $severity:ident, $summary:literal $(, original = $original:literal)? ;)*) => {
        /// A stable diagnostic code.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code { $($variant,)* }

        impl Code {
            /// Every code, in catalogue order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The `AB####` string users search for.
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $code,)* }
            }

            pub fn severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$severity,)* }
            }

            /// One line saying what the code is about (used by `--explain`-style listings and docs).
            pub fn summary(self) -> &'static str {
                match self { $(Code::$variant => $summary,)* }
            }

            /// The TypeScript original's name for this check when it was not an AB code.
            pub fn original(self) -> Option<&'static str> {
                match self { $(Code::$variant => catalogue!(@original $($original)?),)* }
            }
        }
    };
    (@original $original:literal) => { Some($original) };
    (@original) => { None };
}

catalogue! {
    // Finding and reading the config (AB10xx).
    ConfigNotFound = "AB1001", Error, "no agent-bundle config file in the bundle root";
    ConfigAmbiguous = "AB1002", Error, "more than one agent-bundle config file in the bundle root";
    ConfigUnreadable = "AB1003", Error, "the config file or bundle root cannot be read";
    RootNotFound = "AB1004", Error, "the bundle root is not a directory";
    SyntaxError = "AB1010", Error, "the config file does not parse";
    NoDefaultExport = "AB1011", Error, "the config file has no default export";
    UnsupportedExportShape = "AB1012", Error, "the default export is not a statically readable config";
    NonStaticValue = "AB1013", Error, "a config value needs code to run to be known";
    DuplicateKey = "AB1014", Error, "an object literal repeats a key";
    NestedTooDeep = "AB1015", Error, "a config or route nests brackets, type arguments, operator chains, templates, elements, values or constant references deeper than agent-bundle reads";
    UnknownKey = "AB1020", Error, "a key the config schema does not know";
    WrongType = "AB1021", Error, "a config value has the wrong type";
    MissingKey = "AB1022", Error, "a required key is missing";
    InvalidPluginName = "AB1023", Error, "the plugin name is not a kebab-case identifier";
    UnknownEvent = "AB1024", Error, "a `hooks` key is not one of the seven canonical events";
    InvalidIcon = "AB1026", Error, "`plugin.icon` does not name a PNG file inside the bundle";
    TypesNotVisible = "AB1030", Warning, "a bundle imports agent-bundle's modules and its tsconfig cannot see their declarations";
    InvalidDefine = "AB1032", Error, "`bundle.define` names something that is not an identifier or member chain, or replaces it with something that is not a JSON literal or such a name";
    TypesOutOfDate = "AB1031", Warning, "the bundle's agent-bundle declarations were written by another version";
    UnsuitableIcon = "AB1027", Warning, "the plugin icon is not a square PNG of 512 to 2048 pixels under 2 MB, which the Claude plugin directory requires";
    IncompletePluginMetadata = "AB1025", Warning, "the plugin lacks an author, description or version, which `claude plugin validate --strict` requires";
    // Targets and hook declarations (AB41xx/AB42xx, numbered as in the original).
    UnknownTarget = "AB4100", Error, "`targets` names a host agent-bundle does not know";
    DuplicateHook = "AB4101", Error, "two hook declarations are identical";
    EmptyTargets = "AB4102", Error, "a `targets` list is empty";
    TargetFormsTogether = "AB4103", Error, "`targets` names two forms of one host's plugin (`claude` and `claude-mod`), which would be written at the same places";
    InvalidHandler = "AB4200", Error, "a hook handler is neither a module path nor `{ prebuilt }`";
    ToolsOnNonToolEvent = "AB4201", Error, "`tools` on an event other than beforeTool/afterTool";
    InvalidSelector = "AB4202", Error, "a `tools` entry is neither a canonical selector nor `<target>:<native>`";
    UnknownEntryTarget = "AB4203", Error, "a hook's `targets` names an unknown host";
    PortableTarget = "AB4204", Error, "a hook explicitly targets `portable`, which has no hooks";
    InvalidTimeout = "AB4205", Error, "`timeout` is not a whole number of seconds from 1 to 2147483 (what Node's timers hold)";
    FailClosedOnOtherEvent = "AB4206", Error, "`failClosed` on an event other than beforeTool";
    InvalidSources = "AB4207", Error, "`sources` on an event other than sessionStart, or a source no host sends";
    InvalidMissingSelector = "AB4209", Error, "`onMissingSelector` is not `error`, `skip-host` or `skip-selector`, or is set on a hook without canonical `tools`";
    AsyncNotDetachable = "AB4217", Error, "`async: true` on a hook that must be waited for: an event whose hook can deny, or a prebuilt handler";
    InvalidStatusMessage = "AB4218", Error, "`statusMessage` is blank or longer than 200 characters";
    InvalidMaxInputBytes = "AB4208", Error, "`maxInputBytes` is not a whole number of bytes in range, or is set on a prebuilt handler";
    NativeSelectorUnknownTarget = "AB4210", Error, "a native selector names an unknown host";
    NativeSelectorHooklessTarget = "AB4211", Error, "a native selector names a host without hooks";
    NativeSelectorRegex = "AB4214", Error, "a native selector holds regex or list characters, so it would match no tool";
    NativeSelectorOnlyWildcard = "AB4215", Error, "a native selector is only a wildcard, on a hook of that host alone or beside the host's other native selectors";
    NativeSelectorCase = "AB4216", Error, "a native selector differs from one of its host's tool names only in letter case, and matchers are case-sensitive";
    NativeSelectorUnselectedTarget = "AB4212", Error, "a native selector names a host the hook does not target";
    EntryTargetNotSelected = "AB4213", Error, "a hook's target is not among the config's targets";
    HandlerNotFound = "AB4220", Error, "the handler file does not exist or is not a regular file";
    HandlerOutsideRoot = "AB4221", Error, "the handler file lies outside the bundle root";
    HandlerUnsupportedExtension = "AB4222", Error, "the handler is not a TypeScript or JavaScript module";
    SelectorUnmapped = "AB4230", Error, "a tool selector has no native matcher on a selected host", original = "<target>.hook.tool.<selector>";
    NoApplicableSelector = "AB4231", Error, "a hook selects tools only of other hosts, leaving a host with an empty matcher", original = "<target>.hook.tool.unselected";
    EventUnsupported = "AB4232", Error, "no selected host can receive the hook's event", original = "<target>.hook.event.<event>";
    FailClosedUncovered = "AB4234", Error, "a fail-closed prebuilt hook targets a host that has no failure field, so nothing would block";
    SourcesUnfilterable = "AB4235", Error, "a sessionStart hook filters by `sources` on a host that cannot filter by source";
    FailClosedUnblockable = "AB4236", Error, "a fail-closed route targets a host that records no way to block its event";
    TooManyHooks = "AB4237", Error, "a bundle declares more hooks than agent-bundle builds (4096)";
    HostedToolSelector = "AB4233", Error, "a native selector names a tool that runs on the host's servers and never fires hooks", original = "codex.hook.tool.hosted";
    // Event routes (AB48xx, numbered as in the original).
    DuplicateRoute = "AB4802", Error, "two route modules answer the same family";
    UnsafeRouteSegment = "AB4803", Error, "a route path segment holds characters outside letters, digits and inner `._-`";
    RouteConfigForm = "AB4805", Error, "a route's `config` is not an object literal";
    RouteConfigNotStatic = "AB4806", Error, "a route's `config` needs code to run to be known";
    RouteNotAComponent = "AB4810", Error, "an event route's default export is not an async function component";
    SharedRuntimeUnhosted = "AB4817", Error, "a route asks for the shared runtime, which nothing hosts, with no standalone fallback";
    RouteBudgetTooLong = "AB4819", Error, "a route's `timeoutMs` leaves no room inside a host's deadline";
    UnknownRouteFamily = "AB4823", Error, "a route module's path names no event family";
    RouteFamilyUnsupported = "AB4824", Error, "a route targets a host that does not have its family";
    RouteTargetsInvalid = "AB4825", Error, "a route's `targets` (or another list) is not a non-empty array of non-blank strings";
    RouteConfigValue = "AB4826", Error, "a route's `config` value is out of range (`runtime`, `fallback`, `timeoutMs`, `tools`)";
    RouteRequiresInvalid = "AB4827", Error, "a route's `requires` names an unknown capability row, or comes with `targets`";
    RouteRequiresUnmet = "AB4828", Error, "no selected host has every capability a route `requires`";
    RouteFailClosedNoDeny = "AB4829", Error, "`failClosed` on a route whose family cannot deny";
    // Payloads and prebuilt handlers (AB47xx).
    ReservedPayloadName = "AB4741", Error, "a payload name is not a plain folder name, or one the plugin layout gives a host, the shared runtime or agent-bundle";
    PayloadSourceMissing = "AB4742", Warning, "a payload's source folder does not exist";
    PayloadSourceOutsideRoot = "AB4743", Error, "a payload's source lies outside the bundle root";
    PrebuiltOutsidePayload = "AB4744", Error, "a prebuilt handler is not inside a declared payload";
    PrebuiltNotBuilt = "AB4745", Warning, "a prebuilt handler file does not exist yet";
    ArgsWithoutPrebuilt = "AB4746", Error, "`args` on a handler that is not prebuilt";
    PayloadLacksTarget = "AB4751", Error, "a prebuilt hook targets a host its payload is not copied for";
    PayloadMissingAtBuild = "AB4747", Error, "a payload's source folder is missing when building";
    PrebuiltMissingAtBuild = "AB4748", Error, "a prebuilt handler file is missing when building";
    PayloadOverlapsOutput = "AB4749", Error, "a payload folder and the build output overlap";
    PayloadLinkOutside = "AB4752", Error, "a payload holds a symlink whose target lies outside the bundle root and its node_modules";
    ArgUnquotable = "AB4753", Error, "a prebuilt handler's argument cannot be written so that every shell a host runs the command in on Windows reads it as one argument";
    // The plugin's own MCP servers (AB476x).
    McpServerName = "AB4760", Error, "an `mcpServers` name is not letters, digits, `_` and `-` (at most 64), which every host's tool names carry as is";
    McpServerRuntimeClash = "AB4761", Error, "an `mcpServers` name is the shared runtime's own server's, `<plugin>-runtime`";
    McpServerShape = "AB4762", Error, "an MCP server is not exactly one of `command`, `module` and `url`, or has a key of another kind";
    McpServerModule = "AB4763", Error, "an MCP server's `module` is not a TypeScript or JavaScript file inside the bundle root";
    McpServerRemote = "AB4764", Error, "an MCP server's `type` or `url` is not one a host takes (`stdio`, `http`, `sse`; an http(s) URL)";
    McpServerHostRoot = "AB4765", Error, "an MCP server's value names one host's own root variable instead of `${pluginRoot}`";
    McpServerUnplaced = "AB4766", Warning, "a host the MCP server is built for does not take it, so that host gets no such server";
    McpSelectorUnknownServer = "AB4767", Error, "an `mcp:<server>` selector names no server of `mcpServers`, or a tool name with other characters";
    McpSelectorUnplaced = "AB4768", Error, "an `mcp:<server>` selector on a host where that server is not placed";
    // The plugin's skills, commands, agents and context file (AB477x).
    PartSource = "AB4770", Error, "a `skills`, `commands` or `agents` source is not a folder inside the bundle root, or `contextFile` is not a Markdown file there";
    SkillShape = "AB4771", Error, "a skill is not a folder holding `SKILL.md` whose front matter gives `name` (the folder's own name: lowercase letters, digits and `-`) and `description`";
    CommandShape = "AB4772", Error, "a command is not a `<name>.md` file (letters, digits, `_` and `-`) whose front matter, when it has one, is `key: value` lines";
    AgentShape = "AB4773", Error, "an agent is not a `<name>.md` file (lowercase letters, digits, `_` and `-`) whose front matter gives `name` and `description`";
    PartUnplaced = "AB4774", Warning, "a host a skill folder, commands, agents or a context file is built for does not read them, so that host gets none";
    PluginInterface = "AB4775", Error, "a `plugin.interface` key is not one a host reads, or its value is not of the type that host reads";
    CommandArgumentForm = "AB4776", Warning, "a command names its arguments one by one (`$1`…`$9`), which a host's command files cannot say, so there they stay as written and the host appends what follows the command";
    FrontMatterLeftOut = "AB4777", Warning, "an agent's or command's front matter has keys a host refuses the file over, so the file written for that host leaves them out";
    // Handler modules, their imports and the packages bundled with them (AB483x, AB484x).
    HandlerSyntaxError = "AB4830", Error, "a handler module does not parse or compile";
    UnresolvedImport = "AB4831", Error, "a handler imports a module or package that cannot be found";
    UnsupportedImport = "AB4833", Error, "a handler imports a file that is not a JavaScript, TypeScript or JSON module";
    HandlerWithoutDefaultExport = "AB4834", Error, "a handler module has no default export";
    PackageUnreadable = "AB4835", Error, "a package `bundle.external` ships whole cannot be read";
    NativeAddon = "AB4836", Error, "a handler imports a native addon, which cannot be bundled";
    ReadsOwnFiles = "AB4837", Warning, "a bundled package reads files next to itself at run time";
    NativeAddonCoverage = "AB4857", Warning, "a package shipped whole holds native addons for fewer systems than hosts run on, or for one Node release line only";
    ModuleReadsBesideItself = "AB4855", Error, "a handler's own module reads a file located from its own place, which the artifact does not hold there";
    ProcessExitInHandler = "AB4856", Error, "a handler's own module calls `process.exit`, which ends the hook before it answers";
    SubpathNotExported = "AB4838", Error, "a handler imports a package subpath the package does not export";
    ComputedImport = "AB4839", Error, "`import()` of a computed specifier, which cannot be bundled";
    PayloadFieldUnsent = "AB4852", Warning, "a handler destructures a payload field that a host its hook reaches never sends on that event";
    ToolInputKeyUnheld = "AB4854", Warning, "a tool hook's handler reads a key of the tool's native input that the tools it runs for on a host it reaches never hold";
    StdinWithoutEnvelope = "AB4853", Error, "a handler reads stdin where no envelope arrives on it: a host that runs hooks in its own process, or the shared runtime";
    RequireInEsModule = "AB4840", Error, "`require`, `__dirname` or `__filename` in an ES module, where Node does not define them";
    ExternalNotInstalled = "AB4841", Error, "`bundle.external` names a package that is not installed";
    ExternalUnused = "AB4842", Warning, "`bundle.external` names a package no handler imports";
    UnloweredDecorator = "AB4843", Error, "a decorator the bundler cannot lower for Node 18";
    UnfollowedRequire = "AB4844", Error, "a bundled package requires a relative file in a way the bundler cannot follow";
    MissingExport = "AB4845", Error, "a handler imports a name the imported module does not export";
    DefaultExportNotAFunction = "AB4846", Error, "a handler's default export is statically not a function";
    BundlerError = "AB4849", Error, "the bundler reported an error";
    BundlerWarning = "AB4850", Warning, "the bundler warns about the bundle's own code";
    PackageLinkOutside = "AB4851", Error, "a package shipped whole holds a symlink whose target lies outside the bundle root, its node_modules and the package's folder";
    // Writing and reading artifacts (AB5xxx, AB6xxx).
    OutputNotAnArtifact = "AB5001", Error, "the output folder exists and was not written by agent-bundle";
    ArtifactWriteFailed = "AB5002", Error, "the artifact could not be written";
    ArtifactPathCollision = "AB5003", Error, "two parts of the build would write one artifact path, or a file where another needs a folder";
    UntrackedArtifactFiles = "AB5004", Warning, "the output folder holds files no build wrote; the build keeps them";
    UntrackedFileInTheWay = "AB5005", Error, "a file no build wrote stands where the build writes a file or needs a folder";
    InternalError = "AB5006", Error, "agent-bundle itself failed on the bundle (a bug); its build stopped and wrote nothing";
    // Marketplace catalogs (AB51xx).
    MarketplaceDeclarationInvalid = "AB5101", Error, "agent-bundle.marketplace.json cannot be read or is not a marketplace declaration";
    MarketplacePluginUnlistable = "AB5102", Error, "a built plugin cannot be listed in the marketplace: its name is taken by another, or its artifact lies outside the marketplace's root";
    CatalogNotOurs = "AB5103", Error, "a catalog file exists and describes another marketplace; the build does not replace it";
    CatalogWriteFailed = "AB5104", Error, "a catalog file could not be written";
    // Installing built plugins (AB52xx).
    InstallArtifactInvalid = "AB5201", Error, "the folder to install is not a built artifact that verifies";
    InstallHostUnavailable = "AB5202", Error, "a host asked for cannot be installed for: not built, not supported, not in that scope, or its program is not found";
    InstallPathNotOwned = "AB5203", Error, "a path install would write exists and its receipt does not own it; nothing was changed";
    HostCommandFailed = "AB5204", Error, "a host's own command failed while installing or uninstalling";
    InstallWriteFailed = "AB5205", Error, "an installed file could not be written";
    ReceiptMissing = "AB5206", Error, "no install receipt of that plugin: it was not installed by agent-bundle here";
    ReceiptInvalid = "AB5207", Error, "the install receipt cannot be read or belongs to another plugin";
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Code {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Code::ALL
            .iter()
            .copied()
            .find(|code| code.as_str() == text)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown diagnostic code {text}")))
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn codes_are_unique_and_well_formed() {
        let mut seen = BTreeSet::new();
        for code in Code::ALL {
            let text = code.as_str();
            assert!(seen.insert(text), "{text} is used twice");
            assert!(
                text.len() == 6 && text.starts_with("AB") && text[2..].bytes().all(|b| b.is_ascii_digit()),
                "{text} is not of the form AB####"
            );
            assert!(!code.summary().is_empty());
        }
    }
}
