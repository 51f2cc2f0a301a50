//! Helpers shared by the op definitions of this crate: reading inherent attributes (properties,
//! with a fallback to the discardable dictionary), type predicates in MLIR's vocabulary
//! ("signless-integer-like", "bool-like"), integer constants as fixed-width bit patterns, and
//! short type spellings for diagnostics.
//!
//! Invariants: nothing here panics on malformed IR; every accessor returns `Option`.

use fuser_ir::apint::ApInt;
use fuser_ir::asm::{OpAsmParser, ParseResult, Punct};
use fuser_ir::attrs::{Attr, AttrKind, Ident};
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::registry::OpDef;
use fuser_ir::types::{Signedness, Type, TypeKind};

// ----- inherent attributes ------------------------------------------------------------------

/// An inherent attribute of `op`: from its properties, else from its discardable dictionary
/// (IR built by hand or parsed generically without `<{...}>` may keep it there).
pub fn inherent_attr(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<Attr> {
    ir.props(op).and_then(|p| ctx.dict_get(p, name)).or_else(|| ctx.dict_get(ir.attrs(op), name))
}

/// The dictionary printed by `attr-dict` in a custom form: the discardable attributes plus the
/// properties (callers elide the names their syntax prints elsewhere).
pub fn printed_attr_dict(ctx: &Context, ir: &Ir, op: OpId) -> Attr {
    let mut entries: Vec<(Ident, Attr)> = ctx.dict_entries(ir.attrs(op)).to_vec();
    if let Some(p) = ir.props(op) {
        entries.extend_from_slice(ctx.dict_entries(p));
    }
    ctx.dictionary(entries)
}

/// Attribute dictionary entries.
pub type Entries = Vec<(Ident, Attr)>;

/// Splits parsed `attr-dict` entries of a custom form into (properties, discardable): names the
/// op declares as properties go to the properties, as MLIR does with inherent attributes.
pub fn split_inherent(ctx: &Context, def: &OpDef, entries: Entries) -> (Entries, Entries) {
    entries.into_iter().partition(|(k, _)| def.properties.contains(&ctx.ident_str(*k)))
}

/// A fresh operation state with no operands, results, regions or attributes.
pub fn empty_state(ctx: &Context, name: &str, loc: Attr) -> OperationState {
    OperationState {
        name: ctx.op_name(name),
        operands: Vec::new(),
        result_types: Vec::new(),
        successors: Vec::new(),
        regions: Vec::new(),
        attrs: ctx.empty_dict(),
        props: None,
        loc,
    }
}

/// Builds a dictionary from `(name, value)` pairs.
pub fn dict_of(ctx: &Context, entries: &[(&str, Attr)]) -> Attr {
    ctx.dictionary(entries.iter().map(|(k, v)| (ctx.ident(k), *v)).collect())
}

/// The string of a symbol reference without nested parts (`@f`).
pub fn flat_symbol(ctx: &Context, a: Attr) -> Option<&str> {
    match ctx.attr_kind(a) {
        AttrKind::SymbolRef { root, nested } if nested.is_empty() => Some(ctx.ident_str(*root)),
        _ => None,
    }
}

/// `@name`, quoted when the name is not a bare identifier (as MLIR prints symbol names).
pub fn symbol_display(name: &str) -> String {
    let bare = !name.is_empty()
        && name.chars().enumerate().all(|(i, c)| {
            c.is_ascii_alphabetic() || c == '_' || (i > 0 && (c.is_ascii_digit() || c == '$' || c == '.' || c == '-'))
        });
    if bare { format!("@{name}") } else { format!("@{name:?}") }
}

// ----- types --------------------------------------------------------------------------------

/// Element type of a vector or tensor, or the type itself.
pub fn element_type(ctx: &Context, t: Type) -> Type {
    match ctx.type_kind(t) {
        TypeKind::Vector { elem, .. } | TypeKind::RankedTensor { elem, .. } | TypeKind::UnrankedTensor { elem } => {
            *elem
        }
        _ => t,
    }
}

/// True for a signless integer or `index`.
pub fn is_signless_int_or_index(ctx: &Context, t: Type) -> bool {
    let k = ctx.type_kind(t);
    k.is_signless_integer() || k.is_index()
}

/// MLIR's "signless-integer-like": a signless integer or index, or a vector/tensor of them.
pub fn is_signless_integer_like(ctx: &Context, t: Type) -> bool {
    is_signless_int_or_index(ctx, element_type(ctx, t))
}

/// MLIR's "bool-like": `i1`, or a vector/tensor of `i1`.
pub fn is_bool_like(ctx: &Context, t: Type) -> bool {
    matches!(ctx.type_kind(element_type(ctx, t)), TypeKind::Integer { width: 1, signedness: Signedness::Signless })
}

/// The shape of a vector/tensor type (`None` for scalars and unranked tensors); the second
/// member tells vectors from tensors.
pub fn shape_of(ctx: &Context, t: Type) -> Option<(Vec<i64>, bool)> {
    match ctx.type_kind(t) {
        TypeKind::Vector { shape, .. } => Some((shape.clone(), true)),
        TypeKind::RankedTensor { shape, .. } => Some((shape.clone(), false)),
        _ => None,
    }
}

/// True when `a` and `b` have the same container kind and shape (scalars match scalars).
pub fn same_shape(ctx: &Context, a: Type, b: Type) -> bool {
    let unranked = |t| matches!(ctx.type_kind(t), TypeKind::UnrankedTensor { .. });
    unranked(a) == unranked(b) && shape_of(ctx, a) == shape_of(ctx, b)
}

/// A type as MLIR spells it in diagnostics (the printer's form).
pub fn type_str(ctx: &Context, t: Type) -> String {
    fuser_ir::printer::print_type(ctx, t)
}

/// `'t1', 't2'`: a type list as MLIR streams it into diagnostics.
pub fn quoted_types(ctx: &Context, ts: &[Type]) -> String {
    ts.iter().map(|&t| format!("'{}'", type_str(ctx, t))).collect::<Vec<_>>().join(", ")
}

/// The types of a list of values.
pub fn value_types(ir: &Ir, vs: &[Value]) -> Vec<Type> {
    vs.iter().map(|&v| ir.value_type(v)).collect()
}

// ----- integer constants --------------------------------------------------------------------

/// A scalar integer constant as an unsigned bit pattern of `width` bits (at most 128; `index`
/// computes in 64 bits, as MLIR folds it).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct IntConst {
    pub bits: u128,
    pub width: u32,
}

