//! `arith.index_cast` and `arith.index_castui`: convert between `index` and a signless integer
//! type (or containers of them); custom form `arith.index_cast %a : i32 to index`. Widening
//! sign-extends (`index_cast`) or zero-extends (`index_castui`), narrowing truncates (`index` is
//! 64 bits wide for folding). Fold constants and a cast of a cast of the same op back to the
//! original value when the types round-trip.

use super::{defined_by, fold_to_attr, fold_to_value};
use crate::support::{
    ap_attr, element_type, empty_state, int_const, is_signless_integer_like, printed_attr_dict, same_shape, type_str,
};
use fuser_ir::apint::ApInt;
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::declare::TypeConstraint;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::registry::{FoldResult, PatternDef, VerifyCtx};
use fuser_ir::rewrite_api::Rewriter;
use fuser_ir::types::{Type, TypeKind};

/// MLIR's `SignlessIntegerLikeOrMemRef` (memrefs are not modelled, so only the first half
/// is accepted).
const INTEGER_LIKE_OR_MEMREF: TypeConstraint =
    TypeConstraint::new("signless-integer-like or memref of signless-integer", is_signless_integer_like);

fuser_ir::declare_op! {
    pub static INDEX_CAST: "arith.index_cast" {
        summary: "Converts between index and a signless integer",
        description: "Casts between `index` and a signless integer type, elementwise for vectors \
and tensors. Casting to a wider type sign-extends; casting to a narrower type truncates. \
Exactly one of the two element types must be `index`.\n\n\
```mlir\n%0 = arith.index_cast %a : i32 to index\n%1 = arith.index_cast %i : index to i64\n```",
        traits: [PURE],
        operands: { in: INTEGER_LIKE_OR_MEMREF },
        results: { out: INTEGER_LIKE_OR_MEMREF },
        hooks: {
            verify: verify_index_cast,
            fold: fold_index_cast,
            canonicalize: &[INDEX_CAST_OF_EXTSI],
            parse: parse_index_cast,
            print: print_index_cast,
        },
    }
}

fuser_ir::declare_op! {
    pub static INDEX_CASTUI: "arith.index_castui" {
        summary: "unsigned index cast",
        description: "Casts between `index` and a signless integer type, elementwise for vectors \
and tensors, reading the value as unsigned: casting to a wider type zero-extends; casting to a \
narrower type truncates. Exactly one of the two element types must be `index`.\n\n\
```mlir\n%0 = arith.index_castui %a : i32 to index\n%1 = arith.index_castui %i : index to i64\n```",
        traits: [PURE],
        operands: { in: INTEGER_LIKE_OR_MEMREF },
        results: { out: INTEGER_LIKE_OR_MEMREF },
        hooks: {
            verify: verify_index_cast,
            fold: fold_index_castui,
            canonicalize: &[INDEX_CASTUI_OF_EXTUI],
            parse: parse_index_cast,
            print: print_index_cast,
        },
    }
}

/// What the declaration does not say: the shapes agree and exactly one side is `index`.
fn verify_index_cast(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    let (from, to) = (ir.value_type(ir.operand(op, 0)), ir.value_type(ir.result(op, 0)));
    let is_memref = |t: Type| matches!(ctx.type_kind(t), TypeKind::MemRef { .. } | TypeKind::UnrankedMemRef { .. });
    if !is_memref(from) && !is_memref(to) {
        let index_elem = |c: &Context, t: Type| c.type_kind(t).is_index();
        return super::cast_common::verify_cast(v, op, |c, a, b| index_elem(c, a) != index_elem(c, b));
    }
    if !same_shape(ctx, from, to) {
        return Err(v.op_error(op, "requires the same shape for all operands and results"));
    }
    let is_index = |t: Type| ctx.type_kind(element_type(ctx, t)).is_index();
    if is_index(from) == is_index(to) {
        return Err(v.op_error(
            op,
            format!(
                "operand type '{}' and result type '{}' are cast incompatible",
                type_str(ctx, from),
                type_str(ctx, to)
            ),
        ));
    }
    Ok(())
}

fn fold_index_cast(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    fold_cast_of(ctx, ir, op, operands, INDEX_CAST.name, ApInt::sext_or_trunc)
}

fn fold_index_castui(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    fold_cast_of(ctx, ir, op, operands, INDEX_CASTUI.name, ApInt::zext_or_trunc)
}

/// The folds of the op `name`: a round trip through the same op is the original value; a
/// constant is re-read in the result's width (`extend` gives its bits).
fn fold_cast_of(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
    operands: &[Option<Attr>],
    name: &str,
    extend: impl Fn(&ApInt, u32) -> ApInt,
) -> Option<Vec<FoldResult>> {
    if ir.num_operands(op) != 1 || ir.num_results(op) != 1 {
        return None;
    }
    let to = ir.value_type(ir.result(op, 0));
    let input = ir.operand(op, 0);
    if let Some(inner) = defined_by(ctx, ir, input, name)
        && ir.num_operands(inner) == 1
        && ir.value_type(ir.operand(inner, 0)) == to
    {
        return fold_to_value(ir.operand(inner, 0));
    }
    let width = ctx.type_kind(crate::support::element_type(ctx, to)).int_or_float_width()?;
    let folded = super::cast_common::fold_cast_constant(ctx, operands.first().copied().flatten(), to, |a, elem| {
        let (c, _) = int_const(ctx, a)?;
        Some(ap_attr(ctx, elem, extend(&c, width)))
    })?;
    fold_to_attr(folded)
}

