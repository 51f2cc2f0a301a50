//! `--split-input-file`: cutting one buffer into independent chunks at a marker line, as
//! mlir-opt does.
//!
//! A chunk starts right after a marker (the rest of the marker's line is its first line) and
//! ends right before the next marker. Each chunk is parsed as its own buffer named
//! `within split at FILE:LINE offset ` where LINE is the line of the marker (1 for the first
//! chunk), so diagnostics read `within split at f.mlir:7 offset :3:5: error: ...` with
//! line:col relative to the chunk — byte-for-byte what mlir-opt-19 prints. Outputs of chunks
//! are joined with [`OUTPUT_SEPARATOR`].

/// The default marker.
pub const DEFAULT_MARKER: &str = "// -----";

/// Printed between the outputs of consecutive chunks.
pub const OUTPUT_SEPARATOR: &str = "// -----\n";

/// One chunk of a split buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    pub text: String,
    /// Line (1-based) of the original file on which the chunk starts.
    pub first_line: u32,
}

impl Chunk {
    /// The buffer name mlir-opt gives the chunk.
    pub fn buffer_name(&self, file: &str) -> String {
        format!("within split at {file}:{} offset ", self.first_line)
    }
}

/// Splits `text` at every occurrence of `marker` (mlir-opt's rule: the marker anywhere in a
/// line; a marker followed by more dashes is a near miss and does not split).
pub fn split_input(text: &str, marker: &str) -> Vec<Chunk> {
    if marker.is_empty() {
        return vec![Chunk { text: text.to_string(), first_line: 1 }];
    }
    let mut chunks = Vec::new();
    let mut start = 0usize;
    let mut search = 0usize;
    let mut start_line = 1u32;
    // Newlines before `counted`, advanced chunk by chunk (linear in the file, not quadratic).
    let (mut counted, mut newlines) = (0usize, 0u32);
    while let Some(pos) = text[search..].find(marker).map(|p| p + search) {
        let after = pos + marker.len();
        if text[after..].starts_with('-') {
            search = after;
            continue;
        }
        chunks.push(Chunk { text: text[start..pos].to_string(), first_line: start_line });
        newlines += text[counted..pos].bytes().filter(|&b| b == b'\n').count() as u32;
        counted = pos;
        start_line = 1 + newlines;
        start = after;
        search = after;
    }
    chunks.push(Chunk { text: text[start..].to_string(), first_line: start_line });
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_mlir_opt() {
        let text = "a\n// -----\nb\nc\n// -----\nd\n";
        let c = split_input(text, DEFAULT_MARKER);
        assert_eq!(c.len(), 3);
        assert_eq!(c[0], Chunk { text: "a\n".into(), first_line: 1 });
        assert_eq!(c[1], Chunk { text: "\nb\nc\n".into(), first_line: 2 });
        assert_eq!(c[2], Chunk { text: "\nd\n".into(), first_line: 5 });
        assert_eq!(c[2].buffer_name("f.mlir"), "within split at f.mlir:5 offset ");
    }

    #[test]
    fn near_miss_and_no_marker() {
        assert_eq!(split_input("x\n// ------\ny", DEFAULT_MARKER).len(), 1);
        assert_eq!(split_input("x", DEFAULT_MARKER), vec![Chunk { text: "x".into(), first_line: 1 }]);
    }
}
