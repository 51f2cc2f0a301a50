//! Types and attributes as text inside diagnostic messages (`'i64' vs 'i32'`). This is a
//! compact printer in mlir-opt's syntax for the messages the parser emits; the full printer
//! (aliases, elision, custom forms) lives in `printer`.

use crate::attrs::{Attr, AttrKind, DenseArrayData, DenseData};
use crate::context::Context;
use crate::types::{Signedness, Type, TypeKind, DYNAMIC};
use std::fmt::Write as _;

/// A type in MLIR syntax.
pub fn type_to_string(ctx: &Context, t: Type) -> String {
    let mut s = String::new();
    write_type(ctx, t, &mut s, 0);
    s
}

/// An attribute in MLIR syntax (integers and floats with their `: type`).
pub fn attr_to_string(ctx: &Context, a: Attr) -> String {
    let mut s = String::new();
    write_attr(ctx, a, &mut s, 0);
    s
}

const MAX_DEPTH: usize = 600;

fn write_dims(shape: &[i64], scalable: Option<&[bool]>, out: &mut String) {
    for (i, &d) in shape.iter().enumerate() {
        let sc = scalable.is_some_and(|s| s.get(i).copied().unwrap_or(false));
        if sc {
            out.push('[');
        }
        if d == DYNAMIC {
            out.push('?');
        } else {
            let _ = write!(out, "{d}");
        }
        if sc {
            out.push(']');
        }
        out.push('x');
    }
}

fn write_type_list(ctx: &Context, ts: &[Type], out: &mut String, depth: usize) {
    for (i, &t) in ts.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_type(ctx, t, out, depth + 1);
    }
}

fn write_type(ctx: &Context, t: Type, out: &mut String, depth: usize) {
    if depth > MAX_DEPTH {
        out.push_str("...");
        return;
    }
    match ctx.type_kind(t) {
        TypeKind::Integer { width, signedness } => {
            let p = match signedness {
                Signedness::Signless => "i",
                Signedness::Signed => "si",
                Signedness::Unsigned => "ui",
            };
            let _ = write!(out, "{p}{width}");
        }
        TypeKind::Index => out.push_str("index"),
        TypeKind::Float(k) => out.push_str(k.keyword()),
        TypeKind::None => out.push_str("none"),
        TypeKind::Complex(e) => {
            out.push_str("complex<");
            write_type(ctx, *e, out, depth + 1);
            out.push('>');
        }
        TypeKind::Tuple(ts) => {
            out.push_str("tuple<");
            write_type_list(ctx, ts, out, depth);
            out.push('>');
        }
        TypeKind::Function { inputs, results } => {
            out.push('(');
            write_type_list(ctx, inputs, out, depth);
            out.push_str(") -> ");
            let single = results.len() == 1 && !matches!(ctx.type_kind(results[0]), TypeKind::Function { .. });
            if single {
                write_type(ctx, results[0], out, depth + 1);
            } else {
                out.push('(');
                write_type_list(ctx, results, out, depth);
                out.push(')');
            }
        }
        TypeKind::RankedTensor { shape, elem, encoding } => {
            out.push_str("tensor<");
            write_dims(shape, None, out);
            write_type(ctx, *elem, out, depth + 1);
            if let Some(e) = encoding {
                out.push_str(", ");
                write_attr(ctx, *e, out, depth + 1);
            }
            out.push('>');
        }
        TypeKind::UnrankedTensor { elem } => {
            out.push_str("tensor<*x");
            write_type(ctx, *elem, out, depth + 1);
            out.push('>');
        }
        TypeKind::Vector { shape, scalable, elem } => {
            out.push_str("vector<");
            write_dims(shape, Some(scalable), out);
            write_type(ctx, *elem, out, depth + 1);
            out.push('>');
        }
        TypeKind::MemRef { shape, elem, layout, memory_space } => {
            out.push_str("memref<");
            write_dims(shape, None, out);
            write_type(ctx, *elem, out, depth + 1);
            for a in [layout, memory_space].into_iter().flatten() {
                out.push_str(", ");
                write_attr(ctx, *a, out, depth + 1);
            }
            out.push('>');
        }
        TypeKind::UnrankedMemRef { elem, memory_space } => {
            out.push_str("memref<*x");
            write_type(ctx, *elem, out, depth + 1);
            if let Some(a) = memory_space {
                out.push_str(", ");
                write_attr(ctx, *a, out, depth + 1);
            }
            out.push('>');
        }
        TypeKind::Opaque { dialect, body, pretty } => {
            let _ = if *pretty { write!(out, "!{dialect}.{body}") } else { write!(out, "!{dialect}<{body}>") };
        }
    }
}

