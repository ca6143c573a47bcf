//! What a native addon shipped whole was built for, read from its compiled files (never run): the
//! system and processor of each `.node` file, from its header (ELF, Mach-O, a universal Mach-O, or
//! PE), and the Node ABI it was compiled against: Node-API (`napi_register_module_v1`), which every
//! later Node loads, or one Node release's ABI (`node_register_module_v<N>`), which only that
//! release line loads. A plugin runs on its users' machines, so the build says when the binaries
//! cover less than the systems hosts run on ([`missing`]).

use crate::artifact::NativeBinary;

/// The systems hosts run on, as Node names them (`process.platform-process.arch`): a native addon
/// without a binary for one of them cannot load there.
pub(super) const HOST_SYSTEMS: &[&str] = &["darwin-arm64", "darwin-x64", "linux-arm64", "linux-x64", "win32-x64"];

/// The Node release line of each Node ABI (`process.versions.modules`) since Node 16.
const ABI_RELEASES: &[(u32, u32)] =
    &[(93, 16), (102, 17), (108, 18), (111, 19), (115, 20), (120, 21), (127, 22), (131, 23), (137, 24), (141, 25)];

/// The compiled addon `path` (package-relative) holds, when it is one this reads.
pub(super) fn read(path: &str, bytes: &[u8]) -> Option<NativeBinary> {
    let systems = systems(bytes);
    if systems.is_empty() {
        return None;
    }
    Some(NativeBinary { path: path.to_string(), systems, abi: abi(bytes) })
}

/// `napi` for Node-API, else `node-<ABI>` (`node-115`), else `unknown`.
fn abi(bytes: &[u8]) -> String {
    if contains(bytes, b"napi_register_module_v1") || contains(bytes, b"napi_module_register") {
        return "napi".to_string();
    }
    const PREFIX: &[u8] = b"node_register_module_v";
    let found = bytes.windows(PREFIX.len()).position(|w| w == PREFIX).map(|at| {
        let digits: String =
            bytes[at + PREFIX.len()..].iter().take(4).take_while(|b| b.is_ascii_digit()).map(|&b| b as char).collect();
        digits
    });
    match found {
        Some(digits) if !digits.is_empty() => format!("node-{digits}"),
        _ => "unknown".to_string(),
    }
}

/// How an ABI reads in a message: `Node-API (any Node)`, `Node ABI 115 (Node 20 only)`.
pub(super) fn describe_abi(abi: &str) -> String {
    match abi.strip_prefix("node-").and_then(|n| n.parse::<u32>().ok()) {
        Some(number) => match ABI_RELEASES.iter().find(|(n, _)| *n == number) {
            Some((_, release)) => format!("Node ABI {number}, Node {release} only"),
            None => format!("Node ABI {number}, one Node release line only"),
        },
        None if abi == "napi" => "Node-API (any Node)".to_string(),
        None => "an ABI this could not read".to_string(),
    }
}

/// The host systems `binaries` leave out, and whether any binary is tied to one Node release.
pub(super) fn missing(binaries: &[NativeBinary]) -> (Vec<&'static str>, bool) {
    let covered = |system: &str| binaries.iter().any(|b| b.systems.iter().any(|s| s == system));
    let missing = HOST_SYSTEMS.iter().copied().filter(|system| !covered(system)).collect();
    (missing, binaries.iter().any(|b| b.abi != "napi"))
}

fn contains(bytes: &[u8], needle: &[u8]) -> bool {
    bytes.windows(needle.len()).any(|w| w == needle)
}

fn u16_le(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?))
}

