//! Dense elements attributes: `dense<1>`, `dense<[[1, 2], [3, 4]]>`, `dense<(1,2)>`,
//! `dense<"0x0100...">`, `dense<["a", "b"]>`, `dense<>`, `dense_resource<__elided__>`.
//!
//! Rules observed on mlir-opt-19:
//! - a value list whose elements are all equal prints as a splat (also one element, and a hex
//!   buffer holding exactly one element for a larger shape);
//! - a non-splat list of more than 100 elements (`--mlir-print-elementsattrs-with-hex-if-larger`)
//!   prints as hex of MLIR's raw buffer: each
//!   element in `ceil(width / 8)` little-endian bytes (`index` in 8), complex numbers as two
//!   such values, and `i1` elements packed 8 per byte, least significant bit first;
//! - otherwise the list nests brackets by the shape; complex elements print as `(re,im)`
//!   with no space; `i1` elements (of any signedness) as `true`/`false`; unsigned element
//!   types unsigned, others signed;
//! - with an elision limit, a non-splat of more elements than the limit prints as
//!   `dense_resource<__elided__>`.
//!
//! Internally every int/float/complex payload is normalized to a flat byte buffer with a
//! fixed stride per element (`i1` as one byte per element), which makes splat detection,
//! hex output and element printing one code path for value lists and hex input.

use super::float::write_float;
use super::state::Printer;
use super::text::push_quoted;
use crate::apint::ApInt;
use crate::attrs::{Attr, AttrKind, DenseData};
use crate::types::{FloatKind, Signedness, Type, TypeKind};

/// A scalar element type of a dense attribute.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Scalar {
    Int { width: u32, unsigned: bool },
    Float(FloatKind),
}

impl Scalar {
    fn bytes(self) -> usize {
        match self {
            Scalar::Int { width: 1, .. } => 1,
            Scalar::Int { width, .. } => (width as usize).div_ceil(8).max(1),
            Scalar::Float(k) => (k.width() as usize).div_ceil(8),
        }
    }
}

/// The element layout of a dense attribute's buffer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum ElemKind {
    Scalar(Scalar),
    Complex(Scalar),
    /// Strings (any other element type).
    Str,
}

impl ElemKind {
    fn stride(self) -> usize {
        match self {
            ElemKind::Scalar(s) => s.bytes(),
            ElemKind::Complex(s) => 2 * s.bytes(),
            ElemKind::Str => 0,
        }
    }
    fn is_i1(self) -> bool {
        matches!(self, ElemKind::Scalar(Scalar::Int { width: 1, .. }))
    }
}

/// Normalized payload: one element (splat) or `count` elements, `stride` bytes each.
enum Payload {
    Splat(Vec<u8>),
    List(Vec<u8>),
}