fn write_escaped(bytes: &[u8], out: &mut String) {
    out.push('"');
    for &b in bytes {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\0A"),
            b'\t' => out.push_str("\\09"),
            0x20..=0x7E => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:02X}");
            }
        }
    }
    out.push('"');
}

fn is_i64(ctx: &Context, t: Type) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Integer { width: 64, signedness: Signedness::Signless })
}

fn write_attr(ctx: &Context, a: Attr, out: &mut String, depth: usize) {
    if depth > MAX_DEPTH {
        out.push_str("...");
        return;
    }
    match ctx.attr_kind(a) {
        AttrKind::Unit => out.push_str("unit"),
        AttrKind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        AttrKind::Integer { value, ty } => {
            let unsigned = matches!(ctx.type_kind(*ty), TypeKind::Integer { signedness: Signedness::Unsigned, .. });
            out.push_str(&if unsigned { value.to_string_unsigned() } else { value.to_string_signed() });
            if !is_i64(ctx, *ty) {
                out.push_str(" : ");
                write_type(ctx, *ty, out, depth + 1);
            }
        }
        AttrKind::Float { bits, ty } => {
            match ctx.type_kind(*ty) {
                TypeKind::Float(crate::types::FloatKind::F64) => {
                    let _ = write!(out, "{:e}", f64::from_bits(*bits as u64));
                }
                TypeKind::Float(crate::types::FloatKind::F32) => {
                    let _ = write!(out, "{:e}", f32::from_bits(*bits as u32));
                }
                _ => {
                    let _ = write!(out, "0x{bits:X}");
                }
            }
            out.push_str(" : ");
            write_type(ctx, *ty, out, depth + 1);
        }
        AttrKind::String { value, ty } => {
            write_escaped(value, out);
            if let Some(t) = ty {
                out.push_str(" : ");
                write_type(ctx, *t, out, depth + 1);
            }
        }
        AttrKind::Array(elems) => {
            out.push('[');
            for (i, &e) in elems.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_attr(ctx, e, out, depth + 1);
            }
            out.push(']');
        }
        AttrKind::Dictionary(entries) => {
            out.push('{');
            for (i, (k, v)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(ctx.ident_str(*k));
                if !matches!(ctx.attr_kind(*v), AttrKind::Unit) {
                    out.push_str(" = ");
                    write_attr(ctx, *v, out, depth + 1);
                }
            }
            out.push('}');
        }
        AttrKind::DenseElements { ty, data } => {
            out.push_str("dense<");
            match data {
                DenseData::Splat(s) => write_attr(ctx, *s, out, depth + 1),
                DenseData::Elements(es) => {
                    out.push('[');
                    for (i, &e) in es.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        write_attr(ctx, e, out, depth + 1);
                    }
                    out.push(']');
                }
                DenseData::Hex(h) => {
                    let _ = write!(out, "\"0x{h}\"");
                }
            }
            out.push_str("> : ");
            write_type(ctx, *ty, out, depth + 1);
        }
        AttrKind::DenseArray { elem, data } => {
            out.push_str("array<");
            write_type(ctx, *elem, out, depth + 1);
            let items: Vec<String> = match data {
                DenseArrayData::Int(v) => v.iter().map(|x| x.to_string()).collect(),
                DenseArrayData::Float(v) => v.iter().map(|x| format!("0x{x:X}")).collect(),
                DenseArrayData::WideInt(v) => v.iter().map(|x| x.to_string_signed()).collect(),
                DenseArrayData::WideFloat(v) => v.iter().map(|x| format!("0x{x:X}")).collect(),
            };
            if !items.is_empty() {
                out.push_str(": ");
                out.push_str(&items.join(", "));
            }
            out.push('>');
        }
        AttrKind::SymbolRef { root, nested } => {
            let _ = write!(out, "@{}", ctx.ident_str(*root));
            for n in nested {
                let _ = write!(out, "::@{}", ctx.ident_str(*n));
            }
        }
        AttrKind::Type(t) => write_type(ctx, *t, out, depth + 1),
        AttrKind::AffineMap(s) => {
            let _ = write!(out, "affine_map<{s}>");
        }
        AttrKind::IntegerSet(s) => {
            let _ = write!(out, "affine_set<{s}>");
        }
        AttrKind::Strided { strides, offset } => {
            let f = |d: i64| if d == DYNAMIC { "?".to_string() } else { d.to_string() };
            let _ = write!(out, "strided<[{}]", strides.iter().map(|&d| f(d)).collect::<Vec<_>>().join(", "));
            if *offset != 0 {
                let _ = write!(out, ", offset: {}", f(*offset));
            }
            out.push('>');
        }
        AttrKind::Opaque { dialect, body, pretty } => {
            let _ = if *pretty { write!(out, "#{dialect}.{body}") } else { write!(out, "#{dialect}<{body}>") };
        }
        AttrKind::TypedOpaque { dialect, body, pretty, ty } => {
            let _ = if *pretty { write!(out, "#{dialect}.{body}") } else { write!(out, "#{dialect}<{body}>") };
            out.push_str(" : ");
            write_type(ctx, *ty, out, depth + 1);
        }
        AttrKind::UnknownLoc
        | AttrKind::FileLineColLoc { .. }
        | AttrKind::NameLoc { .. }
        | AttrKind::CallSiteLoc { .. }
        | AttrKind::FusedLoc { .. } => {
            out.push_str("loc(");
            write_loc(ctx, a, out, depth + 1);
            out.push(')');
        }
    }
}

