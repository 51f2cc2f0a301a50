//! `arith.cmpi`: integer comparison with a predicate stored as an `i64` property (`predicate =
//! 2 : i64` for `slt`); custom form `arith.cmpi slt, %a, %b : i32`. Folds comparisons of a value
//! with itself and of two constants, and `cmpi ne, ext(x : i1), 0` to `x`; canonicalization
//! patterns move a constant left operand to the right, swapping the predicate, as MLIR's folder
//! does, and compare `a` and `b` for `cmpi eq|ne, ext a, ext b`.

use super::{
    BOOL_LIKE, SIGNLESS_INTEGER_LIKE, bool_like_of, fold_to_attr, fold_to_value, is_constant_value, splat_int,
};
use crate::support::{IntConst, dict_of, empty_state, inherent_attr, is_bool_like, printed_attr_dict, split_inherent};
use fuser_ir::apint::ApInt;
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::declare::AttrConstraint;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::registry::{FoldResult, PatternDef, VerifyCtx};
use fuser_ir::rewrite_api::Rewriter;

/// The predicates of `arith.cmpi`, numbered as MLIR stores them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CmpPredicate {
    Eq = 0,
    Ne = 1,
    Slt = 2,
    Sle = 3,
    Sgt = 4,
    Sge = 5,
    Ult = 6,
    Ule = 7,
    Ugt = 8,
    Uge = 9,
}

impl CmpPredicate {
    pub const ALL: [CmpPredicate; 10] = [
        CmpPredicate::Eq,
        CmpPredicate::Ne,
        CmpPredicate::Slt,
        CmpPredicate::Sle,
        CmpPredicate::Sgt,
        CmpPredicate::Sge,
        CmpPredicate::Ult,
        CmpPredicate::Ule,
        CmpPredicate::Ugt,
        CmpPredicate::Uge,
    ];

    pub fn keyword(self) -> &'static str {
        ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"][self as usize]
    }
    pub fn from_keyword(s: &str) -> Option<CmpPredicate> {
        Self::ALL.into_iter().find(|p| p.keyword() == s)
    }
    pub fn from_i64(v: i64) -> Option<CmpPredicate> {
        usize::try_from(v).ok().and_then(|i| Self::ALL.get(i).copied())
    }

    /// The predicate that gives the same answer with the operands swapped.
    pub fn swapped(self) -> CmpPredicate {
        use CmpPredicate::*;
        match self {
            Eq | Ne => self,
            Slt => Sgt,
            Sle => Sge,
            Sgt => Slt,
            Sge => Sle,
            Ult => Ugt,
            Ule => Uge,
            Ugt => Ult,
            Uge => Ule,
        }
    }

    /// True when the predicate holds for equal operands.
    pub fn holds_for_equal(self) -> bool {
        use CmpPredicate::*;
        matches!(self, Eq | Sle | Sge | Ule | Uge)
    }

    /// Evaluates the predicate on two constants of one width.
    pub fn eval(self, l: &ApInt, r: &ApInt) -> bool {
        use CmpPredicate::*;
        use std::cmp::Ordering::*;
        match self {
            Eq => l == r,
            Ne => l != r,
            Slt => l.scmp(r) == Less,
            Sle => l.scmp(r) != Greater,
            Sgt => l.scmp(r) == Greater,
            Sge => l.scmp(r) != Less,
            Ult => l.ucmp(r) == Less,
            Ule => l.ucmp(r) != Greater,
            Ugt => l.ucmp(r) == Greater,
            Uge => l.ucmp(r) != Less,
        }
    }

    /// The `predicate` property value (`N : i64`).
    pub fn to_attr(self, ctx: &Context) -> Attr {
        ctx.int_attr(ctx.i64_type(), self as i64)
    }
}

/// `predicate`: an `i64` in `0..=9` (MLIR's `Arith_CmpIPredicateAttr`).
const PREDICATE: AttrConstraint =
    AttrConstraint::new("allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9", is_predicate_attr);