impl Printer<'_> {
    fn scalar_of(&self, t: Type) -> Option<Scalar> {
        match self.ctx.type_kind(t) {
            TypeKind::Integer { width, signedness } => {
                Some(Scalar::Int { width: *width, unsigned: *signedness == Signedness::Unsigned })
            }
            TypeKind::Index => Some(Scalar::Int { width: 64, unsigned: false }),
            TypeKind::Float(k) => Some(Scalar::Float(*k)),
            _ => None,
        }
    }

    fn elem_kind(&self, elem: Type) -> ElemKind {
        if let Some(s) = self.scalar_of(elem) {
            return ElemKind::Scalar(s);
        }
        match self.ctx.type_kind(elem) {
            TypeKind::Complex(inner) => self.scalar_of(*inner).map(ElemKind::Complex).unwrap_or(ElemKind::Str),
            _ => ElemKind::Str,
        }
    }

    /// Prints `dense<...>` (or the elided form) for a shaped type `ty`; the caller adds the
    /// `: type` suffix.
    pub fn print_dense_elements(&mut self, ty: Type, data: &DenseData) {
        let ctx = self.ctx;
        let (shape, elem): (&[i64], Option<Type>) = match ctx.type_kind(ty) {
            TypeKind::RankedTensor { shape, elem, .. } | TypeKind::Vector { shape, elem, .. } => (shape, Some(*elem)),
            other => (&[], other.element_type()),
        };
        let count = shape.iter().try_fold(1usize, |acc, &d| usize::try_from(d).ok().and_then(|d| acc.checked_mul(d)));
        let count = count.unwrap_or(0);
        let kind = elem.map(|e| self.elem_kind(e)).unwrap_or(ElemKind::Str);
        if kind == ElemKind::Str {
            self.print_dense_strings(shape, count, data);
            return;
        }
        let payload = self.normalize(kind, count, data);
        match payload {
            Payload::Splat(bytes) => {
                self.push("dense<");
                self.print_element(kind, &bytes);
                self.push_char('>');
            }
            Payload::List(bytes) => {
                let stride = kind.stride();
                let n = bytes.len().checked_div(stride).unwrap_or(0);
                if self.flags.elide_limit.is_some_and(|limit| n > limit) {
                    self.push("dense_resource<__elided__>");
                    return;
                }
                self.push("dense<");
                // MLIR: hex unless the limit is -1, when there are more elements than it.
                let limit = self.flags.hex_limit;
                if limit != -1 && limit < n as i64 {
                    self.print_hex_buffer(kind, &bytes);
                } else {
                    self.print_nested(shape, n, |p, i| p.print_element(kind, &bytes[i * stride..(i + 1) * stride]));
                }
                self.push_char('>');
            }
        }
    }

    /// Converts any form of payload to flat bytes, detecting splats.
    fn normalize(&self, kind: ElemKind, count: usize, data: &DenseData) -> Payload {
        let stride = kind.stride();
        match data {
            DenseData::Splat(a) => Payload::Splat(self.element_bytes(kind, *a)),
            DenseData::Elements(elems) => {
                if !elems.is_empty() && elems.iter().all(|&e| e == elems[0]) {
                    return Payload::Splat(self.element_bytes(kind, elems[0]));
                }
                let mut bytes = Vec::with_capacity(elems.len() * stride);
                for &e in elems {
                    bytes.extend(self.element_bytes(kind, e));
                }
                Payload::List(bytes)
            }
            DenseData::Hex(text) => {
                let raw = decode_hex(text);
                let bytes = if kind.is_i1() {
                    if raw.len() == 1 && (raw[0] == 0 || raw[0] == 0xFF) {
                        return Payload::Splat(vec![raw[0] & 1]);
                    }
                    (0..count).map(|i| raw.get(i / 8).map(|b| (b >> (i % 8)) & 1).unwrap_or(0)).collect()
                } else {
                    raw
                };
                if stride == 0 || bytes.len() == stride {
                    return Payload::Splat(bytes);
                }
                let first = &bytes[..stride.min(bytes.len())];
                if bytes.chunks(stride).all(|c| c == first) {
                    return Payload::Splat(first.to_vec());
                }
                Payload::List(bytes)
            }
        }
    }

    /// The buffer bytes of one element attribute.
    fn element_bytes(&self, kind: ElemKind, a: Attr) -> Vec<u8> {
        match kind {
            ElemKind::Scalar(s) => self.scalar_bytes(s, a),
            ElemKind::Complex(s) => match self.ctx.attr_kind(a) {
                AttrKind::Array(parts) if parts.len() == 2 => {
                    let mut b = self.scalar_bytes(s, parts[0]);
                    b.extend(self.scalar_bytes(s, parts[1]));
                    b
                }
                _ => vec![0; 2 * s.bytes()],
            },
            ElemKind::Str => Vec::new(),
        }
    }

    fn scalar_bytes(&self, s: Scalar, a: Attr) -> Vec<u8> {
        let n = s.bytes();
        match (s, self.ctx.attr_kind(a)) {
            (Scalar::Int { width: 1, .. }, AttrKind::Integer { value, .. }) => {
                vec![!value.is_zero() as u8]
            }
            (_, AttrKind::Bool(b)) => {
                let mut v = vec![0; n];
                v[0] = *b as u8;
                v
            }
            (_, AttrKind::Integer { value, .. }) => value.to_le_bytes(n),
            (_, AttrKind::Float { bits, .. }) => bits.to_le_bytes()[..n.min(16)].to_vec(),
            _ => vec![0; n],
        }
    }

    fn print_element(&mut self, kind: ElemKind, bytes: &[u8]) {
        match kind {
            ElemKind::Scalar(s) => self.print_scalar(s, bytes),
            ElemKind::Complex(s) => {
                let half = s.bytes();
                self.push_char('(');
                self.print_scalar(s, &bytes[..half.min(bytes.len())]);
                self.push_char(',');
                self.print_scalar(s, bytes.get(half..).unwrap_or(&[]));
                self.push_char(')');
            }
            ElemKind::Str => {}
        }
    }

    fn print_scalar(&mut self, s: Scalar, bytes: &[u8]) {
        match s {
            Scalar::Int { width: 1, .. } => {
                self.push(if bytes.first().copied().unwrap_or(0) & 1 == 1 { "true" } else { "false" })
            }
            Scalar::Int { width, unsigned } => {
                let v = ApInt::from_le_bytes(width, bytes);
                let text = if unsigned { v.to_string_unsigned() } else { v.to_string_signed() };
                self.push(&text);
            }
            Scalar::Float(k) => {
                let mut raw = [0u8; 16];
                let n = bytes.len().min(16);
                raw[..n].copy_from_slice(&bytes[..n]);
                write_float(&mut self.out, k, u128::from_le_bytes(raw));
            }
        }
    }

    /// `"0x..."`: MLIR's raw buffer in upper-case hex (`i1` packed 8 per byte).
    fn print_hex_buffer(&mut self, kind: ElemKind, bytes: &[u8]) {
        const HEX: &[u8; 16] = b"0123456789ABCDEF";
        let packed;
        let raw: &[u8] = if kind.is_i1() {
            let mut p = vec![0u8; bytes.len().div_ceil(8)];
            for (i, &b) in bytes.iter().enumerate() {
                p[i / 8] |= (b & 1) << (i % 8);
            }
            packed = p;
            &packed
        } else {
            bytes
        };
        self.push("\"0x");
        self.out.reserve(raw.len() * 2 + 1);
        for &b in raw {
            self.out.push(HEX[(b >> 4) as usize] as char);
            self.out.push(HEX[(b & 15) as usize] as char);
        }
        self.push_char('"');
    }

    /// Prints `n` elements nested in brackets by `shape` (row-major).
    fn print_nested(&mut self, shape: &[i64], n: usize, mut elem: impl FnMut(&mut Self, usize)) {
        if n == 0 {
            return;
        }
        let rank = shape.len().max(1);
        let dims: Vec<usize> =
            if shape.is_empty() { vec![n] } else { shape.iter().map(|&d| d.max(1) as usize).collect() };
        let mut counter = vec![0usize; rank];
        let mut open = 0usize;
        for idx in 0..n {
            if idx != 0 {
                self.push(", ");
            }
            while open < rank {
                self.push_char('[');
                open += 1;
            }
            elem(self, idx);
            // Bump the mixed-radix counter, closing a bracket per rolled-over digit.
            counter[rank - 1] += 1;
            for i in (1..rank).rev() {
                if counter[i] >= dims[i] {
                    counter[i] = 0;
                    counter[i - 1] += 1;
                    open -= 1;
                    self.push_char(']');
                }
            }
        }
        while open > 0 {
            self.push_char(']');
            open -= 1;
        }
    }

    fn print_dense_strings(&mut self, shape: &[i64], count: usize, data: &DenseData) {
        let ctx = self.ctx;
        let text = |a: Attr| -> &[u8] {
            match ctx.attr_kind(a) {
                AttrKind::String { value, .. } => value,
                _ => b"",
            }
        };
        let elems: Vec<Attr> = match data {
            DenseData::Splat(a) => vec![*a],
            DenseData::Elements(v) => v.clone(),
            DenseData::Hex(_) => Vec::new(),
        };
        let splat = matches!(data, DenseData::Splat(_)) || (!elems.is_empty() && elems.iter().all(|&e| e == elems[0]));
        if !splat && self.flags.elide_limit.is_some_and(|limit| elems.len() > limit) {
            self.push("dense_resource<__elided__>");
            return;
        }
        self.push("dense<");
        if splat {
            push_quoted(&mut self.out, text(elems[0]));
        } else {
            let _ = count;
            self.print_nested(shape, elems.len(), |p, i| push_quoted(&mut p.out, text(elems[i])));
        }
        self.push_char('>');
    }
}

/// Bytes of a hex string (`0x` prefix optional); odd trailing digits and non-hex characters
/// are ignored.
fn decode_hex(text: &str) -> Vec<u8> {
    let t = text.trim_matches('"');
    let t = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")).unwrap_or(t);
    let digits: Vec<u8> = t.bytes().filter_map(|c| (c as char).to_digit(16).map(|d| d as u8)).collect();
    digits.chunks_exact(2).map(|p| (p[0] << 4) | p[1]).collect()
}