fn write_loc(ctx: &Context, a: Attr, out: &mut String, depth: usize) {
    if depth > MAX_DEPTH {
        out.push_str("...");
        return;
    }
    match ctx.attr_kind(a) {
        AttrKind::UnknownLoc => out.push_str("unknown"),
        AttrKind::FileLineColLoc { file, line, col } => {
            write_escaped(ctx.ident_str(*file).as_bytes(), out);
            let _ = write!(out, ":{line}:{col}");
        }
        AttrKind::NameLoc { name, child } => {
            write_escaped(ctx.ident_str(*name).as_bytes(), out);
            if let Some(c) = child {
                out.push('(');
                write_loc(ctx, *c, out, depth + 1);
                out.push(')');
            }
        }
        AttrKind::CallSiteLoc { callee, caller } => {
            out.push_str("callsite(");
            write_loc(ctx, *callee, out, depth + 1);
            out.push_str(" at ");
            write_loc(ctx, *caller, out, depth + 1);
            out.push(')');
        }
        AttrKind::FusedLoc { locs, metadata } => {
            out.push_str("fused");
            if let Some(m) = metadata {
                out.push('<');
                write_attr(ctx, *m, out, depth + 1);
                out.push('>');
            }
            out.push('[');
            for (i, &l) in locs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_loc(ctx, l, out, depth + 1);
            }
            out.push(']');
        }
        _ => write_attr(ctx, a, out, depth + 1),
    }
}
