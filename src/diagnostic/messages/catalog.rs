//! Marketplace catalogs written after a build.

use camino::Utf8Path;

use super::kebab;
use crate::diagnostic::{Code, Diagnostic};

pub fn marketplace_unreadable(path: &Utf8Path, error: &std::io::Error) -> Diagnostic {
    Diagnostic::new(Code::MarketplaceDeclarationInvalid, format!("cannot read `{path}`: {error}"))
        .hint("check the file's permissions and that it is UTF-8 text")
}

pub fn marketplace_invalid(path: &Utf8Path, line: usize, column: usize, error: &serde_json::Error) -> Diagnostic {
    Diagnostic::new(Code::MarketplaceDeclarationInvalid, format!("`{path}`:{line}:{column}: {error}"))
        .note("a marketplace declaration holds exactly `name`, `owner` (`{ \"name\", \"email\"?, \"url\"? }`) and `description`; each plugin's own facts come from its artifact")
        .hint(r#"write `{ "name": "my-hooks", "owner": { "name": "Your Name" }, "description": "What the plugins do" }`"#)
}

pub fn marketplace_name_invalid(path: &Utf8Path, name: &str) -> Diagnostic {
    Diagnostic::new(Code::MarketplaceDeclarationInvalid, format!("`{path}`: the marketplace name `{name}` is not kebab-case"))
        .note("users type it after `@` (`claude plugin install <plugin>@<marketplace>`); hosts accept lowercase letters, digits and single dashes")
        .hint(format!("name it `{}`", kebab(name)))
}

pub fn marketplace_key_empty(path: &Utf8Path, key: &str) -> Diagnostic {
    Diagnostic::new(Code::MarketplaceDeclarationInvalid, format!("`{path}`: `{key}` is empty"))
        .note("`claude plugin validate --strict` refuses a catalog without it")
        .hint(format!("give `{key}` a value"))
}

pub fn marketplace_duplicate_plugin(name: &str, first: &Utf8Path, second: &Utf8Path) -> Diagnostic {
    Diagnostic::new(Code::MarketplacePluginUnlistable, format!("two plugins named `{name}`: `{first}` and `{second}`"))
        .note("a catalog lists each plugin once, by name; users install `<plugin>@<marketplace>`")
        .hint("give one of the bundles another `name` in its agent-bundle.config.ts")
}

pub fn marketplace_plugin_outside(name: &str, artifact: &Utf8Path, root: &Utf8Path) -> Diagnostic {
    Diagnostic::new(Code::MarketplacePluginUnlistable, format!("plugin `{name}` is built to `{artifact}`, outside the marketplace's root `{root}`"))
        .note("a catalog names each plugin by a `./` path inside the repository it is published from")
        .hint("build into the bundle's default `artifact` folder (drop `--output`), or move the declaration up to a folder that holds both")
}

pub fn catalog_not_ours(path: &Utf8Path, marketplace: &str) -> Diagnostic {
    Diagnostic::new(
        Code::CatalogNotOurs,
        format!("`{path}` exists and is not the catalog of marketplace `{marketplace}`"),
    )
    .note("agent-bundle replaces a catalog only when its `name` is the declared marketplace's; nothing was written")
    .hint(
        "remove the file if agent-bundle should write it, or give agent-bundle.marketplace.json that catalog's `name`",
    )
}

pub fn catalog_write_failed(path: &Utf8Path, error: &std::io::Error) -> Diagnostic {
    Diagnostic::new(Code::CatalogWriteFailed, format!("cannot write `{path}`: {error}"))
        .hint("check that the folder is writable")
}
