//! What the `host` ops share: operand and attribute constraints, readers and builders of their
//! properties, shape arithmetic with `?` extents, and small pieces of custom syntax (attribute
//! dictionaries split into properties, `[1, 2]` integer lists, type lists).
//!
//! Invariants: nothing here panics on malformed IR; readers return `Option`.

use super::types::{self, BufferType};
use crate::support::{Entries, printed_attr_dict, split_inherent};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::{Attr, AttrKind, DenseArrayData};
use fuser_ir::context::Context;
use fuser_ir::declare::{AttrConstraint, TypeConstraint};
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::types::{DYNAMIC, Type, TypeKind};

// ----- type constraints ---------------------------------------------------------------------

fn is_buf(ctx: &Context, t: Type) -> bool {
    ctx.dialect_type_params(t, "host", "buf").is_some()
}

fn is_view(ctx: &Context, t: Type) -> bool {
    ctx.dialect_type_params(t, "host", "view").is_some()
}

fn is_index(ctx: &Context, t: Type) -> bool {
    ctx.type_kind(t).is_index()
}

fn is_i1(ctx: &Context, t: Type) -> bool {
    t == ctx.i1_type()
}

/// A `!host.buf` or a `!host.view`.
pub(crate) const BUFFER_LIKE: TypeConstraint =
    TypeConstraint::new("buffer-like (!host.buf or !host.view)", types::is_buffer_like);
/// A `!host.buf` (an allocation, not a window into one).
pub(crate) const BUF: TypeConstraint = TypeConstraint::new("buffer (!host.buf)", is_buf);
/// A `!host.view` (a window into a buffer).
pub(crate) const VIEW: TypeConstraint = TypeConstraint::new("view (!host.view)", is_view);
/// A `!host.stream`.
pub(crate) const STREAM: TypeConstraint = TypeConstraint::new("stream (!host.stream)", types::is_stream);
/// An `index`.
pub(crate) const INDEX: TypeConstraint = TypeConstraint::new("index", is_index);
/// An `i1`.
pub(crate) const I1: TypeConstraint = TypeConstraint::new("1-bit signless integer", is_i1);

// ----- attribute constraints ----------------------------------------------------------------

fn is_i64_attr(ctx: &Context, a: Attr) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::Integer { ty, .. } if matches!(ctx.type_kind(*ty), TypeKind::Integer { width: 64, .. }))
}

fn is_unit_attr(ctx: &Context, a: Attr) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::Unit)
}

fn is_string_attr(ctx: &Context, a: Attr) -> bool {
    ctx.attr_str(a).is_some()
}

fn is_i64_array_attr(ctx: &Context, a: Attr) -> bool {
    i64_array(ctx, a).is_some()
}

fn is_flat_symbol_ref(ctx: &Context, a: Attr) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::SymbolRef { nested, .. } if nested.is_empty())
}

/// MLIR's `I64Attr`.
pub(crate) const I64_ATTR: AttrConstraint = AttrConstraint::new("64-bit signless integer attribute", is_i64_attr);
/// MLIR's `UnitAttr` (always optional: present or absent).
pub(crate) const UNIT_ATTR: AttrConstraint = AttrConstraint::new("unit attribute", is_unit_attr).optional();
/// MLIR's `StrAttr`.
pub(crate) const STRING_ATTR: AttrConstraint = AttrConstraint::new("string attribute", is_string_attr);
/// MLIR's `DenseI64ArrayAttr`.
pub(crate) const I64_ARRAY_ATTR: AttrConstraint = AttrConstraint::new("i64 dense array attribute", is_i64_array_attr);
/// MLIR's `FlatSymbolRefAttr`.
pub(crate) const FLAT_SYMBOL_REF: AttrConstraint =
    AttrConstraint::new("flat symbol reference attribute", is_flat_symbol_ref);

// ----- property readers and builders ----------------------------------------------------------

/// The integers of an `array<i64: ...>` attribute.
pub(crate) fn i64_array(ctx: &Context, a: Attr) -> Option<&[i64]> {
    match ctx.attr_kind(a) {
        AttrKind::DenseArray { elem, data: DenseArrayData::Int(v) }
            if matches!(ctx.type_kind(*elem), TypeKind::Integer { width: 64, .. }) =>
        {
            Some(v)
        }
        _ => None,
    }
}

/// `array<i64: values...>`.
pub fn i64_array_attr(ctx: &Context, values: &[i64]) -> Attr {
    ctx.intern_attr(AttrKind::DenseArray { elem: ctx.i64_type(), data: DenseArrayData::Int(values.to_vec()) })
}

/// `array<i32: values...>` (segment sizes).
pub(crate) fn i32_array_attr(ctx: &Context, values: &[usize]) -> Attr {
    let data = DenseArrayData::Int(values.iter().map(|&v| v as i64).collect());
    ctx.intern_attr(AttrKind::DenseArray { elem: ctx.integer_type(32), data })
}

/// `value : i64`.
pub(crate) fn i64_attr(ctx: &Context, value: i64) -> Attr {
    ctx.int_attr(ctx.i64_type(), value)
}

