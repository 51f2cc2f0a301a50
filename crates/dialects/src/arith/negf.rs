//! `arith.negf`: float negation with fast-math flags; custom form
//! `arith.negf %a (fastmath<flags>)? {attrs}? : f32`. Folds `negf(negf x)` to `x` and negates
//! constants of every float type as `APFloat::changeSign` (the sign bit flips, NaN included;
//! zero and NaN of the `...FNUZ` formats stay), scalars and dense vectors/tensors.

use super::binary_float::set_fastmath_props;
use super::fastmath::{FASTMATH, default_fastmath, fastmath_of, parse_optional_fastmath, print_fastmath};
use super::{FLOAT_LIKE, defined_by, fold_to_attr, fold_to_value};
use crate::support::{dict_of, empty_state, printed_attr_dict};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::registry::{FoldResult, VerifyCtx};

fuser_ir::declare_op! {
    pub static NEGF: "arith.negf" {
        summary: "Floating point negation",
        description: "Flips the sign of a float (NaN included), elementwise for vectors and \
tensors.\n\n```mlir\n%0 = arith.negf %a : f32\n%1 = arith.negf %v fastmath<nnan> : vector<4xf64>\n```",
        traits: [PURE | SAME_OPERANDS_AND_RESULT_TYPE],
        operands: { operand: FLOAT_LIKE },
        results: { result: FLOAT_LIKE },
        properties: { fastmath: FASTMATH },
        hooks: {
            verify: verify_negf,
            fold: fold_negf,
            parse: parse_negf,
            print: print_negf,
            default_props: default_fastmath,
        },
    }
}

/// The state of `arith.negf operand` with `fastmath<none>`.
pub fn negf_state(ctx: &Context, ir: &Ir, operand: Value, loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, NEGF.name, loc);
    state.operands = vec![operand];
    state.result_types = vec![ir.value_type(operand)];
    state.props = Some(dict_of(ctx, &default_fastmath(ctx)));
    state
}

/// The operand has the result type.
fn verify_negf(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let ir = v.ir;
    if ir.value_type(ir.operand(op, 0)) != ir.value_type(ir.result(op, 0)) {
        return Err(v.op_error(op, "requires the same type for all operands and results"));
    }
    Ok(())
}

fn fold_negf(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    if ir.num_operands(op) != 1 || ir.num_results(op) != 1 {
        return None;
    }
    let input = ir.operand(op, 0);
    if let Some(inner) = defined_by(ctx, ir, input, NEGF.name)
        && ir.num_operands(inner) == 1
    {
        return fold_to_value(ir.operand(inner, 0));
    }
    let ty = ir.value_type(ir.result(op, 0));
    let folded = super::elementwise::map1(ctx, operands.first().copied().flatten(), ty, ty, |a| {
        super::float_const::negated(ctx, a)
    })?;
    fold_to_attr(folded)
}

/// `%a (fastmath<flags>)? {attrs}? : type`.
fn parse_negf(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let operand = p.parse_operand()?;
    let flags = parse_optional_fastmath(p)?;
    let mut entries = Vec::new();
    p.parse_optional_attr_dict(&mut entries)?;
    p.parse_punct(Punct::Colon)?;
    let ty = p.parse_type()?;
    state.operands = vec![p.resolve_operand(&operand, ty)?];
    state.result_types = vec![ty];
    set_fastmath_props(p.ctx(), state, entries, flags);
    Ok(())
}

fn print_negf(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (operands, flags, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        (ir.operands(op).to_vec(), fastmath_of(ctx, ir, op), printed_attr_dict(ctx, ir, op))
    };
    let ty = p.ir().results(op).first().map(|&r| p.ir().value_type(r));
    let ([operand], Some(ty)) = (operands.as_slice(), ty) else { return };
    p.write(" ");
    p.print_operand(*operand);
    print_fastmath(p, flags);
    p.print_optional_attr_dict(dict, &["fastmath"]);
    p.write(" : ");
    p.print_type(ty);
}

#[cfg(test)]
mod tests {
    use super::super::test_util::Bench;
    use super::*;
    use fuser_ir::attrs::AttrKind;
    use fuser_ir::types::FloatKind;

    #[test]
    fn double_negation_and_constants_fold() {
        let mut b = Bench::new();
        let f64t = b.ctx.float_type(FloatKind::F64);
        let x = b.arg(f64t);
        let loc = b.ctx.unknown_loc();
        let n1 = b.op(negf_state(&b.ctx, &b.ir, x, loc));
        let n1v = b.ir.result(n1, 0);
        let n2 = b.op(negf_state(&b.ctx, &b.ir, n1v, loc));
        assert_eq!(b.fold_value(n2), Some(x));
        let c = b.constant(b.ctx.intern_attr(AttrKind::Float { bits: 0f64.to_bits() as u128, ty: f64t }));
        let neg = b.op(negf_state(&b.ctx, &b.ir, c, loc));
        let expected = b.ctx.intern_attr(AttrKind::Float { bits: (-0f64).to_bits() as u128, ty: f64t });
        assert_eq!(b.fold(neg), Some(vec![FoldResult::Attr(expected)]));
        assert_eq!(b.verify(neg), Ok(()));
    }
}
