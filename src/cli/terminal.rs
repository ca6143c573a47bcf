//! What the command line prints is safe for a terminal: text from the input (a plugin name, a file
//! path, a line of a handler quoted under a diagnostic) may hold control characters, and an `ESC ]`
//! or `ESC [` sequence would set the terminal's title, clear its screen or worse. Every byte stream
//! the binary prints goes through [`Escaped`], which writes C0 controls (other than newline and
//! tab), DEL and C1 controls as `\u00XX`: visible, and in JSON output the very escape JSON itself
//! uses, so a JSON document stays the same document.

use std::io::Write;

/// A writer that escapes control characters (see the module docs).
pub struct Escaped<W: Write> {
    inner: W,
    /// A `0xC2` that ended the previous write: the first byte of a C1 control, or of another
    /// character.
    pending_c2: bool,
}

impl<W: Write> Escaped<W> {
    pub fn new(inner: W) -> Self {
        Escaped { inner, pending_c2: false }
    }
}

fn escape(byte: u8) -> [u8; 6] {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    [b'\\', b'u', b'0', b'0', HEX[usize::from(byte >> 4)], HEX[usize::from(byte & 0xf)]]
}

impl<W: Write> Write for Escaped<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut out = Vec::with_capacity(buf.len() + 8);
        for &byte in buf {
            if self.pending_c2 {
                self.pending_c2 = false;
                if (0x80..=0x9f).contains(&byte) {
                    out.extend_from_slice(&escape(byte));
                    continue;
                }
                out.push(0xc2);
            }
            match byte {
                b'\n' | b'\t' => out.push(byte),
                0x00..=0x1f | 0x7f => out.extend_from_slice(&escape(byte)),
                0xc2 => self.pending_c2 = true,
                _ => out.push(byte),
            }
        }
        self.inner.write_all(&out)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if std::mem::take(&mut self.pending_c2) {
            self.inner.write_all(&[0xc2])?;
        }
        self.inner.flush()
    }
}

impl<W: Write> Drop for Escaped<W> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escaped(text: &str) -> String {
        let mut out = Vec::new();
        {
            let mut writer = Escaped::new(&mut out);
            // Byte by byte, so a C1 control split across writes is still seen.
            for byte in text.as_bytes() {
                writer.write_all(std::slice::from_ref(byte)).unwrap();
            }
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn control_characters_are_shown_as_escapes_and_text_is_kept() {
        assert_eq!(escaped("name \u{1b}]0;owned\u{7}\u{1b}[2J"), "name \\u001b]0;owned\\u0007\\u001b[2J");
        assert_eq!(escaped("a\tb\nc\r\u{7f}\u{9b}2J é ü"), "a\tb\nc\\u000d\\u007f\\u009b2J é ü");
        // In a JSON string the escape means the same character: the document is unchanged.
        let json = serde_json::to_string("x\u{9b}y").unwrap();
        let back: String = serde_json::from_str(&escaped(&json)).unwrap();
        assert_eq!(back, "x\u{9b}y");
    }
}