fn is_predicate_attr(ctx: &Context, a: Attr) -> bool {
    ctx.attr_type(a) == Some(ctx.i64_type()) && ctx.attr_i64(a).and_then(CmpPredicate::from_i64).is_some()
}

fuser_ir::declare_op! {
    pub static CMPI: "arith.cmpi" {
        summary: "Compares two integers with a predicate",
        description: "Compares two integers (or vectors/tensors of them, elementwise) with one of \
the predicates `eq`, `ne`, `slt`, `sle`, `sgt`, `sge`, `ult`, `ule`, `ugt`, `uge` (`s`: as \
signed numbers, `u`: as unsigned numbers) and yields `i1` (or a same-shaped container of \
`i1`). The predicate is stored as a 64-bit integer.\n\n\
```mlir\n%0 = arith.cmpi slt, %a, %b : i32\n```",
        traits: [PURE],
        operands: { lhs: SIGNLESS_INTEGER_LIKE, rhs: SIGNLESS_INTEGER_LIKE },
        results: { result: BOOL_LIKE },
        properties: { predicate: PREDICATE },
        hooks: {
            verify: verify_cmpi,
            fold: fold_cmpi,
            canonicalize: &[CMPI_CONSTANT_RIGHT, CMPI_OF_EXTS],
            parse: parse_cmpi,
            print: print_cmpi,
        },
    }
}

/// The predicate of a `cmpi` op, if well formed.
pub fn predicate(ctx: &Context, ir: &Ir, op: OpId) -> Option<CmpPredicate> {
    inherent_attr(ctx, ir, op, "predicate").and_then(|a| ctx.attr_i64(a)).and_then(CmpPredicate::from_i64)
}

/// What the declaration does not say: both operands have one type, and the result has its
/// shape.
fn verify_cmpi(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    let result = ir.value_type(ir.result(op, 0));
    let lhs = ir.value_type(ir.operand(op, 0));
    if lhs != ir.value_type(ir.operand(op, 1)) {
        return Err(v.op_error(op, "requires all operands to have the same type"));
    }
    if result != bool_like_of(ctx, lhs) {
        return Err(v.op_error(op, "failed to verify that result type has i1 element type and same shape as operands"));
    }
    Ok(())
}

fn fold_cmpi(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    if ir.num_operands(op) != 2 || ir.num_results(op) != 1 {
        return None;
    }
    let pred = predicate(ctx, ir, op)?;
    let (lhs, rhs) = (ir.operand(op, 0), ir.operand(op, 1));
    let result_ty = ir.value_type(ir.result(op, 0));
    if lhs == rhs {
        return fold_to_attr(splat_int(ctx, result_ty, pred.holds_for_equal() as i128)?);
    }
    let ty = ir.value_type(lhs);
    // `cmpi ne, (extsi|extui x), 0` on `i1` elements is `x`.
    if pred == CmpPredicate::Ne
        && super::bitwise::rhs_splat(ctx, operands, ty).as_ref().is_some_and(IntConst::is_zero)
        && let Some(x) = ext_source(ctx, ir, lhs).filter(|&x| is_bool_like(ctx, ir.value_type(x)))
    {
        return fold_to_value(x);
    }
    let folded = super::elementwise::map2(
        ctx,
        operands.first().copied().flatten(),
        operands.get(1).copied().flatten(),
        ty,
        result_ty,
        |a, b| {
            Some(ctx.bool_attr(pred.eval(&crate::support::int_const(ctx, a)?.0, &crate::support::int_const(ctx, b)?.0)))
        },
    )?;
    fold_to_attr(folded)
}

/// The source of `v` when `v` is an `extsi` or `extui`, with the extension's name.
fn ext_of(ctx: &Context, ir: &Ir, v: Value) -> Option<(Value, &'static str)> {
    [super::EXTSI.name, super::EXTUI.name].into_iter().find_map(|name| {
        let d = super::defined_by(ctx, ir, v, name)?;
        (ir.num_operands(d) == 1).then(|| (ir.operand(d, 0), name))
    })
}