impl IntConst {
    /// `value` truncated to `width` bits.
    pub fn new(width: u32, value: u128) -> IntConst {
        IntConst { bits: value & Self::mask(width), width }
    }
    fn mask(width: u32) -> u128 {
        if width >= 128 { u128::MAX } else { (1u128 << width) - 1 }
    }
    /// The value read as two's complement.
    pub fn signed(self) -> i128 {
        if self.width == 0 || self.width >= 128 {
            return self.bits as i128;
        }
        let shift = 128 - self.width;
        ((self.bits << shift) as i128) >> shift
    }
    pub fn unsigned(self) -> u128 {
        self.bits
    }
    pub fn is_zero(self) -> bool {
        self.bits == 0
    }
    pub fn is_one(self) -> bool {
        self.bits == 1 && self.width > 0
    }
    /// The smallest signed value of the width (`INT_MIN`).
    pub fn is_signed_min(self) -> bool {
        self.width > 0 && self.bits == 1u128 << (self.width - 1)
    }
    /// All ones (`-1`).
    pub fn is_all_ones(self) -> bool {
        self.width > 0 && self.bits == Self::mask(self.width)
    }
}

/// The scalar integer constant held by an attribute (`42 : i32`, `true`), with its type.
pub fn int_const(ctx: &Context, a: Attr) -> Option<(IntConst, Type)> {
    match ctx.attr_kind(a) {
        AttrKind::Bool(b) => Some((IntConst::new(1, *b as u128), ctx.i1_type())),
        AttrKind::Integer { value, ty } => {
            let width = ctx.type_kind(*ty).int_or_float_width()?;
            if width > 128 {
                return None;
            }
            let signed = value.to_i128()?;
            Some((IntConst::new(width, signed as u128), *ty))
        }
        _ => None,
    }
}

/// An integer attribute of type `ty` holding `c` (a `true`/`false` for `i1`, as MLIR prints
/// booleans).
pub fn int_attr(ctx: &Context, ty: Type, c: IntConst) -> Attr {
    if matches!(ctx.type_kind(ty), TypeKind::Integer { width: 1, .. }) {
        return ctx.bool_attr(c.bits & 1 == 1);
    }
    let width = ctx.type_kind(ty).int_or_float_width().unwrap_or(c.width);
    let value = ApInt::from_i128(width, c.signed());
    ctx.intern_attr(AttrKind::Integer { value, ty })
}

/// `[1, 2, 3]`: a bracketed, possibly empty list of integers (custom op syntax).
pub(crate) fn parse_int_list(p: &mut dyn OpAsmParser) -> ParseResult<Vec<i64>> {
    p.parse_punct(Punct::LSquare)?;
    let mut out = Vec::new();
    if p.parse_optional_punct(Punct::RSquare) {
        return Ok(out);
    }
    loop {
        out.push(p.parse_integer()?);
        if !p.parse_optional_punct(Punct::Comma) {
            break;
        }
    }
    p.parse_punct(Punct::RSquare)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_const_wraps_and_sign_extends() {
        let c = IntConst::new(8, 255);
        assert_eq!(c.signed(), -1);
        assert!(c.is_all_ones());
        assert!(IntConst::new(8, 128).is_signed_min());
        assert_eq!(IntConst::new(64, (-5i128) as u128).signed(), -5);
    }

    #[test]
    fn type_spelling_and_symbols() {
        let ctx = Context::empty();
        let i32t = ctx.integer_type(32);
        let v = ctx.intern_type(TypeKind::Vector { shape: vec![4], scalable: vec![false], elem: i32t });
        assert_eq!(type_str(&ctx, v), "vector<4xi32>");
        assert_eq!(type_str(&ctx, ctx.function_type(vec![i32t], vec![i32t])), "(i32) -> i32");
        assert_eq!(symbol_display("f"), "@f");
        assert_eq!(symbol_display("a b"), "@\"a b\"");
        assert!(is_signless_integer_like(&ctx, v));
        assert!(!is_bool_like(&ctx, v));
    }

    #[test]
    fn bool_constants_round_trip() {
        let ctx = Context::empty();
        let t = ctx.bool_attr(true);
        assert_eq!(int_const(&ctx, t).map(|c| c.0), Some(IntConst::new(1, 1)));
        assert_eq!(int_attr(&ctx, ctx.i1_type(), IntConst::new(1, 0)), ctx.bool_attr(false));
        let i8t = ctx.integer_type(8);
        assert_eq!(int_attr(&ctx, i8t, IntConst::new(8, 255)), ctx.int_attr(i8t, -1));
    }
}
