//! Builtin types as mlir-opt prints them: `i32`, `si8`, `index`, `f8E4M3FN`, `complex<f32>`,
//! `tuple<i1, i2>`, `(i32) -> (i32, i32)`, `tensor<4x?xf32, #enc>`, `tensor<*xf32>`,
//! `vector<4x[8]xf32>`, `memref<4xf32, strided<[1], offset: 2>, 1>`, `!dialect.body`.
//!
//! Rules worth knowing: a function type's results are parenthesized unless there is exactly
//! one that is not itself a function type; an identity affine-map layout and a zero integer
//! memory space are not printed; memory spaces elide an `i64` type (`memref<4xf32, 3>`) but
//! tensor encodings do not (`tensor<2xi8, 42 : i64>`).
//!
//! The text of each type is cached per print (types are uniqued, so the cache key is the
//! type number); aliases (`!tuple`) are looked up first.

use super::state::{Elision, Printer};
use super::text::push_dialect_symbol;
use crate::attrs::{Attr, AttrKind};
use crate::types::{DYNAMIC, Signedness, Type, TypeKind};

impl Printer<'_> {
    /// Prints a type, using its alias when it has one.
    pub fn print_type(&mut self, t: Type) {
        if let Some(alias) = self.aliases.type_alias(t) {
            self.out.push_str(alias);
            return;
        }
        if let Some(Some(text)) = self.type_cache.get(t.as_u32() as usize) {
            self.out.push_str(text);
            return;
        }
        let start = self.out.len();
        self.print_type_impl(t);
        let text: Box<str> = self.out[start..].into();
        self.cache_type(t.as_u32(), text);
    }

    /// Prints a type's structure (never its own alias; nested aliases are used).
    pub fn print_type_impl(&mut self, t: Type) {
        let ctx = self.ctx;
        match ctx.type_kind(t) {
            TypeKind::Integer { width, signedness } => {
                self.push(match signedness {
                    Signedness::Signless => "i",
                    Signedness::Signed => "si",
                    Signedness::Unsigned => "ui",
                });
                self.push_u64(*width as u64);
            }
            TypeKind::Index => self.push("index"),
            TypeKind::Float(k) => self.push(k.keyword()),
            TypeKind::None => self.push("none"),
            TypeKind::Complex(e) => {
                self.push("complex<");
                self.print_type(*e);
                self.push_char('>');
            }
            TypeKind::Tuple(ts) => {
                self.push("tuple<");
                self.print_type_list(ts);
                self.push_char('>');
            }
            TypeKind::Function { inputs, results } => {
                self.push_char('(');
                self.print_type_list(inputs);
                self.push(") -> ");
                self.print_result_types(results);
            }
            TypeKind::RankedTensor { shape, elem, encoding } => {
                self.push("tensor<");
                self.print_shape(shape, None);
                self.print_type(*elem);
                if let Some(enc) = encoding {
                    self.push(", ");
                    self.print_attr(*enc, Elision::Never);
                }
                self.push_char('>');
            }
            TypeKind::UnrankedTensor { elem } => {
                self.push("tensor<*x");
                self.print_type(*elem);
                self.push_char('>');
            }
            TypeKind::Vector { shape, scalable, elem } => {
                self.push("vector<");
                self.print_shape(shape, Some(scalable));
                self.print_type(*elem);
                self.push_char('>');
            }
            TypeKind::MemRef { shape, elem, layout, memory_space } => {
                self.push("memref<");
                self.print_shape(shape, None);
                self.print_type(*elem);
                if let Some(l) = layout.filter(|&l| !self.is_identity_layout(l)) {
                    self.push(", ");
                    self.print_attr(l, Elision::May);
                }
                self.print_memory_space(*memory_space);
                self.push_char('>');
            }
            TypeKind::UnrankedMemRef { elem, memory_space } => {
                self.push("memref<*x");
                self.print_type(*elem);
                self.print_memory_space(*memory_space);
                self.push_char('>');
            }
            TypeKind::Opaque { dialect, body, pretty } => {
                push_dialect_symbol(&mut self.out, '!', dialect, body, *pretty);
            }
            TypeKind::Dialect(data) => self.print_dialect_symbol('!', data),
        }
    }

    /// `a, b, c`.
    pub fn print_type_list(&mut self, ts: &[Type]) {
        for (i, &t) in ts.iter().enumerate() {
            if i > 0 {
                self.push(", ");
            }
            self.print_type(t);
        }
    }

    /// A result list after `->`: bare for one non-function type, else parenthesized.
    pub fn print_result_types(&mut self, ts: &[Type]) {
        let bare = ts.len() == 1 && !matches!(self.ctx.type_kind(ts[0]), TypeKind::Function { .. });
        if bare {
            self.print_type(ts[0]);
        } else {
            self.push_char('(');
            self.print_type_list(ts);
            self.push_char(')');
        }
    }

    /// `4x?x[8]x` (each dimension followed by `x`).
    fn print_shape(&mut self, shape: &[i64], scalable: Option<&[bool]>) {
        for (i, &d) in shape.iter().enumerate() {
            let is_scalable = scalable.and_then(|s| s.get(i)).copied().unwrap_or(false);
            if is_scalable {
                self.push_char('[');
            }
            if d == DYNAMIC {
                self.push_char('?');
            } else if d < 0 {
                self.push_char('-');
                self.push_u64(d.unsigned_abs());
            } else {
                self.push_u64(d as u64);
            }
            if is_scalable {
                self.push_char(']');
            }
            self.push_char('x');
        }
    }

    fn print_memory_space(&mut self, space: Option<Attr>) {
        if let Some(m) = space.filter(|&m| !self.is_default_memory_space(m)) {
            self.push(", ");
            self.print_attr(m, Elision::May);
        }
    }

    /// An integer memory space of value 0 is the default space (MLIR drops it).
    pub fn is_default_memory_space(&self, m: Attr) -> bool {
        matches!(self.ctx.attr_kind(m), AttrKind::Integer { value, .. } if value.is_zero())
    }

    /// An affine-map layout `(d0, ..., dn) -> (d0, ..., dn)` is the identity (not printed).
    pub fn is_identity_layout(&self, l: Attr) -> bool {
        match self.ctx.attr_kind(l) {
            AttrKind::AffineMap(text, _) => is_identity_map_text(text),
            _ => false,
        }
    }
}

/// Whether `text` (the inside of `affine_map<...>`) is an identity map with no symbols.
pub(crate) fn is_identity_map_text(text: &str) -> bool {
    let Some((dims, results)) = text.split_once(" -> ") else {
        return false;
    };
    let (Some(dims), Some(results)) = (
        dims.strip_prefix('(').and_then(|d| d.strip_suffix(')')),
        results.strip_prefix('(').and_then(|r| r.strip_suffix(')')),
    ) else {
        return false;
    };
    if dims != results {
        return false;
    }
    if dims.is_empty() {
        return true;
    }
    dims.split(", ").enumerate().all(|(i, d)| d.strip_prefix('d').and_then(|n| n.parse::<usize>().ok()) == Some(i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_maps() {
        assert!(is_identity_map_text("(d0, d1) -> (d0, d1)"));
        assert!(is_identity_map_text("() -> ()"));
        assert!(!is_identity_map_text("(d0, d1) -> (d1, d0)"));
        assert!(!is_identity_map_text("(d0)[s0] -> (d0)"));
    }
}
