//! The parser of MLIR's textual format: builds operations into an [`Ir`] and interns types and
//! attributes into a [`Context`].
//!
//! Layout: [`lexer`] (tokens as byte ranges), this file (the [`Parser`] state, token helpers,
//! diagnostics, SSA and block scopes, the public entry points), `types` (type grammar), `attrs`
//! (attribute grammar, locations, dense literals, affine maps), `float` (float literal
//! conversion), `ops` (operations, regions, blocks, top level), `asm_impl` (the
//! [`OpAsmParser`](crate::asm::OpAsmParser) custom op hooks use), `dialect` (types and
//! attributes of registered dialects, through their hooks), `display` (types and
//! attributes in diagnostic messages).
//!
//! Behaviour follows mlir-opt-19 (messages and caret columns included): the first diagnostic
//! stops the parse and is returned. Forward references to values are allowed anywhere (the
//! verifier checks dominance); values defined in a region are visible in nested regions only.
//! Top-level `#alias = attr` / `!alias = type` definitions are supported (aliases must be
//! defined before use, except location aliases in trailing `loc(#name)`, which may be defined
//! later in the file, as mlir-opt prints them); `{-# ... #-}` file metadata fills the context's
//! resources (builtin blobs, external resources).
//!
//! Invariants: recursion depth is bounded by [`MAX_NESTING`] levels of regions, types and
//! attributes together; the parser never panics on any input; on error, `ir` may keep detached
//! entities of the partial parse (callers discard it).
//!
//! Layer: above the printer (`display` spells types and attributes in messages) and the
//! definitions. Inside, the grammar files add `Parser` methods and import this file's state
//! and `lexer`; this file imports none of them but `display`, `cache` and `lexer`.

mod affine;
mod asm_impl;
mod attrs;
mod cache;
mod dialect;
#[cfg(test)]
mod dialect_tests;
mod display;
mod float;
pub mod lexer;
mod ops;
#[cfg(test)]
mod tests;
mod types;

use crate::asm::ParseFailure;
use crate::attrs::{Attr, AttrKind, Ident};
use crate::context::Context;
use crate::diag::{Diagnostic, SourceFile};
use crate::ir::{BlockId, Ir, OpId, OpName, Value};
use crate::registry::OpDef;
use crate::types::Type;
use lexer::{Lexer, TokKind, Token};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::sync::Arc;

pub use display::{attr_to_string, type_to_string};

/// The deepest nesting of regions, types and attributes (together) the parser accepts.
pub const MAX_NESTING: usize = 512;

type PResult<T> = Result<T, ParseFailure>;

/// Parses a whole buffer into `ir`. Returns the top-level `builtin.module` op: the single
/// explicit `module` when the file holds exactly one top-level op which is a builtin.module,
/// otherwise a new implicit module wrapping all top-level ops (as mlir-opt does).
pub fn parse_source(ctx: &Context, ir: &mut Ir, src: &SourceFile) -> Result<OpId, Diagnostic> {
    parse_source_all(ctx, ir, src).map_err(|mut diags| diags.swap_remove(0))
}

/// Like [`parse_source`], but returns every diagnostic of a failed parse in the order
/// mlir-opt emits them (never empty on error). Most failures give one; some give several:
/// each undefined block of a region, each undeclared SSA value, and custom op parsers that
/// emit more than one error.
pub fn parse_source_all(ctx: &Context, ir: &mut Ir, src: &SourceFile) -> Result<OpId, Vec<Diagnostic>> {
    parse_source_with(ctx, ir, src, true)
}

/// [`parse_source_all`], or with `implicit_module == false` (mlir-opt's `--no-implicit-module`)
/// the single top-level op of the source, whatever it is: any other number of top-level ops is
/// the error "source must contain a single top-level operation, found: N" at `file:0:0`.
pub fn parse_source_with(
    ctx: &Context,
    ir: &mut Ir,
    src: &SourceFile,
    implicit_module: bool,
) -> Result<OpId, Vec<Diagnostic>> {
    *ctx.resources() = Default::default();
    let mut p = Parser::new(ctx, ir, src);
    match p.parse_top_level(implicit_module) {
        Ok(op) => Ok(op),
        Err(ParseFailure) => Err(p.take_diags()),
    }
}

/// Parses one type from a string (for pass options, tests, dialect code).
pub fn parse_type_str(ctx: &Context, text: &str) -> Result<Type, String> {
    parse_fragment(ctx, text, |p| p.parse_type())
}

