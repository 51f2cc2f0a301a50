//! Builtin attributes and locations as mlir-opt prints them.
//!
//! Highlights: signless `i1` integers print as `true`/`false` without a type; unsigned types
//! print unsigned values, everything else signed; an integer's `: i64` and a float's `: f64`
//! are elided only where MLIR allows it (array elements, memory spaces) and a float printed in
//! hex keeps its type; dictionaries print `key = value` with `key` quoted unless it is a bare
//! identifier and unit values reduced to the key; strings use LLVM's `\XX` escapes; dense
//! arrays print `array<i64: 1, 2>`; affine maps and integer sets are kept as text.
//!
//! Locations: `loc(...)` around `unknown`, `"file":line:col`, `"name"(child)` (no child when
//! it is unknown), `callsite(callee at caller)`, `fused<metadata>[a, b]`. Nested locations use
//! their `#locN` alias when one exists; a top-level location uses its alias only where MLIR
//! allows it (op locations, not block arguments).

use super::float::write_float;
use super::state::{Elision, Printer};
use super::text::{push_dialect_symbol, push_keyword_or_string, push_quoted, push_symbol};
use crate::attrs::{Attr, AttrKind, DenseArrayData};
use crate::types::{FloatKind, Signedness, Type, TypeKind};

impl Printer<'_> {
    /// Prints an attribute, using its alias when it has one.
    pub fn print_attr(&mut self, a: Attr, elision: Elision) {
        if let Some(alias) = self.aliases.attr_alias(a) {
            self.out.push_str(alias);
            return;
        }
        self.print_attr_impl(a, elision);
    }

    /// Prints an attribute's structure (never its own alias).
    pub fn print_attr_impl(&mut self, a: Attr, elision: Elision) {
        let ctx = self.ctx;
        match ctx.attr_kind(a) {
            AttrKind::Unit => self.push("unit"),
            AttrKind::Bool(b) => self.push(if *b { "true" } else { "false" }),
            AttrKind::Integer { value, ty } => {
                let (unsigned, is_bool) = match ctx.type_kind(*ty) {
                    TypeKind::Integer { width: 1, signedness: Signedness::Signless } => (false, true),
                    TypeKind::Integer { signedness: Signedness::Unsigned, .. } => (true, false),
                    _ => (false, false),
                };
                if is_bool {
                    self.push(if value.is_zero() { "false" } else { "true" });
                    return;
                }
                let text = if unsigned { value.to_string_unsigned() } else { value.to_string_signed() };
                self.push(&text);
                let is_i64 =
                    matches!(ctx.type_kind(*ty), TypeKind::Integer { width: 64, signedness: Signedness::Signless });
                if !(elision == Elision::May && is_i64) {
                    self.print_type_suffix(*ty, elision);
                }
            }
            AttrKind::Float { bits, ty } => {
                let kind = match ctx.type_kind(*ty) {
                    TypeKind::Float(k) => *k,
                    _ => FloatKind::F64,
                };
                let hex = write_float(&mut self.out, kind, *bits);
                if !(elision == Elision::May && kind == FloatKind::F64 && !hex) {
                    self.print_type_suffix(*ty, elision);
                }
            }
            AttrKind::String { value, ty } => {
                push_quoted(&mut self.out, value);
                if let Some(t) = ty {
                    self.print_type_suffix(*t, elision);
                }
            }
            AttrKind::Array(elems) => {
                self.push_char('[');
                for (i, &e) in elems.iter().enumerate() {
                    if i > 0 {
                        self.push(", ");
                    }
                    self.print_attr(e, Elision::May);
                }
                self.push_char(']');
            }
            AttrKind::Dictionary(entries) => {
                if entries.is_empty() {
                    self.push("{}");
                    return;
                }
                if let Some(text) = self.dict_cache.get(&a.as_u32()) {
                    self.out.push_str(text);
                    return;
                }
                let start = self.out.len();
                self.push_char('{');
                for (i, &(k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        self.push(", ");
                    }
                    self.print_named_attr(ctx.ident_str(k), v);
                }
                self.push_char('}');
                let text: Box<str> = self.out[start..].into();
                self.dict_cache.insert(a.as_u32(), text);
            }
            AttrKind::DenseElements { ty, data } => {
                self.print_dense_elements(*ty, data);
                self.print_type_suffix(*ty, elision);
            }
            AttrKind::DenseArray { elem, data } => self.print_dense_array(*elem, data),
            AttrKind::SymbolRef { root, nested } => {
                push_symbol(&mut self.out, ctx.ident_str(*root));
                for n in nested {
                    self.push("::");
                    push_symbol(&mut self.out, ctx.ident_str(*n));
                }
            }
            AttrKind::Type(t) => self.print_type(*t),
            AttrKind::AffineMap(text, _) => {
                self.push("affine_map<");
                self.push(text);
                self.push_char('>');
            }
            AttrKind::IntegerSet(text, _) => {
                self.push("affine_set<");
                self.push(text);
                self.push_char('>');
            }
            AttrKind::Sparse { ty, indices, values } => {
                self.push("sparse<");
                let (ik, vk) = (ctx.attr_kind(*indices), ctx.attr_kind(*values));
                if let (
                    AttrKind::DenseElements { ty: ity, data: idata },
                    AttrKind::DenseElements { ty: vty, data: vdata },
                ) = (ik, vk)
                {
                    let n: i64 = ctx.type_kind(*ity).shape().map(|s| s.iter().product()).unwrap_or(0);
                    if n != 0 {
                        self.print_dense_body(*ity, idata);
                        self.push(", ");
                        self.print_dense_body(*vty, vdata);
                    }
                }
                self.push_char('>');
                self.print_type_suffix(*ty, elision);
            }
            AttrKind::DenseResource { name, ty } => {
                if !self.resource_refs.iter().any(|r| **r == **name) {
                    self.resource_refs.push(name.to_string());
                }
                self.push("dense_resource<");
                self.push(name);
                self.push_char('>');
                self.print_type_suffix(*ty, elision);
            }
            AttrKind::Distinct { inner, .. } => {
                let next = self.distinct_ids.len() as u64;
                let n = *self.distinct_ids.entry(a).or_insert(next);
                self.push("distinct[");
                self.push_u64(n);
                self.push("]<");
                if !matches!(ctx.attr_kind(*inner), AttrKind::Unit) {
                    self.print_attr(*inner, Elision::Never);
                }
                self.push_char('>');
            }
            AttrKind::Strided { strides, offset } => {
                self.push("strided<[");
                for (i, &s) in strides.iter().enumerate() {
                    if i > 0 {
                        self.push(", ");
                    }
                    self.print_int_or_question(s);
                }
                self.push_char(']');
                if *offset != 0 {
                    self.push(", offset: ");
                    self.print_int_or_question(*offset);
                }
                self.push_char('>');
            }
            AttrKind::Opaque { dialect, body, pretty } => {
                push_dialect_symbol(&mut self.out, '#', dialect, body, *pretty)
            }
            AttrKind::Dialect(data) => self.print_dialect_symbol('#', data),
            AttrKind::TypedOpaque { dialect, body, pretty, ty } => {
                push_dialect_symbol(&mut self.out, '#', dialect, body, *pretty);
                self.print_type_suffix(*ty, elision);
            }
            AttrKind::UnknownLoc
            | AttrKind::FileLineColLoc { .. }
            | AttrKind::NameLoc { .. }
            | AttrKind::CallSiteLoc { .. }
            | AttrKind::FusedLoc { .. } => self.print_location(a, false),
        }
    }

    /// ` : type` unless elided (`Must`) or the type is `none`.
    /// The part of `dense<...>` between the angle brackets (the elements of a `sparse`).
    fn print_dense_body(&mut self, ty: Type, data: &crate::attrs::DenseData) {
        let start = self.out.len();
        self.print_dense_elements(ty, data);
        let text = self.out.split_off(start);
        let body = text.strip_prefix("dense<").and_then(|t| t.strip_suffix('>')).unwrap_or(&text);
        self.push(body);
    }

    fn print_type_suffix(&mut self, t: Type, elision: Elision) {
        if elision == Elision::Must || matches!(self.ctx.type_kind(t), TypeKind::None) {
            return;
        }
        self.push(" : ");
        self.print_type(t);
    }

    fn print_int_or_question(&mut self, v: i64) {
        if v == crate::types::DYNAMIC {
            self.push_char('?');
        } else {
            if v < 0 {
                self.push_char('-');
            }
            self.push_u64(v.unsigned_abs());
        }
    }

    /// `key = value`, or just `key` for a unit value.
    pub fn print_named_attr(&mut self, key: &str, v: Attr) {
        push_keyword_or_string(&mut self.out, key);
        if matches!(self.ctx.attr_kind(v), AttrKind::Unit) {
            return;
        }
        self.push(" = ");
        self.print_attr(v, Elision::Never);
    }

    /// ` {a = 1, b}` for the entries not named in `elided` (nothing when none remain);
    /// with `keyword`, ` attributes {...}`.
    pub fn print_attr_dict_filtered(&mut self, dict: Attr, elided: &[&str], keyword: bool) {
        let ctx = self.ctx;
        let entries = ctx.dict_entries(dict);
        let mut first = true;
        for &(k, v) in entries {
            let key = ctx.ident_str(k);
            if elided.contains(&key) {
                continue;
            }
            if first {
                self.push(if keyword { " attributes {" } else { " {" });
                first = false;
            } else {
                self.push(", ");
            }
            self.print_named_attr(key, v);
        }
        if !first {
            self.push_char('}');
        }
    }

    fn print_dense_array(&mut self, elem: Type, data: &DenseArrayData) {
        self.push("array<");
        self.print_type_impl(elem);
        let ctx = self.ctx;
        let elem_kind = ctx.type_kind(elem);
        let unsigned = matches!(elem_kind, TypeKind::Integer { signedness: Signedness::Unsigned, .. });
        match data {
            DenseArrayData::Int(values) => {
                let is_bool = matches!(elem_kind, TypeKind::Integer { width: 1, .. });
                for (i, &v) in values.iter().enumerate() {
                    self.push(if i == 0 { ": " } else { ", " });
                    if is_bool {
                        self.push(if v != 0 { "true" } else { "false" });
                    } else if unsigned {
                        self.push_u64(v as u64);
                    } else {
                        self.print_int_or_question_free(v);
                    }
                }
            }
            DenseArrayData::WideInt(values) => {
                for (i, v) in values.iter().enumerate() {
                    self.push(if i == 0 { ": " } else { ", " });
                    let text = if unsigned { v.to_string_unsigned() } else { v.to_string_signed() };
                    self.push(&text);
                }
            }
            DenseArrayData::Float(values) => {
                let values: Vec<u128> = values.iter().map(|&v| v as u128).collect();
                self.print_dense_array_floats(elem_kind, &values);
            }
            DenseArrayData::WideFloat(values) => self.print_dense_array_floats(elem_kind, values),
        }
        self.push_char('>');
    }

    /// `: a, b, ...` for the raw bits of a float dense array.
    fn print_dense_array_floats(&mut self, elem_kind: &TypeKind, values: &[u128]) {
        let kind = match elem_kind {
            TypeKind::Float(k) => *k,
            _ => FloatKind::F64,
        };
        for (i, &v) in values.iter().enumerate() {
            self.push(if i == 0 { ": " } else { ", " });
            write_float(&mut self.out, kind, v);
        }
    }

    fn print_int_or_question_free(&mut self, v: i64) {
        if v < 0 {
            self.push_char('-');
        }
        self.push_u64(v.unsigned_abs());
    }

    // ----- locations ------------------------------------------------------------------------

    /// `loc(...)`; with `allow_alias`, `loc(#locN)` when the location has an alias. In the
    /// pretty form (`--mlir-pretty-debuginfo`) just the location, never an alias at the top.
    pub fn print_location(&mut self, loc: Attr, allow_alias: bool) {
        if self.flags.pretty_debug_info {
            self.print_location_body(loc, true);
            return;
        }
        self.push("loc(");
        match self.aliases.attr_alias(loc) {
            Some(alias) if allow_alias => self.out.push_str(alias),
            _ => self.print_location_body(loc, true),
        }
        self.push_char(')');
    }

    fn print_location_body(&mut self, loc: Attr, top_level: bool) {
        if let (false, Some(alias)) = (top_level, self.aliases.attr_alias(loc)) {
            self.out.push_str(alias);
            return;
        }
        let ctx = self.ctx;
        let pretty = self.flags.pretty_debug_info;
        match ctx.attr_kind(loc) {
            AttrKind::UnknownLoc => self.push(if pretty { "[unknown]" } else { "unknown" }),
            AttrKind::FileLineColLoc { file, line, col } => {
                if pretty {
                    self.push(ctx.ident_str(*file));
                } else {
                    push_quoted(&mut self.out, ctx.ident_str(*file).as_bytes());
                }
                self.push_char(':');
                self.push_u64(*line as u64);
                self.push_char(':');
                self.push_u64(*col as u64);
            }
            AttrKind::NameLoc { name, child } => {
                push_quoted(&mut self.out, ctx.ident_str(*name).as_bytes());
                if let Some(c) = child.filter(|&c| !matches!(ctx.attr_kind(c), AttrKind::UnknownLoc)) {
                    self.push_char('(');
                    self.print_location_body(c, false);
                    self.push_char(')');
                }
            }
            AttrKind::CallSiteLoc { callee, caller } if pretty => {
                // `callee at caller` on one line only for a name called from a file position.
                self.print_location_body(*callee, false);
                let one_line = matches!(ctx.attr_kind(*callee), AttrKind::NameLoc { .. })
                    && matches!(ctx.attr_kind(*caller), AttrKind::FileLineColLoc { .. });
                self.push(if one_line { " at " } else { "\n at " });
                self.print_location_body(*caller, false);
            }
            AttrKind::CallSiteLoc { callee, caller } => {
                self.push("callsite(");
                self.print_location_body(*callee, false);
                self.push(" at ");
                self.print_location_body(*caller, false);
                self.push_char(')');
            }
            AttrKind::FusedLoc { locs, metadata } => {
                if !pretty {
                    self.push("fused");
                }
                if let Some(m) = metadata {
                    self.push_char('<');
                    self.print_attr(*m, Elision::Never);
                    self.push_char('>');
                }
                self.push_char('[');
                for (i, &l) in locs.iter().enumerate() {
                    if i > 0 {
                        self.push(", ");
                    }
                    self.print_location_body(l, false);
                }
                self.push_char(']');
            }
            // Not a location: print it as an attribute rather than fail.
            _ => self.print_attr(loc, Elision::Never),
        }
    }
}
