//! `arith.cmpf`: float comparison with one of 16 predicates stored as an `i64` property
//! (`predicate = 4 : i64` for `olt`) and fast-math flags; custom form
//! `arith.cmpf olt, %a, %b (fastmath<flags>)? {attrs}? : f32`. Folds scalar constants of every
//! float type (`ApFloat::compare`); a NaN constant on one side decides the answer alone, as in MLIR.

use super::binary_float::{parse_float_operands, set_fastmath_props};
use super::fastmath::{FASTMATH, fastmath_of, print_fastmath};
use super::float_const::float_value;
use super::{BOOL_LIKE, FLOAT_LIKE, bool_like_of, fold_to_attr};
use crate::support::{dict_of, empty_state, inherent_attr, printed_attr_dict};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::declare::AttrConstraint;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::registry::{FoldResult, VerifyCtx};
use std::cmp::Ordering;

/// The keywords of the predicates, in MLIR's numbering (`false` is 0, `true` is 15).
const PREDICATES: [&str; 16] =
    ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"];

/// A predicate of `arith.cmpf`, by MLIR's number.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct CmpFPredicate(pub u8);

impl CmpFPredicate {
    pub fn keyword(self) -> &'static str {
        PREDICATES[self.0 as usize & 15]
    }
    pub fn from_keyword(s: &str) -> Option<CmpFPredicate> {
        PREDICATES.iter().position(|p| *p == s).map(|i| CmpFPredicate(i as u8))
    }
    pub fn from_i64(v: i64) -> Option<CmpFPredicate> {
        (0..16).contains(&v).then_some(CmpFPredicate(v as u8))
    }

    /// Evaluates the predicate; `None` for an unordered pair (a NaN operand).
    pub fn eval(self, order: Option<Ordering>) -> bool {
        let kw = self.keyword();
        match (kw, order) {
            ("false", _) => false,
            ("true", _) => true,
            ("ord", o) => o.is_some(),
            ("uno", o) => o.is_none(),
            (_, None) => kw.starts_with('u'),
            (_, Some(o)) => match &kw[1..] {
                "eq" => o == Ordering::Equal,
                "gt" => o == Ordering::Greater,
                "ge" => o != Ordering::Less,
                "lt" => o == Ordering::Less,
                "le" => o != Ordering::Greater,
                _ => o != Ordering::Equal, // one, une
            },
        }
    }

    /// The `predicate` property value (`N : i64`).
    pub fn to_attr(self, ctx: &Context) -> Attr {
        ctx.int_attr(ctx.i64_type(), self.0 as i64)
    }
}

/// `predicate`: an `i64` in `0..=15` (MLIR's `Arith_CmpFPredicateAttr`).
const PREDICATE: AttrConstraint = AttrConstraint::new(
    "allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15",
    is_predicate_attr,
);

fn is_predicate_attr(ctx: &Context, a: Attr) -> bool {
    ctx.attr_type(a) == Some(ctx.i64_type()) && ctx.attr_i64(a).and_then(CmpFPredicate::from_i64).is_some()
}

fuser_ir::declare_op! {
    pub static CMPF: "arith.cmpf" {
        summary: "Floating-point comparison operation",
        description: "Compares two floats (or vectors/tensors of them, elementwise) and yields \
`i1` (or a same-shaped container of `i1`). Predicates starting with `o` are false when an \
operand is NaN (ordered), those starting with `u` are true then (unordered): `oeq`, `ogt`, \
`oge`, `olt`, `ole`, `one`, `ueq`, `ugt`, `uge`, `ult`, `ule`, `une`; `ord` and `uno` test \
for NaN, `false` and `true` are constant. The predicate is stored as a 64-bit integer.\n\n\
```mlir\n%0 = arith.cmpf olt, %a, %b : f32\n%1 = arith.cmpf uno, %v, %v fastmath<nnan> : vector<4xf64>\n```",
        traits: [PURE],
        operands: { lhs: FLOAT_LIKE, rhs: FLOAT_LIKE },
        results: { result: BOOL_LIKE },
        properties: { predicate: PREDICATE, fastmath: FASTMATH },
        hooks: {
            verify: verify_cmpf,
            fold: fold_cmpf,
            canonicalize: &[super::cmpf_int::CMPF_INT_TO_FP_CONST],
            parse: parse_cmpf,
            print: print_cmpf,
            default_props: super::fastmath::default_fastmath,
        },
    }
}

/// The predicate of a `cmpf` op, if well formed.
pub fn cmpf_predicate(ctx: &Context, ir: &Ir, op: OpId) -> Option<CmpFPredicate> {
    inherent_attr(ctx, ir, op, "predicate").and_then(|a| ctx.attr_i64(a)).and_then(CmpFPredicate::from_i64)
}

/// The state of `arith.cmpf pred, lhs, rhs` with `fastmath<none>`.
pub fn cmpf_state(ctx: &Context, ir: &Ir, pred: CmpFPredicate, lhs: Value, rhs: Value, loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, CMPF.name, loc);
    state.operands = vec![lhs, rhs];
    state.result_types = vec![bool_like_of(ctx, ir.value_type(lhs))];
    let none = super::fastmath::FastMathFlags::NONE.to_attr(ctx);
    state.props = Some(dict_of(ctx, &[("fastmath", none), ("predicate", pred.to_attr(ctx))]));
    state
}