/// Parses one attribute from a string (for pass options, tests, dialect code).
pub fn parse_attr_str(ctx: &Context, text: &str) -> Result<Attr, String> {
    parse_fragment(ctx, text, |p| p.parse_attribute(None))
}

fn parse_fragment<T>(ctx: &Context, text: &str, f: impl FnOnce(&mut Parser<'_>) -> PResult<T>) -> Result<T, String> {
    let file = SourceFile::new("<string>", Arc::from(text));
    let mut ir = Ir::new();
    let mut p = Parser::new(ctx, &mut ir, &file);
    let result = f(&mut p).and_then(|v| {
        if p.tok.kind == TokKind::Eof { Ok(v) } else { Err(p.error_here("unexpected trailing characters")) }
    });
    match result {
        Ok(v) => Ok(v),
        Err(_) => {
            let d = p.take_diag();
            let (_, line, col) = crate::diag::file_line_col(ctx, d.loc).unwrap_or_default();
            Err(format!("{line}:{col}: {}", d.message))
        }
    }
}

/// A hasher for short byte-string keys (SSA names, source slices): 8 bytes per step,
/// finished with a full-avalanche mix so that both hashbrown's bucket bits and tag bits vary.
#[derive(Default, Clone, Copy)]
pub(crate) struct BytesHasher(u64);

impl std::hash::Hasher for BytesHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0xf135_7aea_2e62_a9c5;
        let mut h = self.0;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
            h = (h.rotate_left(23) ^ w).wrapping_mul(K);
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut buf = [0u8; 8];
            buf[..rest.len()].copy_from_slice(rest);
            h = (h.rotate_left(23) ^ u64::from_le_bytes(buf) ^ ((rest.len() as u64) << 59)).wrapping_mul(K);
        }
        self.0 = h;
    }
    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.0 = (self.0 ^ n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    #[inline]
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

/// A map keyed by byte strings.
pub(crate) type BytesMap<'a, V> = std::collections::HashMap<&'a [u8], V, std::hash::BuildHasherDefault<BytesHasher>>;

/// One definition (or forward reference) of `%name#number`.
#[derive(Clone, Copy)]
struct ValueEntry {
    value: Option<Value>,
    /// Offset of the definition, or of the first use for a forward reference.
    offset: usize,
}

/// A named block of the region being parsed.
#[derive(Clone, Copy)]
struct BlockEntry {
    block: BlockId,
    offset: usize,
    defined: bool,
}

/// What a deferred `loc(#alias)` will be applied to.
struct DeferredLoc<'a> {
    name: &'a [u8],
    offset: usize,
    marker: Attr,
}

/// The state of one parse.
pub(crate) struct Parser<'a> {
    pub(crate) ctx: &'a Context,
    pub(crate) ir: &'a mut Ir,
    file: &'a SourceFile,
    src: &'a [u8],
    lex: Lexer<'a>,
    /// The current token (always lexed, as in MLIR).
    tok: Token,
    /// End offset of the last consumed token.
    prev_end: usize,
    /// The first error of the parse; internal parse errors after it are dropped.
    diag: Option<Diagnostic>,
    /// Errors reported after `diag` that mlir-opt also prints (see [`Parser::error_also`]).
    more_diags: Vec<Diagnostic>,
    depth: usize,
    file_ident: Ident,
    type_cache: cache::PrefixCache<Type>,
    attr_cache: cache::PrefixCache<Attr>,
    type_aliases: BytesMap<'a, Type>,
    attr_aliases: BytesMap<'a, Attr>,
    /// The attribute inside each `distinct[id]<...>` seen so far.
    distinct_defs: FxHashMap<u64, Attr>,
    values: BytesMap<'a, SmallVec<[ValueEntry; 1]>>,
    /// Placeholders not yet defined, with the offset of their first use.
    forward_refs: FxHashMap<Value, usize>,
    /// Names defined in each open region scope (erased when the region ends).
    scope_defs: Vec<Vec<&'a [u8]>>,
    /// Block names of each open region.
    block_scopes: Vec<BytesMap<'a, BlockEntry>>,
    deferred_locs: Vec<DeferredLoc<'a>>,
    /// `(offset, line, line start)` of the last location computed (offsets mostly grow).
    line_cursor: std::cell::Cell<(usize, u32, usize)>,
    /// Dialect prefix used for unprefixed custom op names (MLIR's default dialect stack).
    default_dialects: Vec<&'static str>,
    /// For each custom op being parsed: its full name and written result count.
    custom_ops: Vec<(String, usize, usize)>,
    /// Generic op names already resolved: spelling (with quotes) -> name info.
    op_names: BytesMap<'a, NameInfo>,
}

