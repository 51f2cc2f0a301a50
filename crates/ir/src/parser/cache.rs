//! Memo of parsed types and attributes by source text, so that a type or attribute spelled
//! the same way many times (`tensor<128x64xbf16>`, `{mesh = [0, 1]}`) is parsed once.
//!
//! An entry records where a successful parse started and how many bytes it consumed. A lookup
//! at another position hashes the next 8 bytes, and hits when the same bytes follow and the
//! byte after them cannot extend the last token (so the lexer would have stopped there too).
//! The grammar of every cached construct never looks past its last token, and aliases never
//! change once defined, so equal text always parses to the same value.

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// Shortest spelling worth caching.
const MIN_LEN: usize = 8;
/// Candidates kept per 8-byte prefix.
const MAX_CANDIDATES: usize = 8;

/// Cached parses sharing a prefix: `(start offset, length, value)`.
type Candidates<V> = SmallVec<[(u32, u32, V); 2]>;

pub(super) struct PrefixCache<V> {
    map: FxHashMap<u64, Candidates<V>>,
}

impl<V> Default for PrefixCache<V> {
    fn default() -> Self {
        PrefixCache { map: FxHashMap::default() }
    }
}

/// The first 8 bytes at `pos` (every cached text is at least that long).
fn key(src: &[u8], pos: usize) -> u64 {
    let mut buf = [0u8; 8];
    let end = (pos + 8).min(src.len());
    if pos < end {
        buf[..end - pos].copy_from_slice(&src[pos..end]);
    }
    u64::from_le_bytes(buf)
}

fn is_ident_like(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'$' | b'-')
}

/// True if the token ending at `end` cannot continue into `src[end]`.
fn boundary_ok(src: &[u8], end: usize) -> bool {
    let last = src[end - 1];
    let next = src.get(end).copied().unwrap_or(b' ');
    !is_ident_like(last) || !(is_ident_like(next) || next == b'<')
}

impl<V: Copy> PrefixCache<V> {
    /// The value parsed from the same text as at `pos`, and the end of that text.
    #[inline]
    pub(super) fn lookup(&self, src: &[u8], pos: usize) -> Option<(usize, V)> {
        if self.map.is_empty() {
            return None;
        }
        let cands = self.map.get(&key(src, pos))?;
        for &(off, len, v) in cands {
            let (off, len) = (off as usize, len as usize);
            let end = pos + len;
            if end <= src.len() && src[pos..end] == src[off..off + len] && boundary_ok(src, end) {
                return Some((end, v));
            }
        }
        None
    }

    /// Remembers that `src[pos..end]` parsed to `v`.
    pub(super) fn insert(&mut self, src: &[u8], pos: usize, end: usize, v: V) {
        if end < pos + MIN_LEN || end > src.len() || end > u32::MAX as usize || !boundary_ok(src, end) {
            return;
        }
        let cands = self.map.entry(key(src, pos)).or_default();
        if cands.len() < MAX_CANDIDATES {
            cands.push((pos as u32, (end - pos) as u32, v));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hits_only_on_same_text_and_safe_boundary() {
        let src = b"tensor<4xf32> tensor<4xf32>) tensor<4xf32>x i32abcdefghij i32abcdefghijk";
        let mut c = PrefixCache::default();
        c.insert(src, 0, 13, 7u32);
        assert_eq!(c.lookup(src, 14), Some((27, 7)));
        assert_eq!(c.lookup(src, 29), Some((42, 7)));
        c.insert(src, 44, 57, 9u32);
        assert_eq!(c.lookup(src, 58), None, "identifier continues past the cached text");
    }
}
