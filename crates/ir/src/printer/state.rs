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
//!
//! Layer: the printer's core state, above its data files (`options.rs`, `names.rs`,
//! `aliases.rs`, `op_names.rs`, `text.rs`) and below the files that add printing methods.

use super::aliases::Aliases;
use super::names::Names;
use super::op_names::OpNameCache;
use super::options::Flags;
use super::text::push_u64;
use crate::attrs::Attr;
use crate::context::Context;
use crate::ir::{Ir, OpId};
use rustc_hash::FxHashMap;

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
    /// The number printed for each `distinct` attribute, in first-print order.
    pub distinct_ids: FxHashMap<Attr, u64>,
    /// The `dense_resource` blobs printed, in first-print order (their data is printed after
    /// the module).
    pub resource_refs: Vec<String>,
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
            distinct_ids: FxHashMap::default(),
            resource_refs: Vec::new(),
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