fn u32_le(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

fn u32_be(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

/// The systems a compiled file runs on, from its header: one for ELF, Mach-O and PE, one per slice
/// of a universal Mach-O; none for anything else.
fn systems(bytes: &[u8]) -> Vec<String> {
    let mach_arch = |cpu: u32| match cpu {
        0x0100_0007 => Some("x64"),
        0x0100_000c => Some("arm64"),
        _ => None,
    };
    if bytes.starts_with(b"\x7fELF") {
        let arch = match u16_le(bytes, 18) {
            Some(0x3e) => "x64",
            Some(0xb7) => "arm64",
            Some(0x03) => "ia32",
            Some(0x28) => "arm",
            _ => return Vec::new(),
        };
        return vec![format!("linux-{arch}")];
    }
    // A 64-bit Mach-O, little-endian on disk (cf fa ed fe).
    if bytes.starts_with(&[0xcf, 0xfa, 0xed, 0xfe]) {
        return u32_le(bytes, 4).and_then(mach_arch).map(|arch| vec![format!("darwin-{arch}")]).unwrap_or_default();
    }
    // A universal Mach-O: big-endian slice count, then (cputype, subtype, offset, size, align) each.
    if u32_be(bytes, 0) == Some(0xcafe_babe) {
        let count = u32_be(bytes, 4).unwrap_or(0).min(8) as usize;
        let mut found: Vec<String> = (0..count)
            .filter_map(|i| u32_be(bytes, 8 + i * 20).and_then(mach_arch))
            .map(|arch| format!("darwin-{arch}"))
            .collect();
        found.sort();
        found.dedup();
        return found;
    }
    if bytes.starts_with(b"MZ") {
        let Some(pe) = u32_le(bytes, 0x3c).map(|at| at as usize) else { return Vec::new() };
        if bytes.get(pe..pe + 4) != Some(b"PE\0\0".as_slice()) {
            return Vec::new();
        }
        let arch = match u16_le(bytes, pe + 4) {
            Some(0x8664) => "x64",
            Some(0xaa64) => "arm64",
            Some(0x014c) => "ia32",
            _ => return Vec::new(),
        };
        return vec![format!("win32-{arch}")];
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn elf(machine: u16, symbol: &[u8]) -> Vec<u8> {
        let mut bytes = b"\x7fELF\x02\x01\x01".to_vec();
        bytes.resize(18, 0);
        bytes.extend(machine.to_le_bytes());
        bytes.extend(b"....");
        bytes.extend(symbol);
        bytes
    }

    #[test]
    fn each_header_names_its_system_and_each_symbol_its_abi() {
        let linux = read("build/Release/x.node", &elf(0x3e, b"\0node_register_module_v115\0")).unwrap();
        assert_eq!((linux.systems, linux.abi.as_str()), (vec!["linux-x64".to_string()], "node-115"));
        assert_eq!(read("a.node", &elf(0xb7, b"\0napi_register_module_v1\0")).unwrap().abi, "napi");

        let mut fat = 0xcafe_babe_u32.to_be_bytes().to_vec();
        fat.extend(2u32.to_be_bytes());
        for cpu in [0x0100_0007_u32, 0x0100_000c] {
            fat.extend(cpu.to_be_bytes());
            fat.extend([0u8; 16]);
        }
        assert_eq!(read("u.node", &fat).unwrap().systems, ["darwin-arm64", "darwin-x64"]);

        let mut pe = b"MZ".to_vec();
        pe.resize(0x3c, 0);
        pe.extend(0x40u32.to_le_bytes());
        pe.extend(b"PE\0\0");
        pe.extend(0x8664u16.to_le_bytes());
        assert_eq!(read("w.node", &pe).unwrap().systems, ["win32-x64"]);

        assert!(read("text.node", b"not a binary").is_none());
        assert_eq!(describe_abi("node-115"), "Node ABI 115, Node 20 only");
        assert_eq!(describe_abi("napi"), "Node-API (any Node)");
    }

    #[test]
    fn what_binaries_leave_out_is_named() {
        let linux = NativeBinary { path: "x.node".into(), systems: vec!["linux-x64".into()], abi: "node-115".into() };
        let (missing, tied) = missing(&[linux]);
        assert_eq!(missing, ["darwin-arm64", "darwin-x64", "linux-arm64", "win32-x64"]);
        assert!(tied);
    }
}
