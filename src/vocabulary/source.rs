//! Source files as the diagnostics see them: a display path, the text, and a line index so that byte
//! spans turn into `line:column` without keeping any parser state around.

use camino::{Utf8Path, Utf8PathBuf};
use serde::{Deserialize, Serialize};

/// A half-open byte range `[start, end)` into one source file's text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: u32, end: u32) -> Self {
        Self { start, end: end.max(start) }
    }
}

/// A resolved position, 1-based line and 1-based column counted in characters (what editors show).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Location {
    pub file: Utf8PathBuf,
    pub line: u32,
    pub column: u32,
    #[serde(skip)]
    pub span: Span,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// One file's text with its line starts.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// Path shown to users: relative to the bundle root where possible, `/`-separated.
    pub display_path: Utf8PathBuf,
    pub text: String,
    line_starts: Vec<u32>,
}

impl SourceFile {
    pub fn new(display_path: impl Into<Utf8PathBuf>, text: String) -> Self {
        let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i as u32 + 1)).collect();
        Self { display_path: display_path.into(), text, line_starts }
    }

    pub fn path(&self) -> &Utf8Path {
        &self.display_path
    }

    /// Resolves a span's start to a `file:line:col` location.
    pub fn locate(&self, span: Span) -> Location {
        let offset = span.start.min(self.text.len() as u32);
        let line_index = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let line_start = self.line_starts[line_index] as usize;
        let column = self.text[line_start..offset as usize].chars().count() as u32 + 1;
        Location { file: self.display_path.clone(), line: line_index as u32 + 1, column, span }
    }

    /// The text of the 1-based line `line`, without its line break.
    pub fn line_text(&self, line: u32) -> &str {
        let index = (line as usize).saturating_sub(1);
        let Some(&start) = self.line_starts.get(index) else { return "" };
        let end = self.line_starts.get(index + 1).map_or(self.text.len(), |&e| e as usize);
        self.text[start as usize..end].trim_end_matches(['\n', '\r'])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locates_lines_and_character_columns() {
        let file = SourceFile::new("a.ts", "ab\nçd e\n".to_string());
        let loc = file.locate(Span::new(3, 4));
        assert_eq!((loc.line, loc.column), (2, 1));
        // `ç` is two bytes but one column.
        let loc = file.locate(Span::new(6, 7));
        assert_eq!((loc.line, loc.column), (2, 3));
        assert_eq!(file.line_text(2), "çd e");
        assert_eq!(file.line_text(9), "");
    }
}
