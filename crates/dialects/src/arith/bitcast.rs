//! `arith.bitcast`: reinterprets the bits of an integer or float as another integer or float
//! type of the same width (elementwise for vectors and tensors); custom form
//! `arith.bitcast %a : i32 to f32`. Folds constants (scalars and splats), identity casts, and
//! `bitcast(bitcast x)` to one bitcast of `x`.

use super::cast_common::{cast_state, fold_cast_constant, parse_cast, print_cast, verify_cast, width_of};
use super::{defined_by, fold_to_attr};
use crate::support::{ap_attr, element_type, is_signless_int_or_index};
use fuser_ir::apint::ApInt;
use fuser_ir::attrs::{Attr, AttrKind};
use fuser_ir::context::Context;
use fuser_ir::declare::TypeConstraint;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::registry::{FoldResult, PatternDef, VerifyCtx};
use fuser_ir::rewrite_api::Rewriter;
use fuser_ir::types::{Type, TypeKind};

/// MLIR's `SignlessIntegerOrFloatLike` (memrefs are not modelled).
const INTEGER_OR_FLOAT_LIKE: TypeConstraint =
    TypeConstraint::new("signless-integer-or-float-like or memref of signless-integer or float", is_int_or_float_like);

fn is_int_or_float_like(ctx: &Context, t: Type) -> bool {
    let elem = element_type(ctx, t);
    is_signless_int_or_index(ctx, elem) || ctx.type_kind(elem).is_float()
}

fuser_ir::declare_op! {
    pub static BITCAST: "arith.bitcast" {
        summary: "bitcast between values of equal bit width",
        description: "Reinterprets the bits of a signless integer or float as another signless \
integer or float type of the same bit width (`index` has no fixed width and is rejected), \
elementwise for vectors and tensors.\n\n\
```mlir\n%0 = arith.bitcast %a : i32 to f32\n%1 = arith.bitcast %v : vector<4xf16> to vector<4xi16>\n```",
        traits: [PURE],
        operands: { in: INTEGER_OR_FLOAT_LIKE },
        results: { out: INTEGER_OR_FLOAT_LIKE },
        hooks: {
            verify: verify_bitcast,
            fold: fold_bitcast,
            canonicalize: &[BITCAST_OF_BITCAST],
            parse: parse_cast,
            print: print_cast,
        },
    }
}

/// The state of `arith.bitcast input : _ to ty`.
pub fn bitcast_state(ctx: &Context, input: Value, ty: Type, loc: Attr) -> OperationState {
    cast_state(ctx, BITCAST.name, input, ty, loc)
}

/// Both element types have the same fixed width.
fn verify_bitcast(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_cast(v, op, |ctx, a, b| matches!((width_of(ctx, a), width_of(ctx, b)), (Some(x), Some(y)) if x == y))
}

fn fold_bitcast(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    if ir.num_operands(op) != 1 || ir.num_results(op) != 1 {
        return None;
    }
    let (input, to) = (ir.operand(op, 0), ir.value_type(ir.result(op, 0)));
    // The op's own folder (constants) runs before the identity fold of MLIR's cast interface.
    let folded = fold_cast_constant(ctx, operands.first().copied().flatten(), to, |a, elem| reinterpret(ctx, a, elem));
    if let Some(a) = folded {
        return fold_to_attr(a);
    }
    (ir.value_type(input) == to).then(|| vec![FoldResult::Value(input)])
}

/// The scalar constant `a` read as a `to` of the same width.
fn reinterpret(ctx: &Context, a: Attr, to: Type) -> Option<Attr> {
    let value = match ctx.attr_kind(a) {
        AttrKind::Float { bits, ty } => ApInt::from_u128(width_of(ctx, *ty)?, *bits),
        _ => crate::support::int_const(ctx, a)?.0.to_apint(),
    };
    if width_of(ctx, to)? != value.width() {
        return None;
    }
    match ctx.type_kind(to) {
        // Floats are at most 128 bits wide.
        TypeKind::Float(_) => Some(ctx.intern_attr(AttrKind::Float { bits: value.low_u128(), ty: to })),
        _ => Some(ap_attr(ctx, to, value)),
    }
}

/// `bitcast(bitcast x)` is one bitcast of `x`.
static BITCAST_OF_BITCAST: PatternDef = PatternDef { name: "arith-bitcast-of-bitcast", apply: bitcast_of_bitcast };

fn bitcast_of_bitcast(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let (ctx, ir) = (rw.ctx(), rw.ir());
    if ir.num_operands(op) != 1 {
        return false;
    }
    let Some(inner) = defined_by(ctx, ir, ir.operand(op, 0), BITCAST.name).filter(|&d| ir.num_operands(d) == 1) else {
        return false;
    };
    let src = ir.operand(inner, 0);
    rw.ir_mut().set_operand(op, 0, src);
    rw.notify_changed(op);
    true
}

#[cfg(test)]
mod tests {
    use super::super::test_util::Bench;
    use super::*;
    use fuser_ir::types::FloatKind;

    #[test]
    fn constants_reinterpret_and_identity_folds() {
        let mut b = Bench::new();
        let (i32t, f32t) = (b.ctx.integer_type(32), b.ctx.float_type(FloatKind::F32));
        let one_bits = b.int(i32t, 0x3f80_0000);
        let loc = b.ctx.unknown_loc();
        let op = b.op(bitcast_state(&b.ctx, one_bits, f32t, loc));
        let one = b.ctx.intern_attr(AttrKind::Float { bits: 0x3f80_0000, ty: f32t });
        assert_eq!(b.fold(op), Some(vec![FoldResult::Attr(one)]));
        let x = b.arg(i32t);
        let same = b.op(bitcast_state(&b.ctx, x, i32t, loc));
        assert_eq!(b.fold_value(same), Some(x));
    }

    #[test]
    fn verifier_requires_equal_widths() {
        let mut b = Bench::new();
        let (i32t, f64t, idx) = (b.ctx.integer_type(32), b.ctx.float_type(FloatKind::F64), b.ctx.index_type());
        let x = b.arg(i32t);
        let loc = b.ctx.unknown_loc();
        let wide = b.op(bitcast_state(&b.ctx, x, f64t, loc));
        assert_eq!(
            b.verify(wide),
            Err("'arith.bitcast' op operand type 'i32' and result type 'f64' are cast incompatible".into())
        );
        let to_index = b.op(bitcast_state(&b.ctx, x, idx, loc));
        assert_eq!(
            b.verify(to_index),
            Err("'arith.bitcast' op operand type 'i32' and result type 'index' are cast incompatible".into())
        );
    }
}
