//! Source buffers: [`SourceFile`] (a buffer's text, name and line table) and [`SourceMgr`]
//! (the buffers that locations may point into), so that rendering can show the source line.
//!
//! Layer: the lowest of the core (with `diagnostic.rs`): imports nothing of this crate.

use std::sync::Arc;

/// A source buffer.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: Arc<str>,
    /// Line number (1-based) of the buffer's first line in the file it came from
    /// (`--split-input-file` chunks start later in their file).
    pub first_line: u32,
    /// Byte offsets where each line starts.
    line_starts: Vec<usize>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: Arc<str>) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i + 1));
        SourceFile { name: name.into(), text, first_line: 1, line_starts }
    }

    /// (line, col), both 1-based, of a byte offset, relative to this buffer.
    pub fn line_col(&self, offset: usize) -> (u32, u32) {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        (line as u32 + 1, (offset - self.line_starts[line]) as u32 + 1)
    }

    /// The text of a 1-based line of this buffer, without its newline.
    pub fn line_text(&self, line: u32) -> Option<&str> {
        let i = line.checked_sub(1)? as usize;
        let start = *self.line_starts.get(i)?;
        let end = self.line_starts.get(i + 1).map(|e| e - 1).unwrap_or(self.text.len());
        let s = self.text.get(start..end.max(start))?;
        Some(s.strip_suffix('\r').unwrap_or(s))
    }

    /// The line shown for a diagnostic at 1-based `(line, col)` of this buffer and the caret's
    /// 0-based byte column in it, following LLVM's `SourceMgr`: the column must not run past
    /// the end of the line (one past its last character is allowed); the shown line is
    /// delimited by `\n` or `\r`. `None` when the position is not in the buffer.
    pub fn snippet(&self, line: u32, col: u32) -> Option<(&str, usize)> {
        let start = *self.line_starts.get(line.checked_sub(1)? as usize)?;
        let bytes = self.text.as_bytes();
        let offset = col.saturating_sub(1) as usize;
        let at = start.checked_add(offset).filter(|&p| p <= bytes.len())?;
        if bytes[start..at].iter().any(|&b| b == b'\n' || b == b'\r') {
            return None;
        }
        let is_break = |b: &u8| *b == b'\n' || *b == b'\r';
        let line_start = bytes[..at].iter().rposition(is_break).map_or(0, |i| i + 1);
        let line_end = bytes[at..].iter().position(is_break).map_or(bytes.len(), |i| at + i);
        // Lines split at ASCII bytes, so both ends are character boundaries.
        let text = self.text.get(line_start..line_end)?;
        Some((text, at - line_start))
    }
}

/// The buffers that locations may point into.
#[derive(Default, Clone, Debug)]
pub struct SourceMgr {
    files: Vec<SourceFile>,
}

impl SourceMgr {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn add(&mut self, file: SourceFile) {
        self.files.push(file);
    }
    pub fn find(&self, name: &str) -> Option<&SourceFile> {
        self.files.iter().rev().find(|f| f.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippet_rejects_columns_beyond_the_line() {
        let f = SourceFile::new("f", Arc::from("ab\ncd"));
        assert_eq!(f.snippet(1, 3), Some(("ab", 2)));
        assert_eq!(f.snippet(1, 4), None);
        assert_eq!(f.snippet(2, 3), Some(("cd", 2)));
        assert_eq!(f.snippet(2, 4), None);
        assert_eq!(f.snippet(3, 1), None);
    }

    #[test]
    fn carriage_return_ends_the_shown_line() {
        let f = SourceFile::new("f", Arc::from("ab\rcd\n"));
        assert_eq!(f.snippet(1, 1), Some(("ab", 0)));
        assert_eq!(f.snippet(1, 4), None);
    }
}