fn ext_source(ctx: &Context, ir: &Ir, v: Value) -> Option<Value> {
    ext_of(ctx, ir, v).map(|(x, _)| x)
}

/// `cmpi eq|ne, ext a, ext b` with one extension kind and `a`, `b` of one type compares `a`
/// and `b` (an extension is injective).
static CMPI_OF_EXTS: PatternDef = PatternDef { name: "arith-cmpi-of-exts", apply: cmpi_of_exts };

fn cmpi_of_exts(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let (ctx, ir) = (rw.ctx(), rw.ir());
    if ir.num_operands(op) != 2 || ir.num_results(op) != 1 {
        return false;
    }
    let Some(pred) = predicate(ctx, ir, op).filter(|p| matches!(p, CmpPredicate::Eq | CmpPredicate::Ne)) else {
        return false;
    };
    let (Some((a, ka)), Some((b, kb))) = (ext_of(ctx, ir, ir.operand(op, 0)), ext_of(ctx, ir, ir.operand(op, 1)))
    else {
        return false;
    };
    if ka != kb || ir.value_type(a) != ir.value_type(b) {
        return false;
    }
    let state = cmpi_state(ctx, ir, pred, a, b, ir.loc(op));
    rw.set_insertion_point_before(op);
    let new = rw.create_op(state);
    let v = rw.ir().result(new, 0);
    rw.replace_op(op, &[v]);
    true
}

/// Moves a constant left operand to the right, swapping the predicate.
static CMPI_CONSTANT_RIGHT: PatternDef = PatternDef { name: "arith-cmpi-constant-right", apply: cmpi_constant_right };

fn cmpi_constant_right(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let (ctx, ir) = (rw.ctx(), rw.ir());
    if ir.num_operands(op) != 2 {
        return false;
    }
    let (l, r) = (ir.operand(op, 0), ir.operand(op, 1));
    let Some(pred) = predicate(ctx, ir, op) else { return false };
    if !is_constant_value(ctx, ir, l) || is_constant_value(ctx, ir, r) {
        return false;
    }
    let props = ir.props(op).unwrap_or_else(|| ctx.empty_dict());
    let props = ctx.dict_set(props, "predicate", Some(pred.swapped().to_attr(ctx)));
    let ir = rw.ir_mut();
    ir.set_operand(op, 0, r);
    ir.set_operand(op, 1, l);
    ir.set_props(op, Some(props));
    rw.notify_changed(op);
    true
}

fn parse_cmpi(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let offset = p.current_offset();
    let word = p.parse_optional_bare_id().or_else(|| p.parse_optional_string());
    let Some(pred) = word.as_deref().and_then(CmpPredicate::from_keyword) else {
        return Err(p.emit_error_at(
            offset,
            "expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge]",
        ));
    };
    p.parse_punct(Punct::Comma)?;
    let lhs = p.parse_operand()?;
    p.parse_punct(Punct::Comma)?;
    let rhs = p.parse_operand()?;
    let mut entries = Vec::new();
    p.parse_optional_attr_dict(&mut entries)?;
    p.parse_punct(Punct::Colon)?;
    let ty = p.parse_type()?;
    // The generated parser checks the written type against `lhs`'s constraint.
    if !super::SIGNLESS_INTEGER_LIKE.check.is_some_and(|f| f(p.ctx(), ty)) {
        let msg = format!("'lhs' must be signless-integer-like, but got '{}'", crate::support::type_str(p.ctx(), ty));
        return Err(p.emit_error_at(p.name_offset(), &msg));
    }
    state.operands = vec![p.resolve_operand(&lhs, ty)?, p.resolve_operand(&rhs, ty)?];
    let ctx = p.ctx();
    state.result_types = vec![bool_like_of(ctx, ty)];
    let (mut props, attrs) = split_inherent(ctx, &CMPI, entries);
    // A `predicate` in the attribute dictionary wins over the keyword, as in MLIR.
    if !props.iter().any(|(k, _)| ctx.ident_str(*k) == "predicate") {
        props.push((ctx.ident("predicate"), pred.to_attr(ctx)));
    }
    state.props = Some(ctx.dictionary(props));
    state.attrs = ctx.dictionary(attrs);
    Ok(())
}