/// `index_cast(extsi x)`: `index_cast x`.
static INDEX_CAST_OF_EXTSI: PatternDef =
    PatternDef { name: "arith-index-cast-of-extsi", apply: |rw, op| cast_of_ext(rw, op, super::EXTSI.name) };
/// `index_castui(extui x)`: `index_castui x`.
static INDEX_CASTUI_OF_EXTUI: PatternDef =
    PatternDef { name: "arith-index-castui-of-extui", apply: |rw, op| cast_of_ext(rw, op, super::EXTUI.name) };

/// Skips an extension `ext` feeding the cast `op`.
fn cast_of_ext(rw: &mut dyn Rewriter, op: OpId, ext: &str) -> bool {
    let (ctx, ir) = (rw.ctx(), rw.ir());
    if ir.num_operands(op) != 1 {
        return false;
    }
    let Some(e) = defined_by(ctx, ir, ir.operand(op, 0), ext).filter(|&e| ir.num_operands(e) == 1) else {
        return false;
    };
    let src = ir.operand(e, 0);
    rw.ir_mut().set_operand(op, 0, src);
    rw.notify_changed(op);
    true
}

fn parse_index_cast(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let operand = p.parse_operand()?;
    let mut entries = Vec::new();
    p.parse_optional_attr_dict(&mut entries)?;
    p.parse_punct(fuser_ir::asm::Punct::Colon)?;
    let from = p.parse_type()?;
    p.parse_keyword("to")?;
    let to = p.parse_type()?;
    state.operands = vec![p.resolve_operand(&operand, from)?];
    state.result_types = vec![to];
    state.attrs = p.ctx().dictionary(entries);
    Ok(())
}

fn print_index_cast(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (input, to, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        let input = (ir.num_operands(op) == 1).then(|| ir.operand(op, 0));
        (input, ir.results(op).first().map(|&r| ir.value_type(r)), printed_attr_dict(ctx, ir, op))
    };
    let (Some(input), Some(to)) = (input, to) else { return };
    let from = p.ir().value_type(input);
    p.write(" ");
    p.print_operand(input);
    p.print_optional_attr_dict(dict, &[]);
    p.write(" : ");
    p.print_type(from);
    p.write(" to ");
    p.print_type(to);
}

/// The state of `arith.index_cast input : _ to ty`.
pub fn index_cast_state(ctx: &Context, input: Value, ty: Type, loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, INDEX_CAST.name, loc);
    state.operands = vec![input];
    state.result_types = vec![ty];
    state
}

#[cfg(test)]
mod tests {
    use super::super::test_util::Bench;
    use super::*;

    #[test]
    fn constants_extend_and_truncate() {
        let mut b = Bench::new();
        let (i8t, i32t, idx) = (b.ctx.integer_type(8), b.ctx.integer_type(32), b.ctx.index_type());
        let loc = b.ctx.unknown_loc();
        let m5 = b.int(i32t, -5);
        let widen = b.op(index_cast_state(&b.ctx, m5, idx, loc));
        assert_eq!(b.fold_int(widen), Some(-5));
        let c300 = b.int(idx, 300);
        let narrow = b.op(index_cast_state(&b.ctx, c300, i8t, loc));
        assert_eq!(b.fold_int(narrow), Some(44));
        let mut unsigned = index_cast_state(&b.ctx, m5, idx, loc);
        unsigned.name = b.ctx.op_name(INDEX_CASTUI.name);
        let unsigned = b.op(unsigned);
        assert_eq!(b.fold_int(unsigned), Some(0xffff_fffb));
    }

    #[test]
    fn round_trip_cast_folds_and_verifier_rejects_int_to_int() {
        let mut b = Bench::new();
        let (i32t, i64t, idx) = (b.ctx.integer_type(32), b.ctx.integer_type(64), b.ctx.index_type());
        let loc = b.ctx.unknown_loc();
        let x = b.arg(i32t);
        let up = b.op(index_cast_state(&b.ctx, x, idx, loc));
        let up_v = b.ir.result(up, 0);
        let down = b.op(index_cast_state(&b.ctx, up_v, i32t, loc));
        assert_eq!(b.fold_value(down), Some(x));
        let bad = b.op(index_cast_state(&b.ctx, x, i64t, loc));
        assert_eq!(
            b.verify(bad),
            Err("'arith.index_cast' op operand type 'i32' and result type 'i64' are cast incompatible".into())
        );
    }
}
