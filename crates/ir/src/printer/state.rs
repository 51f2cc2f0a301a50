//! The printer's state: the output buffer, the flags of one print, SSA names, aliases, the
//! default-dialect stack, and small caches. Every other printer file adds methods to
//! [`Printer`].
//!
//! A print runs in up to two passes over the same op tree, like mlir-opt's:
//! 1. a dry run (`collecting == true`) that only visits types and attributes in printing
//!    order, so that aliases (`#map`, `#loc3`, `!tuple`) get MLIR's numbers;
//! 2. the real print into `out`.
//!
//! Invariant: in a dry run nothing is appended to `out`.

use super::PrintOptions;
use super::aliases::Aliases;
use super::names::Names;
use crate::context::Context;
use crate::ir::{Ir, OpId, OpName};
use crate::registry::OpDef;
use rustc_hash::FxHashMap;

/// The flags of one print (a subset of mlir-opt's `OpPrintingFlags`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Flags {
    pub generic: bool,
    pub debug_info: bool,
    /// Print non-splat dense elements with more elements than this as `dense_resource<__elided__>`.
    pub elide_limit: Option<usize>,
}

impl Flags {
    pub fn from_options(o: &PrintOptions) -> Flags {
        Flags { generic: o.generic, debug_info: o.debug_info, elide_limit: o.elide_elements_attrs_if_larger }
    }
}

/// How a typed attribute's `: type` suffix is treated (MLIR's `AttrTypeElision`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Elision {
    /// Always print the type (attribute dictionaries, properties).
    Never,
    /// Elide the default types: `i64` integers, `f64` floats (array elements, memory spaces).
    May,
    /// Never print the type (`print_attribute_without_type`).
    Must,
}

pub(crate) struct Printer<'a> {
    pub ctx: &'a Context,
    pub ir: &'a Ir,
    pub flags: Flags,
    pub out: String,
    /// Indentation of the op being printed, in spaces.
    pub indent: usize,
    pub names: Names,
    pub aliases: Aliases,
    /// True during the alias dry run.
    pub collecting: bool,
    /// Dialect prefixes custom op names may drop, one per enclosing region ("" for none).
    pub default_dialects: Vec<&'static str>,
    /// The ops whose custom printers are running (innermost last).
    pub op_stack: Vec<OpId>,
    /// Definitions and quoted spellings of op names.
    pub op_names: OpNameCache,
    /// Printed text of each type, by type number.
    pub type_cache: Vec<Option<Box<str>>>,
    /// Printed text of non-empty dictionary attributes, by attribute number.
    pub dict_cache: FxHashMap<u32, Box<str>>,
    /// Where finished text goes when streaming ([`super::print_module_to`]); `None` keeps
    /// everything in `out`.
    pub sink: Option<&'a mut dyn std::io::Write>,
    /// The first write error of the sink (printing stops writing after it).
    pub sink_error: Option<std::io::Error>,
}

impl<'a> Printer<'a> {
    pub fn new(ctx: &'a Context, ir: &'a Ir, flags: Flags) -> Self {
        Printer {
            ctx,
            ir,
            flags,
            out: String::new(),
            indent: 0,
            names: Names::default(),
            aliases: Aliases::default(),
            collecting: false,
            default_dialects: vec!["builtin"],
            op_stack: Vec::new(),
            op_names: OpNameCache::default(),
            type_cache: Vec::new(),
            dict_cache: FxHashMap::default(),
            sink: None,
            sink_error: None,
        }
    }

    /// Bytes buffered before a streaming printer hands them to its sink.
    const FLUSH_THRESHOLD: usize = 1 << 16;

    /// Between two ops: hands the buffered text to the sink once enough has accumulated, so
    /// printing a huge module needs no second copy of the file in memory.
    #[inline]
    pub fn maybe_flush(&mut self) {
        if self.out.len() >= Self::FLUSH_THRESHOLD && !self.collecting {
            self.flush_to_sink();
        }
    }

    /// Hands everything buffered to the sink (no-op without a sink).
    pub fn flush_to_sink(&mut self) {
        let Some(sink) = self.sink.as_mut() else { return };
        if self.sink_error.is_none()
            && let Err(e) = sink.write_all(self.out.as_bytes())
        {
            self.sink_error = Some(e);
        }
        self.out.clear();
    }

    #[inline]
    pub fn push(&mut self, s: &str) {
        self.out.push_str(s);
    }

    #[inline]
    pub fn push_char(&mut self, c: char) {
        self.out.push(c);
    }

    /// Appends a decimal number without going through `fmt`.
    #[inline]
    pub fn push_u64(&mut self, n: u64) {
        push_u64(&mut self.out, n);
    }

    pub fn push_indent(&mut self) {
        const SPACES: &str = "                                                                ";
        let mut n = self.indent;
        while n > 0 {
            let k = n.min(SPACES.len());
            self.out.push_str(&SPACES[..k]);
            n -= k;
        }
    }

    pub fn cache_type(&mut self, id: u32, text: Box<str>) {
        let i = id as usize;
        if self.type_cache.len() <= i {
            self.type_cache.resize(i + 1, None);
        }
        self.type_cache[i] = Some(text);
    }
}

