//! The plugin icon: a PNG's size, read from its header, and whether the Claude plugin directory
//! would take it (a square PNG of 512 to 2048 pixels on each side, under 2 MB).

/// Width and height of a PNG, from its IHDR chunk; `None` when the bytes are not a PNG.
pub fn png_size(bytes: &[u8]) -> Option<(u32, u32, usize)> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if bytes.len() < 24 || &bytes[..8] != SIGNATURE || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let width = u32::from_be_bytes(bytes[16..20].try_into().ok()?);
    let height = u32::from_be_bytes(bytes[20..24].try_into().ok()?);
    Some((width, height, bytes.len()))
}

/// What is wrong with an icon's bytes for the Claude plugin directory: `Err` when they are not a PNG,
/// `Ok(Some(why))` when the directory would refuse its size, `Ok(None)` when it is fine.
pub fn judge(bytes: &[u8]) -> Result<Option<String>, ()> {
    png_size(bytes).map(directory_problem).ok_or(())
}

/// Why the plugin directory would refuse an icon of this size, if it would.
pub fn directory_problem((width, height, bytes): (u32, u32, usize)) -> Option<String> {
    if width != height {
        return Some(format!("it is {width}×{height} pixels, not square"));
    }
    if !(512..=2048).contains(&width) {
        return Some(format!("it is {width}×{height} pixels, outside 512 to 2048"));
    }
    if bytes >= 2 * 1024 * 1024 {
        return Some(format!("it is {bytes} bytes, not under 2 MB"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(width: u32, height: u32) -> Vec<u8> {
        let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        bytes.extend(width.to_be_bytes());
        bytes.extend(height.to_be_bytes());
        bytes
    }

    #[test]
    fn reads_the_size_and_judges_it() {
        assert_eq!(png_size(&header(512, 512)), Some((512, 512, 24)));
        assert_eq!(png_size(b"GIF89a not a png at all, really"), None);
        assert_eq!(directory_problem((512, 512, 24)), None);
        assert!(directory_problem((512, 256, 24)).unwrap().contains("not square"));
        assert!(directory_problem((64, 64, 24)).unwrap().contains("outside 512 to 2048"));
    }
}