fn print_cmpi(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (pred, operands, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        (predicate(ctx, ir, op), ir.operands(op).to_vec(), printed_attr_dict(ctx, ir, op))
    };
    let (Some(pred), [lhs, rhs]) = (pred, operands.as_slice()) else { return };
    let ty = p.ir().value_type(*lhs);
    p.write(" ");
    p.write(pred.keyword());
    p.write(", ");
    p.print_operands(&[*lhs, *rhs]);
    p.print_optional_attr_dict(dict, &["predicate"]);
    p.write(" : ");
    p.print_type(ty);
}

/// The state of `arith.cmpi pred, lhs, rhs`.
pub fn cmpi_state(ctx: &Context, ir: &Ir, pred: CmpPredicate, lhs: Value, rhs: Value, loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, CMPI.name, loc);
    state.operands = vec![lhs, rhs];
    state.result_types = vec![bool_like_of(ctx, ir.value_type(lhs))];
    state.props = Some(dict_of(ctx, &[("predicate", pred.to_attr(ctx))]));
    state
}

#[cfg(test)]
mod tests {
    use super::super::test_util::Bench;
    use super::*;

    fn cmp(b: &mut Bench, p: CmpPredicate, l: Value, r: Value) -> OpId {
        let state = cmpi_state(&b.ctx, &b.ir, p, l, r, b.ctx.unknown_loc());
        b.op(state)
    }

    #[test]
    fn self_comparisons_fold() {
        let mut b = Bench::new();
        let x = b.arg(b.ctx.integer_type(32));
        for p in CmpPredicate::ALL {
            let op = cmp(&mut b, p, x, x);
            assert_eq!(b.fold_int(op), Some(-(p.holds_for_equal() as i128)), "{p:?}");
        }
    }

    #[test]
    fn constant_comparisons_fold_signed_and_unsigned() {
        let mut b = Bench::new();
        let i32t = b.ctx.integer_type(32);
        let (m1, c3) = (b.int(i32t, -1), b.int(i32t, 3));
        let slt = cmp(&mut b, CmpPredicate::Slt, m1, c3);
        let ult = cmp(&mut b, CmpPredicate::Ult, m1, c3);
        assert_eq!(b.fold_int(slt), Some(-1)); // i1 true reads as -1 when signed
        assert_eq!(b.fold_int(ult), Some(0));
        let x = b.arg(i32t);
        let open = cmp(&mut b, CmpPredicate::Slt, c3, x);
        assert_eq!(b.fold(open), None);
    }

    #[test]
    fn i1_comparisons_with_constants_stay() {
        // mlir-opt-19 keeps `x != false` and `x == true` (no i1 identity fold).
        let mut b = Bench::new();
        let x = b.arg(b.ctx.i1_type());
        let (f, t) = (b.constant(b.ctx.bool_attr(false)), b.constant(b.ctx.bool_attr(true)));
        let ne = cmp(&mut b, CmpPredicate::Ne, x, f);
        let eq = cmp(&mut b, CmpPredicate::Eq, x, t);
        assert_eq!((b.fold(ne), b.fold(eq)), (None, None));
    }

    #[test]
    fn verifier_checks_predicate_and_result() {
        let mut b = Bench::new();
        let i32t = b.ctx.integer_type(32);
        let x = b.arg(i32t);
        let op = cmp(&mut b, CmpPredicate::Eq, x, x);
        assert_eq!(b.verify(op), Ok(()));
        let r = b.ir.result(op, 0);
        b.ir.set_value_type(r, i32t);
        assert_eq!(b.verify(op), Err("'arith.cmpi' op result #0 must be bool-like, but got 'i32'".into()));
        assert_eq!(CmpPredicate::from_i64(10), None);
        assert_eq!(CmpPredicate::Slt.swapped(), CmpPredicate::Sgt);
    }
}