/// Per op name (dense by `OpName` number): its registered definition and its quoted, escaped
/// spelling for the generic form, looked up once per print.
#[derive(Default)]
pub(crate) struct OpNameCache {
    entries: Vec<Option<(Option<&'static OpDef>, Box<str>)>>,
}

impl OpNameCache {
    fn entry(&mut self, ctx: &Context, name: OpName) -> &(Option<&'static OpDef>, Box<str>) {
        let i = name.0 as usize;
        if self.entries.len() <= i {
            self.entries.resize(i + 1, None);
        }
        self.entries[i].get_or_insert_with(|| {
            let mut quoted = String::new();
            push_quoted(&mut quoted, ctx.op_name_str(name).as_bytes());
            (ctx.op_def(name), quoted.into())
        })
    }

    pub fn def(&mut self, ctx: &Context, name: OpName) -> Option<&'static OpDef> {
        self.entry(ctx, name).0
    }

    pub fn quoted(&mut self, ctx: &Context, name: OpName) -> &str {
        &self.entry(ctx, name).1
    }
}

/// Appends the decimal digits of `n`.
pub(crate) fn push_u64(out: &mut String, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &buf[i..] {
        out.push(d as char);
    }
}

/// MLIR's bare identifier test for attribute names and symbol names:
/// `[a-zA-Z_][a-zA-Z0-9_$.]*`.
pub(crate) fn is_bare_identifier(s: &str) -> bool {
    let b = s.as_bytes();
    match b.first() {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {}
        _ => return false,
    }
    b[1..].iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.')
}

/// Appends `bytes` in quotes with LLVM's escaping: printable ASCII verbatim except `"` and
/// `\`; `\` doubled; everything else (and `"`) as `\XX` in upper-case hex.
pub(crate) fn push_quoted(out: &mut String, bytes: &[u8]) {
    out.push('"');
    push_escaped(out, bytes);
    out.push('"');
}

pub(crate) fn push_escaped(out: &mut String, bytes: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &c in bytes {
        if c == b'\\' {
            out.push_str("\\\\");
        } else if (0x20..0x7F).contains(&c) && c != b'"' {
            out.push(c as char);
        } else {
            out.push('\\');
            out.push(HEX[(c >> 4) as usize] as char);
            out.push(HEX[(c & 15) as usize] as char);
        }
    }
}

/// A name as a bare identifier when possible, else quoted and escaped.
pub(crate) fn push_keyword_or_string(out: &mut String, s: &str) {
    if is_bare_identifier(s) {
        out.push_str(s);
    } else {
        push_quoted(out, s.as_bytes());
    }
}

/// `@name`, quoted when not a bare identifier (`@"quoted name"`).
pub(crate) fn push_symbol(out: &mut String, s: &str) {
    if s.is_empty() {
        out.push_str("@<<INVALID EMPTY SYMBOL>>");
        return;
    }
    out.push('@');
    push_keyword_or_string(out, s);
}

/// A dialect attribute or type we keep as text: `#dialect.body` in the pretty form, else
/// `#dialect<body>`. The parser decides `pretty` with MLIR's rule ([`is_simple_dialect_body`]
/// of the symbol data) and may append a ` : type` suffix to a pretty body.
pub(crate) fn push_dialect_symbol(out: &mut String, prefix: char, dialect: &str, body: &str, pretty: bool) {
    out.push(prefix);
    out.push_str(dialect);
    if pretty {
        out.push('.');
        out.push_str(body);
    } else {
        out.push('<');
        out.push_str(body);
        out.push('>');
    }
}

/// MLIR's test for the pretty dialect-symbol form: an identifier (letters, digits, `.`, `_`,
/// starting with a letter), optionally followed by one `<...>` group.
pub fn is_simple_dialect_body(body: &str) -> bool {
    let b = body.as_bytes();
    match b.first() {
        Some(c) if c.is_ascii_alphabetic() => {}
        _ => return false,
    }
    let rest = body.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '.' || c == '_');
    rest.is_empty() || (rest.starts_with('<') && rest.ends_with('>'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_like_llvm() {
        let mut s = String::new();
        push_quoted(&mut s, "a\"b\\c\n\u{e9}\x7f".as_bytes());
        assert_eq!(s, r#""a\22b\\c\0A\C3\A9\7F""#);
    }

    #[test]
    fn keywords_and_symbols() {
        let mut s = String::new();
        push_keyword_or_string(&mut s, "a.b$c");
        s.push(' ');
        push_keyword_or_string(&mut s, "1a");
        s.push(' ');
        push_symbol(&mut s, "with-dash");
        assert_eq!(s, r#"a.b$c "1a" @"with-dash""#);
    }

    #[test]
    fn dialect_symbols() {
        assert!(is_simple_dialect_body("abc"));
        assert!(is_simple_dialect_body("a.b<1>"));
        assert!(!is_simple_dialect_body("\"x y\""));
        assert!(!is_simple_dialect_body("9x"));
        let mut s = String::new();
        push_dialect_symbol(&mut s, '#', "fz", "typed<1> : i32", true);
        push_dialect_symbol(&mut s, '!', "fz", "\"x y\"", false);
        assert_eq!(s, "#fz.typed<1> : i32!fz<\"x y\">");
    }

    #[test]
    fn numbers() {
        let mut s = String::new();
        push_u64(&mut s, 0);
        push_u64(&mut s, 18446744073709551615);
        assert_eq!(s, "018446744073709551615");
    }
}