/// Both operands have one type, and the result has its shape.
fn verify_cmpf(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    let lhs = ir.value_type(ir.operand(op, 0));
    if lhs != ir.value_type(ir.operand(op, 1)) {
        return Err(v.op_error(op, "requires all operands to have the same type"));
    }
    if ir.value_type(ir.result(op, 0)) != super::bool_like_of(ctx, lhs) {
        return Err(v.op_error(op, "failed to verify that result type has i1 element type and same shape as operands"));
    }
    Ok(())
}

fn fold_cmpf(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    if ir.num_operands(op) != 2 || ir.num_results(op) != 1 {
        return None;
    }
    let pred = cmpf_predicate(ctx, ir, op)?;
    let ty = ir.value_type(ir.operand(op, 0));
    // Only scalar comparisons fold (mlir-opt-19 leaves splats alone).
    if crate::support::element_type(ctx, ty) != ty {
        return None;
    }
    let mut l = float_value(ctx, operands.first().copied().flatten(), ty);
    let mut r = float_value(ctx, operands.get(1).copied().flatten(), ty);
    // One NaN operand makes the pair unordered whatever the other is.
    if l.is_some_and(|v| v.is_nan()) {
        r = l;
    } else if r.is_some_and(|v| v.is_nan()) {
        l = r;
    }
    let (l, r) = (l?, r?);
    fold_to_attr(ctx.bool_attr(pred.eval(l.compare(&r))))
}

fn parse_cmpf(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let offset = p.current_offset();
    let word = p.parse_optional_bare_id().or_else(|| p.parse_optional_string());
    let Some(pred) = word.as_deref().and_then(CmpFPredicate::from_keyword) else {
        let list = PREDICATES.join(", ");
        return Err(p.emit_error_at(
            offset,
            &format!(
                "expected string or keyword containing one of the following enum values for attribute 'predicate' [{list}]"
            ),
        ));
    };
    p.parse_punct(Punct::Comma)?;
    let (ty, flags, mut entries) = parse_float_operands(p, state)?;
    let ctx = p.ctx();
    state.result_types = vec![bool_like_of(ctx, ty)];
    // A `predicate` in the attribute dictionary wins over the keyword, as in MLIR.
    let predicate = ctx.ident("predicate");
    if !entries.iter().any(|(k, _)| *k == predicate) {
        entries.push((predicate, pred.to_attr(ctx)));
    }
    set_fastmath_props(ctx, state, entries, flags);
    Ok(())
}

fn print_cmpf(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (pred, operands, flags, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        let flags = fastmath_of(ctx, ir, op);
        (cmpf_predicate(ctx, ir, op), ir.operands(op).to_vec(), flags, printed_attr_dict(ctx, ir, op))
    };
    let (Some(pred), [lhs, rhs]) = (pred, operands.as_slice()) else { return };
    let ty = p.ir().value_type(*lhs);
    p.write(" ");
    p.write(pred.keyword());
    p.write(", ");
    p.print_operands(&[*lhs, *rhs]);
    print_fastmath(p, flags);
    p.print_optional_attr_dict(dict, &["predicate", "fastmath"]);
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
    fn predicates_on_ordered_and_unordered_pairs() {
        let lt = Some(Ordering::Less);
        let expect_lt =
            [false, false, false, false, true, true, true, true, false, false, false, true, true, true, false, true];
        let expect_nan =
            [false, false, false, false, false, false, false, false, true, true, true, true, true, true, true, true];
        for i in 0..16u8 {
            assert_eq!(CmpFPredicate(i).eval(lt), expect_lt[i as usize], "{}", CmpFPredicate(i).keyword());
            assert_eq!(CmpFPredicate(i).eval(None), expect_nan[i as usize], "{}", CmpFPredicate(i).keyword());
        }
        assert!(CmpFPredicate::from_keyword("oge").unwrap().eval(Some(Ordering::Equal)));
        assert_eq!(CmpFPredicate::from_i64(16), None);
    }

    #[test]
    fn nan_constant_decides_alone() {
        let mut b = Bench::new();
        let f32t = b.ctx.float_type(FloatKind::F32);
        let x = b.arg(f32t);
        let nan = b.constant(b.ctx.intern_attr(AttrKind::Float { bits: f32::NAN.to_bits() as u128, ty: f32t }));
        let loc = b.ctx.unknown_loc();
        let uno = b.op(cmpf_state(&b.ctx, &b.ir, CmpFPredicate::from_keyword("uno").unwrap(), x, nan, loc));
        assert_eq!(b.fold_int(uno), Some(-1));
        let olt = b.op(cmpf_state(&b.ctx, &b.ir, CmpFPredicate::from_keyword("olt").unwrap(), x, x, loc));
        assert_eq!(b.fold(olt), None);
        assert_eq!(b.verify(olt), Ok(()));
    }
}