/// The inherent attribute `name` of `op` (property first, then discardable).
pub(crate) fn prop(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<Attr> {
    crate::support::inherent_attr(ctx, ir, op, name)
}

pub(crate) fn prop_i64(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<i64> {
    prop(ctx, ir, op, name).and_then(|a| ctx.attr_i64(a))
}

pub(crate) fn prop_i64_array(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<Vec<i64>> {
    prop(ctx, ir, op, name).and_then(|a| i64_array(ctx, a).map(<[i64]>::to_vec))
}

/// True when the unit property `name` is present.
pub(crate) fn has_flag(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> bool {
    prop(ctx, ir, op, name).is_some()
}

/// The decoded buffer/view type of `v`.
pub(crate) fn buffer_of(ctx: &Context, ir: &Ir, v: Value) -> Option<BufferType> {
    BufferType::of(ctx, ir.value_type(v))
}

// ----- shapes ---------------------------------------------------------------------------------

/// The strides of a buffer or view in elements (row-major ones for a buffer).
pub(crate) fn strides_of(t: &BufferType) -> Vec<i64> {
    t.strides.clone().unwrap_or_else(|| BufferType::contiguous_strides(&t.shape))
}

/// Two extents that may be equal at run time (`?` matches anything).
pub(crate) fn extents_compatible(a: i64, b: i64) -> bool {
    a == b || a == DYNAMIC || b == DYNAMIC
}

pub(crate) fn shapes_compatible(a: &[i64], b: &[i64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(&x, &y)| extents_compatible(x, y))
}

/// `[4, ?, 8]`, for diagnostics.
pub(crate) fn fmt_dims(v: &[i64]) -> String {
    let parts: Vec<String> = v.iter().map(|&d| if d == DYNAMIC { "?".into() } else { d.to_string() }).collect();
    format!("[{}]", parts.join(", "))
}

/// `a * b`, `?` when either is `?` (or on overflow).
pub(crate) fn mul_dyn(a: i64, b: i64) -> i64 {
    if a == DYNAMIC || b == DYNAMIC { DYNAMIC } else { a.checked_mul(b).unwrap_or(DYNAMIC) }
}

// ----- syntax -------------------------------------------------------------------------------

/// `{attrs}` if present, split into (properties, discardable) by the op's declared properties.
pub(crate) fn parse_attr_dict(p: &mut dyn OpAsmParser, state: &OperationState) -> ParseResult<(Entries, Entries)> {
    let mut entries = Vec::new();
    p.parse_optional_attr_dict(&mut entries)?;
    let ctx = p.ctx();
    Ok(match ctx.op_def(state.name) {
        Some(def) => split_inherent(ctx, def, entries),
        None => (Vec::new(), entries),
    })
}

/// Stores parsed properties (the syntax's own first, then those written in the attribute
/// dictionary, which win) and discardable attributes into `state`.
pub(crate) fn finish_attrs(
    ctx: &Context,
    state: &mut OperationState,
    own: Vec<(&str, Attr)>,
    dict: (Entries, Entries),
) {
    let (written, attrs) = dict;
    let mut props: Entries = own
        .into_iter()
        .filter(|(k, _)| !written.iter().any(|(w, _)| ctx.ident_str(*w) == *k))
        .map(|(k, v)| (ctx.ident(k), v))
        .collect();
    props.extend(written);
    state.props = (!props.is_empty()).then(|| ctx.dictionary(props));
    state.attrs = ctx.dictionary(attrs);
}

/// Prints ` {attrs}` with the properties the syntax already shows elided.
pub(crate) fn print_attr_dict(p: &mut dyn OpAsmPrinter, op: OpId, elided: &[&str]) {
    let dict = printed_attr_dict(p.ctx(), p.ir(), op);
    p.print_optional_attr_dict(dict, elided);
}

pub(crate) use crate::support::parse_int_list;

pub(crate) fn int_list_text(v: &[i64]) -> String {
    let parts: Vec<String> = v.iter().map(i64::to_string).collect();
    format!("[{}]", parts.join(", "))
}

/// `keyword = <integer>`.
pub(crate) fn parse_keyword_int(p: &mut dyn OpAsmParser, kw: &str) -> ParseResult<i64> {
    p.parse_keyword(kw)?;
    p.parse_punct(Punct::Equal)?;
    p.parse_integer()
}

/// Exactly `n` comma-separated types.
pub(crate) fn parse_n_types(p: &mut dyn OpAsmParser, n: usize) -> ParseResult<Vec<Type>> {
    let at = p.current_offset();
    let types = p.parse_type_list()?;
    if types.len() != n {
        return Err(p.emit_error_at(at, &format!("expected {n} types, got {}", types.len())));
    }
    Ok(types)
}

/// `t1, t2` without parentheses.
pub(crate) fn print_types(p: &mut dyn OpAsmPrinter, ts: &[Type]) {
    for (i, &t) in ts.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.print_type(t);
    }
}

/// The types of `op`'s operands.
pub(crate) fn operand_types(ir: &Ir, op: OpId) -> Vec<Type> {
    ir.operands(op).iter().map(|&v| ir.value_type(v)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dynamic_arithmetic() {
        assert_eq!(mul_dyn(3, 4), 12);
        assert_eq!(mul_dyn(DYNAMIC, 4), DYNAMIC);
        assert_eq!(mul_dyn(i64::MAX, 2), DYNAMIC);
        assert!(shapes_compatible(&[4, DYNAMIC], &[DYNAMIC, 8]));
        assert!(!shapes_compatible(&[4], &[5]));
        assert!(!shapes_compatible(&[4], &[4, 1]));
        assert_eq!(fmt_dims(&[4, DYNAMIC]), "[4, ?]");
    }

    #[test]
    fn arrays_round_trip() {
        let ctx = Context::empty();
        let a = i64_array_attr(&ctx, &[1, DYNAMIC]);
        assert_eq!(i64_array(&ctx, a), Some(&[1, DYNAMIC][..]));
        assert!(is_i64_array_attr(&ctx, a));
        assert!(!is_i64_array_attr(&ctx, i32_array_attr(&ctx, &[1])));
        assert!(is_i64_attr(&ctx, i64_attr(&ctx, 3)));
    }
}