/// A resolved generic op name.
#[derive(Clone, Copy)]
struct NameInfo {
    name: OpName,
    def: Option<&'static OpDef>,
    /// The dialect of an unregistered name is registered.
    dialect_registered: bool,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(ctx: &'a Context, ir: &'a mut Ir, file: &'a SourceFile) -> Self {
        let src = file.text.as_bytes();
        let mut lex = Lexer::new(src);
        let tok = lex.next_token();
        let mut p = Parser {
            ctx,
            ir,
            file,
            src,
            lex,
            tok,
            prev_end: 0,
            diag: None,
            more_diags: Vec::new(),
            depth: 0,
            file_ident: ctx.ident(&file.name),
            type_cache: cache::PrefixCache::default(),
            attr_cache: cache::PrefixCache::default(),
            type_aliases: BytesMap::default(),
            attr_aliases: BytesMap::default(),
            distinct_defs: FxHashMap::default(),
            values: BytesMap::default(),
            forward_refs: FxHashMap::default(),
            scope_defs: vec![Vec::new()],
            block_scopes: Vec::new(),
            deferred_locs: Vec::new(),
            line_cursor: std::cell::Cell::new((0, 1, 0)),
            default_dialects: vec!["builtin"],
            custom_ops: Vec::new(),
            op_names: BytesMap::default(),
        };
        p.note_lex_error();
        p
    }

    fn take_diag(&mut self) -> Diagnostic {
        self.diag.take().unwrap_or_else(|| Diagnostic::error(self.ctx.unknown_loc(), "parse failed"))
    }

    /// The first error and those reported after it with [`Parser::error_also`].
    fn take_diags(&mut self) -> Vec<Diagnostic> {
        let mut all = vec![self.take_diag()];
        all.append(&mut self.more_diags);
        all
    }

    // ----- tokens -----------------------------------------------------------------------------

