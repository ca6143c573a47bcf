//! npm's vocabulary: the package a bare import specifier names, and whether a file is a package's.

/// The npm package name of a bare specifier (`@scope/pkg/sub` → `@scope/pkg`).
pub fn package_name(specifier: &str) -> &str {
    let mut parts = specifier.splitn(3, '/');
    let first = parts.next().unwrap_or(specifier);
    if first.starts_with('@') {
        match parts.next() {
            Some(second) => &specifier[..first.len() + 1 + second.len()],
            None => first,
        }
    } else {
        first
    }
}

/// Whether a file belongs to an installed package rather than to the bundle's own code: it lies
/// under a `node_modules` folder (workspace siblings, reached through links, do not).
pub fn in_node_modules(path: &str) -> bool {
    path.contains("/node_modules/")
}

#[cfg(test)]
mod tests {
    use super::package_name;

    #[test]
    fn names_of_specifiers() {
        assert_eq!(package_name("lodash-es"), "lodash-es");
        assert_eq!(package_name("semver/functions/satisfies"), "semver");
        assert_eq!(package_name("@scope/pkg/sub/path"), "@scope/pkg");
        assert_eq!(package_name("@scope"), "@scope");
    }
}
