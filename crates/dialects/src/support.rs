//! Helpers shared by the op definitions of this crate: reading inherent attributes (properties,
//! with a fallback to the discardable dictionary), type predicates in MLIR's vocabulary
//! ("signless-integer-like", "bool-like"), integer constants of any width (`IntConst`, an
//! `ApInt`), and
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

/// A scalar constant of an integer or float attribute (`fusion.full`'s and `host.fill`'s
/// `value`): integers sign-extended from their width (an `i1` is 0 or 1), floats exactly as
/// `f64` (every float type the runtime has converts to `f64` exactly).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Int(i64),
    Float(f64),
}

/// The value and type of an integer (`true`/`false` are `i1`) or float attribute.
pub fn scalar_value(ctx: &Context, a: Attr) -> Option<(Scalar, Type)> {
    match ctx.attr_kind(a) {
        AttrKind::Bool(b) => Some((Scalar::Int(*b as i64), ctx.i1_type())),
        AttrKind::Integer { value, ty } => {
            let v = match ctx.type_kind(*ty) {
                TypeKind::Integer { width: 1, .. } => (value.to_u64()? & 1) as i64,
                _ => value.to_i64()?,
            };
            Some((Scalar::Int(v), *ty))
        }
        AttrKind::Float { bits, ty } => {
            let TypeKind::Float(k) = ctx.type_kind(*ty) else { return None };
            let ap = fuser_ir::apfloat::ApFloat::from_bits(*k, *bits)?;
            let (wide, _, _) =
                ap.convert(fuser_ir::types::FloatKind::F64, fuser_ir::apfloat::RoundingMode::NearestTiesToEven);
            Some((Scalar::Float(f64::from_bits(wide.to_bits() as u64)), *ty))
        }
        _ => None,
    }
}

/// Checks that `value` (a `fusion.full`/`host.fill` value) suits the element type `elem`.
pub fn check_fill_value(ctx: &Context, value: fuser_ir::Attr, elem: Type) -> Result<Scalar, String> {
    let Some((scalar, ty)) = scalar_value(ctx, value) else {
        return Err("'value' must be an integer or float attribute".into());
    };
    if ty != elem {
        return Err(format!(
            "'value' has type '{}', but the element type is '{}'",
            type_str(ctx, ty),
            type_str(ctx, elem)
        ));
    }
    Ok(scalar)
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

/// A scalar integer constant: an [`ApInt`] of the constant's width, any width MLIR allows
/// (`i1` .. `i16777215`; `index` computes in 64 bits, as MLIR folds it). It dereferences to the
/// `ApInt`, whose word-based arithmetic the folders use.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct IntConst(pub ApInt);

impl std::ops::Deref for IntConst {
    type Target = ApInt;
    fn deref(&self) -> &ApInt {
        &self.0
    }
}

impl IntConst {
    /// `value` truncated to `width` bits (zero-extended when `width > 128`).
    pub fn new(width: u32, value: u128) -> IntConst {
        IntConst(ApInt::from_u128(width, value))
    }
    pub fn from_apint(value: ApInt) -> IntConst {
        IntConst(value)
    }
    pub fn to_apint(&self) -> ApInt {
        self.0.clone()
    }
    pub fn width(&self) -> u32 {
        self.0.width()
    }
    /// The value read as two's complement, if it fits in an `i128` (always for widths up to
    /// 128).
    pub fn signed(&self) -> Option<i128> {
        self.0.to_i128()
    }
    /// The value read as unsigned, if it fits in a `u128` (always for widths up to 128).
    pub fn unsigned(&self) -> Option<u128> {
        (self.0.active_bits() <= 128).then(|| self.0.low_u128())
    }
    pub fn is_zero(&self) -> bool {
        self.0.is_zero()
    }
    pub fn is_one(&self) -> bool {
        self.0.is_one()
    }
    /// The smallest signed value of the width (`INT_MIN`).
    pub fn is_signed_min(&self) -> bool {
        self.0.is_signed_min()
    }
    /// The largest signed value of the width (`INT_MAX`).
    pub fn is_signed_max(&self) -> bool {
        self.0.is_signed_max()
    }
    /// All ones (`-1`).
    pub fn is_all_ones(&self) -> bool {
        self.0.is_all_ones()
    }
}

/// The scalar integer constant held by an attribute (`42 : i32`, `true`), with its type.
pub fn int_const(ctx: &Context, a: Attr) -> Option<(IntConst, Type)> {
    match ctx.attr_kind(a) {
        AttrKind::Bool(b) => Some((IntConst::new(1, *b as u128), ctx.i1_type())),
        AttrKind::Integer { value, ty } => {
            let width = ctx.type_kind(*ty).int_or_float_width()?;
            Some((IntConst(value.sext_or_trunc(width)), *ty))
        }
        _ => None,
    }
}

/// An integer attribute of type `ty` holding `c` (a `true`/`false` for `i1`, as MLIR prints
/// booleans); `c` is sign-extended or truncated to the type's width.
pub fn int_attr(ctx: &Context, ty: Type, c: IntConst) -> Attr {
    ap_attr(ctx, ty, c.0)
}

/// An integer attribute of type `ty` holding `value` (see [`int_attr`]).
pub fn ap_attr(ctx: &Context, ty: Type, value: ApInt) -> Attr {
    if matches!(ctx.type_kind(ty), TypeKind::Integer { width: 1, .. }) {
        return ctx.bool_attr(value.bit(0));
    }
    let width = ctx.type_kind(ty).int_or_float_width().unwrap_or(value.width());
    let value = if value.width() == width { value } else { value.sext_or_trunc(width) };
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
        assert_eq!(c.signed(), Some(-1));
        assert!(c.is_all_ones());
        assert!(IntConst::new(8, 128).is_signed_min());
        assert_eq!(IntConst::new(64, (-5i128) as u128).signed(), Some(-5));
        let wide = IntConst::from_apint(fuser_ir::apint::ApInt::all_ones(300));
        assert_eq!((wide.signed(), wide.unsigned()), (Some(-1), None));
        assert!(wide.is_all_ones() && !wide.is_signed_max());
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