    /// The spelling of a token.
    #[inline]
    fn text(&self, t: Token) -> &'a [u8] {
        &self.src[t.start..t.end]
    }
    #[inline]
    fn tok_text(&self) -> &'a [u8] {
        self.text(self.tok)
    }
    /// The spelling of a token as a string (source slices are valid UTF-8 at token bounds).
    fn str_of(&self, b: &[u8]) -> String {
        String::from_utf8_lossy(b).into_owned()
    }

    /// Consumes the current token and lexes the next.
    #[inline]
    fn advance(&mut self) {
        self.prev_end = self.tok.end;
        self.tok = self.lex.next_token();
        if self.tok.kind == TokKind::Error {
            self.note_lex_error();
        }
    }

    /// Consumes the first `len` bytes of the current token and re-lexes from there.
    fn advance_prefix(&mut self, len: usize) {
        let pos = self.tok.start + len;
        self.reset_to(pos);
    }

    /// Makes the token at byte `pos` current (the previous token ends at `pos`).
    fn reset_to(&mut self, pos: usize) {
        self.prev_end = pos;
        self.lex.reset(pos);
        self.tok = self.lex.next_token();
        if self.tok.kind == TokKind::Error {
            self.note_lex_error();
        }
    }

    fn note_lex_error(&mut self) {
        if self.tok.kind == TokKind::Error {
            let (start, msg) = (self.tok.start, self.tok.error);
            self.error_at(start, msg);
        }
    }

    #[inline]
    fn is(&self, k: TokKind) -> bool {
        self.tok.kind == k
    }

    /// True if the current token is the bare identifier `kw`.
    #[inline]
    fn is_kw(&self, kw: &str) -> bool {
        self.tok.kind == TokKind::BareIdent && self.tok_text() == kw.as_bytes()
    }

    #[inline]
    fn consume_if(&mut self, k: TokKind) -> bool {
        if self.tok.kind == k {
            self.advance();
            true
        } else {
            false
        }
    }

    fn consume_kw(&mut self, kw: &str) -> bool {
        if self.is_kw(kw) {
            self.advance();
            true
        } else {
            false
        }
    }

    /// Consumes a token of kind `k` or reports `msg` as MLIR's `parseToken` does.
    fn expect(&mut self, k: TokKind, msg: &str) -> PResult<()> {
        if self.consume_if(k) { Ok(()) } else { Err(self.wrong_token(msg)) }
    }

    // ----- diagnostics ------------------------------------------------------------------------

    /// The `FileLineColLoc` of a byte offset.
    pub(crate) fn loc_at(&self, offset: usize) -> Attr {
        let offset = offset.min(self.src.len());
        let (line, col) = self.line_col(offset);
        let line = line + self.file.first_line.saturating_sub(1);
        self.ctx.intern_attr(AttrKind::FileLineColLoc { file: self.file_ident, line, col })
    }

    /// (line, col) of an offset in this buffer; scans forward from the previous answer.
    fn line_col(&self, offset: usize) -> (u32, u32) {
        let (pos, mut line, mut start) = self.line_cursor.get();
        if offset < pos {
            return self.file.line_col(offset);
        }
        let seg = &self.src[pos..offset];
        let newlines = seg.iter().filter(|&&b| b == b'\n').count();
        if newlines > 0 {
            line += newlines as u32;
            start = pos + seg.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        }
        self.line_cursor.set((offset, line, start));
        (line, (offset - start) as u32 + 1)
    }

    /// Records an error at `offset` (only the first error of a parse is kept).
    pub(crate) fn error_at(&mut self, offset: usize, msg: impl Into<String>) -> ParseFailure {
        if self.diag.is_none() {
            let loc = self.loc_at(offset);
            self.diag = Some(Diagnostic::error(loc, msg));
        }
        ParseFailure
    }

    /// Records an error at `offset` even when an error was already recorded: for the places
    /// where mlir-opt reports several errors (each undefined block, each undeclared value, a
    /// custom parser's explicit errors). Suppressed while the current token is a lexer error,
    /// which the lexer has already reported (as MLIR abandons such diagnostics).
    pub(crate) fn error_also(&mut self, offset: usize, msg: impl Into<String>) -> ParseFailure {
        if self.diag.is_none() {
            return self.error_at(offset, msg);
        }
        if self.tok.kind != TokKind::Error {
            let loc = self.loc_at(offset);
            self.more_diags.push(Diagnostic::error(loc, msg));
        }
        ParseFailure
    }

    /// An error with a note at another offset.
    fn error_with_note(&mut self, offset: usize, msg: impl Into<String>, note_at: usize, note: &str) -> ParseFailure {
        if self.diag.is_none() {
            let loc = self.loc_at(offset);
            let note_loc = self.loc_at(note_at);
            self.diag = Some(Diagnostic::error(loc, msg).with_note(note_loc, note));
        }
        ParseFailure
    }

    /// An error at the current token.
    pub(crate) fn error_here(&mut self, msg: impl Into<String>) -> ParseFailure {
        let mut at = self.tok.start;
        if self.tok.kind == TokKind::Eof {
            at = at.saturating_sub(1);
        }
        self.error_at(at, msg)
    }

    /// MLIR's `emitWrongTokenError`: reports right after the last non-blank, non-comment
    /// character before the current token (so "expected X" lands at the end of the
    /// previous line rather than at the start of the next).
    fn wrong_token(&mut self, msg: &str) -> ParseFailure {
        let mut loc = self.tok.start;
        if self.tok.kind == TokKind::Eof {
            loc = loc.saturating_sub(1);
        }
        let original = loc;
        let mut end = loc.min(self.src.len());
        loop {
            while end > 0 && matches!(self.src[end - 1], b' ' | b'\t') {
                end -= 1;
            }
            if end == 0 {
                return self.error_at(original, msg);
            }
            let c = self.src[end - 1];
            if c != b'\n' && c != b'\r' {
                return self.error_at(end, msg);
            }
            end -= 1;
            // A `//` on the previous line starts a comment: report before it.
            let line_start = self.src[..end].iter().rposition(|&b| b == b'\n' || b == b'\r').map_or(0, |i| i);
            let line = &self.src[line_start..end];
            if let Some(i) = line.windows(2).position(|w| w == b"//") {
                end = line_start + i;
            }
        }
    }

    /// Enters one nesting level (region, type or attribute).
    fn enter_nesting(&mut self) -> PResult<()> {
        if self.depth >= MAX_NESTING {
            return Err(self.error_here(format!("nesting too deep (more than {MAX_NESTING} levels)")));
        }
        self.depth += 1;
        Ok(())
    }
    fn leave_nesting(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    // ----- SSA values -------------------------------------------------------------------------

    /// The source slice holding the name of an operand written at `offset` (`%x`).
    fn name_at(&self, offset: usize, name: &str) -> Option<&'a [u8]> {
        let s = self.src.get(offset..offset.checked_add(name.len())?)?;
        (s == name.as_bytes()).then_some(s)
    }

    /// MLIR's `resolveSSAUse`: the value `%name#number` of type `ty`, or a new placeholder.
    fn resolve_value(&mut self, name: &'a [u8], number: u32, offset: usize, ty: Type) -> PResult<Value> {
        let n = number as usize;
        let entries = self.values.entry(name).or_default();
        if let Some(e) = entries.get(n).copied()
            && let Some(v) = e.value
        {
            let vt = self.ir.value_type(v);
            if vt == ty {
                return Ok(v);
            }
            let msg = format!(
                "use of value '{}' expects different type than prior uses: '{}' vs '{}'",
                String::from_utf8_lossy(name),
                type_to_string(self.ctx, ty),
                type_to_string(self.ctx, vt)
            );
            return Err(self.error_with_note(offset, msg, e.offset, "prior use here"));
        }
        if entries.len() <= n {
            if n > 1_000_000 {
                return Err(self.error_at(offset, "reference to invalid result number"));
            }
            entries.resize(n + 1, ValueEntry { value: None, offset: 0 });
        }
        if let Some(v0) = entries[0].value
            && !self.forward_refs.contains_key(&v0)
        {
            return Err(self.error_at(offset, "reference to invalid result number"));
        }
        let v = self.ir.create_placeholder(ty);
        let entries = self.values.get_mut(name).expect("entry created above");
        entries[n] = ValueEntry { value: Some(v), offset };
        self.forward_refs.insert(v, offset);
        Ok(v)
    }

    /// MLIR's `addDefinition`: binds `%name#number` to `value`, resolving a forward reference.
    fn define_value(&mut self, name: &'a [u8], number: u32, offset: usize, value: Value) -> PResult<()> {
        let n = number as usize;
        let entries = self.values.entry(name).or_default();
        if entries.len() <= n {
            entries.resize(n + 1, ValueEntry { value: None, offset: 0 });
        }
        let existing = entries[n];
        if let Some(old) = existing.value {
            if !self.forward_refs.contains_key(&old) {
                let msg = format!("redefinition of SSA value '{}'", String::from_utf8_lossy(name));
                return Err(self.error_with_note(offset, msg, existing.offset, "previously defined here"));
            }
            let (ot, nt) = (self.ir.value_type(old), self.ir.value_type(value));
            if ot != nt {
                let msg = format!(
                    "definition of SSA value '{}#{}' has type '{}'",
                    String::from_utf8_lossy(name),
                    number,
                    type_to_string(self.ctx, nt)
                );
                let note = format!("previously used here with type '{}'", type_to_string(self.ctx, ot));
                return Err(self.error_with_note(offset, msg, existing.offset, &note));
            }
            self.ir.replace_all_uses(old, value);
            self.forward_refs.remove(&old);
            self.ir.erase_value(old);
        }
        let entries = self.values.get_mut(name).expect("entry created above");
        // Record each name once per scope: on its first real definition.
        let first_definition = entries.iter().all(|e| e.value.is_none_or(|v| self.forward_refs.contains_key(&v)));
        entries[n] = ValueEntry { value: Some(value), offset };
        if first_definition && let Some(scope) = self.scope_defs.last_mut() {
            scope.push(name);
        }
        Ok(())
    }

    /// The offset of an existing definition or forward reference of `%name#number`.
    fn reference_offset(&self, name: &[u8], number: u32) -> Option<usize> {
        let e = self.values.get(name)?.get(number as usize)?;
        e.value.map(|_| e.offset)
    }

    fn push_scope(&mut self) {
        self.scope_defs.push(Vec::new());
        self.block_scopes.push(BytesMap::default());
    }

    /// Closes a region scope: its names become invisible; undefined blocks are errors.
    fn pop_scope(&mut self) -> PResult<()> {
        if let Some(names) = self.scope_defs.pop() {
            if names.len() == self.values.len() && self.forward_refs.is_empty() {
                // Every visible name was defined in this scope (the common flat case).
                self.values.clear();
            } else {
                for n in names {
                    self.values.remove(n);
                }
            }
        }
        let blocks = self.block_scopes.pop().unwrap_or_default();
        let mut undefined: Vec<usize> = blocks.values().filter(|b| !b.defined).map(|b| b.offset).collect();
        if undefined.is_empty() {
            return Ok(());
        }
        undefined.sort_unstable();
        for off in undefined {
            self.error_also(off, "reference to an undefined block");
        }
        Err(ParseFailure)
    }
}
