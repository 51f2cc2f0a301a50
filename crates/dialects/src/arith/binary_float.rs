//! The binary float ops `arith.addf`, `subf`, `mulf`, `divf`, `remf`, `maximumf`, `minimumf`,
//! `maxnumf`, `minnumf`: two operands and a result of one floating-point-like type, with
//! fast-math flags. Custom form `arith.addf %a, %b (fastmath<flags>)? {attrs}? : f32`.
//!
//! Folders follow mlir-opt-19: identities (`x + -0.0`, `x - +0.0`, `x * 1.0`, `x / 1.0`,
//! `maximumf/maxnumf(x, -inf)`, `minimumf/minnumf(x, +inf)`, `max/min(x, x)`) and constant
//! evaluation of constants of every float type through `ApFloat` (`float_const`): scalars,
//! splats and other dense vectors/tensors elementwise. As in LLVM 19, `maxnumf` constants fold
//! with IEEE `maximum` (NaN-propagating) while `minnumf` folds with `minNum`. `mulf(negf a, negf b)` and
//! `divf(negf a, negf b)` canonicalize to `mulf/divf(a, b)`.

use super::fastmath::{FASTMATH, default_fastmath, fastmath_of, parse_optional_fastmath, print_fastmath};
use super::float_const::{ap_attr, ap_of, float_splat_is};
use super::{FLOAT_LIKE, MOVE_CONSTANT_RIGHT, defined_by, fold_to_attr, fold_to_value};
use crate::support::{empty_state, printed_attr_dict, split_inherent};
use fuser_ir::apfloat::{ApFloat, RoundingMode};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::registry::{FoldResult, PatternDef, VerifyCtx};
use fuser_ir::rewrite_api::Rewriter;
use fuser_ir::types::Type;

macro_rules! float_binary_op {
    ($name:ident, $mnemonic:literal, $summary:literal, $description:literal, [$($trait:ident)|*],
     $fold:ident, [$($pattern:expr),*]) => {
        fuser_ir::declare_op! {
            pub static $name: $mnemonic {
                summary: $summary,
                description: $description,
                traits: [$($trait)|*],
                operands: { lhs: FLOAT_LIKE, rhs: FLOAT_LIKE },
                results: { result: FLOAT_LIKE },
                properties: { fastmath: FASTMATH },
                hooks: {
                    verify: verify_float_binary,
                    fold: $fold,
                    canonicalize: &[$($pattern),*],
                    parse: parse_float_binary,
                    print: print_float_binary,
                    default_props: default_fastmath,
                },
            }
        }
    };
}

float_binary_op!(
    ADDF,
    "arith.addf",
    "Floating point addition",
    "Adds two floats (IEEE 754, round to nearest even), elementwise for vectors and tensors.\n\n\
```mlir\n%0 = arith.addf %a, %b : f32\n%1 = arith.addf %a, %b fastmath<nnan,ninf> : f64\n```",
    [PURE | SAME_OPERANDS_AND_RESULT_TYPE | COMMUTATIVE],
    fold_addf,
    [MOVE_CONSTANT_RIGHT]
);

float_binary_op!(
    SUBF,
    "arith.subf",
    "Floating point subtraction",
    "Subtracts the second float from the first.\n\n```mlir\n%0 = arith.subf %a, %b : f32\n```",
    [PURE | SAME_OPERANDS_AND_RESULT_TYPE],
    fold_subf,
    []
);

float_binary_op!(
    MULF,
    "arith.mulf",
    "Floating point multiplication",
    "Multiplies two floats. The product of two negations is the product of the negated \
values.\n\n```mlir\n%0 = arith.mulf %a, %b fastmath<fast> : vector<4xf32>\n```",
    [PURE | SAME_OPERANDS_AND_RESULT_TYPE | COMMUTATIVE],
    fold_mulf,
    [MOVE_CONSTANT_RIGHT, MULF_OF_NEGF]
);

float_binary_op!(
    DIVF,
    "arith.divf",
    "Floating point division",
    "Divides the first float by the second.\n\n```mlir\n%0 = arith.divf %a, %b : f64\n```",
    [PURE | SAME_OPERANDS_AND_RESULT_TYPE],
    fold_divf,
    [DIVF_OF_NEGF]
);

float_binary_op!(
    REMF,
    "arith.remf",
    "Floating point division remainder",
    "The remainder of the division truncated towards zero (C's `fmod`); its sign is that of \
the dividend.\n\n```mlir\n%0 = arith.remf %a, %b : f32\n```",
    [PURE | SAME_OPERANDS_AND_RESULT_TYPE],
    fold_remf,
    []
);

float_binary_op!(
    MAXIMUMF,
    "arith.maximumf",
    "Floating-point maximum",
    "The larger operand; NaN if either operand is NaN, and `+0.0` is larger than `-0.0` (IEEE \
754-2019 `maximum`).\n\n```mlir\n%0 = arith.maximumf %a, %b : f32\n```",
    [PURE | SAME_OPERANDS_AND_RESULT_TYPE | COMMUTATIVE],
    fold_maximumf,
    [MOVE_CONSTANT_RIGHT]
);

float_binary_op!(
    MINIMUMF,
    "arith.minimumf",
    "Floating-point minimum",
    "The smaller operand; NaN if either operand is NaN, and `-0.0` is smaller than `+0.0` \
(IEEE 754-2019 `minimum`).\n\n```mlir\n%0 = arith.minimumf %a, %b : f32\n```",
    [PURE | SAME_OPERANDS_AND_RESULT_TYPE | COMMUTATIVE],
    fold_minimumf,
    [MOVE_CONSTANT_RIGHT]
);

float_binary_op!(
    MAXNUMF,
    "arith.maxnumf",
    "Floating-point maximum number",
    "The larger operand; when one operand is NaN, the other (IEEE 754-2008 `maxNum`).\n\n\
```mlir\n%0 = arith.maxnumf %a, %b : f32\n```",
    [PURE | SAME_OPERANDS_AND_RESULT_TYPE | COMMUTATIVE],
    fold_maxnumf,
    [MOVE_CONSTANT_RIGHT]
);

float_binary_op!(
    MINNUMF,
    "arith.minnumf",
    "Floating-point minimum number",
    "The smaller operand; when one operand is NaN, the other (IEEE 754-2008 `minNum`).\n\n\
```mlir\n%0 = arith.minnumf %a, %b : f32\n```",
    [PURE | SAME_OPERANDS_AND_RESULT_TYPE | COMMUTATIVE],
    fold_minnumf,
    [MOVE_CONSTANT_RIGHT]
);

/// The state of the binary float op `name` (e.g. `"arith.addf"`) with `fastmath<none>`.
pub fn float_binary_state(ctx: &Context, name: &str, lhs: Value, rhs: Value, ty: Type, loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, name, loc);
    state.operands = vec![lhs, rhs];
    state.result_types = vec![ty];
    state.props = Some(crate::support::dict_of(ctx, &default_fastmath(ctx)));
    state
}

// ----- verifier and syntax ------------------------------------------------------------------

/// Both operands have exactly the result type.
fn verify_float_binary(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let ir = v.ir;
    let ty = ir.value_type(ir.result(op, 0));
    if ir.value_type(ir.operand(op, 0)) != ty || ir.value_type(ir.operand(op, 1)) != ty {
        return Err(v.op_error(op, "requires the same type for all operands and results"));
    }
    Ok(())
}

/// `%a, %b (fastmath<flags>)? {attrs}? : type`.
fn parse_float_binary(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let (ty, flags, entries) = parse_float_operands(p, state)?;
    state.result_types = vec![ty];
    set_fastmath_props(p.ctx(), state, entries, flags);
    Ok(())
}

/// The parsed type, fastmath clause and attribute dictionary of two float operands.
pub(crate) type FloatOperands = (Type, Option<super::fastmath::FastMathFlags>, Vec<(fuser_ir::Ident, Attr)>);

/// `%a, %b (fastmath<flags>)? {attrs}? : type`, shared by the binary ops and `cmpf` (after its
/// predicate): sets the operands, returns their type, the flags and the dictionary entries.
pub(crate) fn parse_float_operands(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<FloatOperands> {
    let lhs = p.parse_operand()?;
    p.parse_punct(Punct::Comma)?;
    let rhs = p.parse_operand()?;
    let flags = parse_optional_fastmath(p)?;
    let mut entries = Vec::new();
    p.parse_optional_attr_dict(&mut entries)?;
    p.parse_punct(Punct::Colon)?;
    let ty = p.parse_type()?;
    // `cmpf`'s generated parser checks the written type against `lhs`'s constraint (the
    // binary ops' format names the result type, which is checked by the verifier).
    let is_cmpf = p.ctx().op_name_str(state.name) == super::CMPF.name;
    if is_cmpf && !super::FLOAT_LIKE.check.is_some_and(|f| f(p.ctx(), ty)) {
        let msg = format!("'lhs' must be floating-point-like, but got '{}'", crate::support::type_str(p.ctx(), ty));
        return Err(p.emit_error_at(p.name_offset(), &msg));
    }
    state.operands = vec![p.resolve_operand(&lhs, ty)?, p.resolve_operand(&rhs, ty)?];
    Ok((ty, flags, entries))
}

/// Splits the parsed dictionary into properties and attributes and sets the `fastmath`
/// property from the clause (the dictionary's entry wins, as in MLIR's generated parser).
pub(crate) fn set_fastmath_props(
    ctx: &Context,
    state: &mut OperationState,
    entries: crate::support::Entries,
    flags: Option<super::fastmath::FastMathFlags>,
) {
    let (mut props, attrs) = match ctx.op_def(state.name) {
        Some(def) => split_inherent(ctx, def, entries),
        None => (Vec::new(), entries),
    };
    if !props.iter().any(|(k, _)| ctx.ident_str(*k) == "fastmath") {
        props.push((ctx.ident("fastmath"), flags.unwrap_or_default().to_attr(ctx)));
    }
    state.props = Some(ctx.dictionary(props));
    state.attrs = ctx.dictionary(attrs);
}

fn print_float_binary(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (operands, flags, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        (ir.operands(op).to_vec(), fastmath_of(ctx, ir, op), printed_attr_dict(ctx, ir, op))
    };
    let ty = p.ir().results(op).first().map(|&r| p.ir().value_type(r));
    let ([lhs, rhs], Some(ty)) = (operands.as_slice(), ty) else { return };
    p.write(" ");
    p.print_operands(&[*lhs, *rhs]);
    print_fastmath(p, flags);
    p.print_optional_attr_dict(dict, &["fastmath"]);
    p.write(" : ");
    p.print_type(ty);
}

// ----- folders ------------------------------------------------------------------------------

/// The operands, result type and known constant operands of a well-formed binary float op.
struct Inputs {
    lhs: Value,
    rhs: Value,
    ty: Type,
    l_attr: Option<Attr>,
    r_attr: Option<Attr>,
}

fn inputs(ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Inputs> {
    if ir.num_operands(op) != 2 || ir.num_results(op) != 1 {
        return None;
    }
    let ty = ir.value_type(ir.result(op, 0));
    let attr = |i: usize| operands.get(i).copied().flatten();
    Some(Inputs { lhs: ir.operand(op, 0), rhs: ir.operand(op, 1), ty, l_attr: attr(0), r_attr: attr(1) })
}

impl Inputs {
    /// True when the right operand is a constant whose every element satisfies `pred`.
    fn rhs_is(&self, ctx: &Context, pred: impl Fn(&ApFloat) -> bool) -> bool {
        float_splat_is(ctx, self.r_attr, pred)
    }

    /// Evaluates two constants with `f` on their `ApFloat` values (round to nearest even in
    /// the element type), elementwise for vectors and tensors.
    fn eval(&self, ctx: &Context, f: impl Fn(&ApFloat, &ApFloat) -> ApFloat) -> Option<Vec<FoldResult>> {
        let elem = crate::support::element_type(ctx, self.ty);
        let folded = super::elementwise::map2(ctx, self.l_attr, self.r_attr, self.ty, self.ty, |a, b| {
            let (l, r) = (ap_of(ctx, a)?, ap_of(ctx, b)?);
            Some(ap_attr(ctx, elem, &f(&l, &r)))
        })?;
        fold_to_attr(folded)
    }
}

const RNE: RoundingMode = RoundingMode::NearestTiesToEven;

fn is_neg_zero(v: &ApFloat) -> bool {
    v.is_zero() && v.is_negative()
}

fn is_pos_zero(v: &ApFloat) -> bool {
    v.is_zero() && !v.is_negative()
}

fn is_one(v: &ApFloat) -> bool {
    v.is_exactly(1.0)
}

fn is_inf(v: &ApFloat, negative: bool) -> bool {
    v.is_infinity() && v.is_negative() == negative
}

fn fold_addf(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ir, op, operands)?;
    if x.rhs_is(ctx, is_neg_zero) {
        return fold_to_value(x.lhs);
    }
    x.eval(ctx, |a, b| a.add(b, RNE).0)
}

fn fold_subf(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ir, op, operands)?;
    if x.rhs_is(ctx, is_pos_zero) {
        return fold_to_value(x.lhs);
    }
    x.eval(ctx, |a, b| a.sub(b, RNE).0)
}

fn fold_mulf(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ir, op, operands)?;
    if x.rhs_is(ctx, is_one) {
        return fold_to_value(x.lhs);
    }
    x.eval(ctx, |a, b| a.mul(b, RNE).0)
}

fn fold_divf(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ir, op, operands)?;
    if x.rhs_is(ctx, is_one) {
        return fold_to_value(x.lhs);
    }
    x.eval(ctx, |a, b| a.div(b, RNE).0)
}

fn fold_remf(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    inputs(ir, op, operands)?.eval(ctx, |a, b| a.rem(b).0)
}

fn fold_maximumf(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ir, op, operands)?;
    if x.lhs == x.rhs || x.rhs_is(ctx, |v| is_inf(v, true)) {
        return fold_to_value(x.lhs);
    }
    x.eval(ctx, ApFloat::maximum)
}

fn fold_minimumf(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ir, op, operands)?;
    if x.lhs == x.rhs || x.rhs_is(ctx, |v| is_inf(v, false)) {
        return fold_to_value(x.lhs);
    }
    x.eval(ctx, ApFloat::minimum)
}

fn fold_maxnumf(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    // mlir-opt-19 folds `maxnumf` constants like `maximumf` (NaN-propagating), `-inf` identity.
    let x = inputs(ir, op, operands)?;
    if x.lhs == x.rhs || x.rhs_is(ctx, |v| is_inf(v, true)) {
        return fold_to_value(x.lhs);
    }
    x.eval(ctx, ApFloat::maximum)
}

fn fold_minnumf(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let x = inputs(ir, op, operands)?;
    if x.lhs == x.rhs || x.rhs_is(ctx, |v| is_inf(v, false)) {
        return fold_to_value(x.lhs);
    }
    x.eval(ctx, ApFloat::minnum)
}

// ----- canonicalization ---------------------------------------------------------------------

static MULF_OF_NEGF: PatternDef = PatternDef { name: "arith-mulf-of-negf", apply: strip_negations };
static DIVF_OF_NEGF: PatternDef = PatternDef { name: "arith-divf-of-negf", apply: strip_negations };

/// `op(negf a, negf b)` to `op(a, b)` when `a` and `b` have the result type.
fn strip_negations(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let (ctx, ir) = (rw.ctx(), rw.ir());
    if ir.num_operands(op) != 2 || ir.num_results(op) != 1 {
        return false;
    }
    let inner = |v: Value| {
        let d = defined_by(ctx, ir, v, super::NEGF.name)?;
        (ir.num_operands(d) == 1).then(|| ir.operand(d, 0))
    };
    let (Some(a), Some(b)) = (inner(ir.operand(op, 0)), inner(ir.operand(op, 1))) else { return false };
    let ty = ir.value_type(ir.result(op, 0));
    if ir.value_type(a) != ty || ir.value_type(b) != ty {
        return false;
    }
    let ir = rw.ir_mut();
    ir.set_operand(op, 0, a);
    ir.set_operand(op, 1, b);
    rw.notify_changed(op);
    true
}

#[cfg(test)]
mod tests {
    use super::super::test_util::Bench;
    use super::*;
    use fuser_ir::attrs::AttrKind;
    use fuser_ir::types::FloatKind;

    fn bin(b: &mut Bench, name: &str, l: Value, r: Value) -> OpId {
        let ty = b.ir.value_type(l);
        let state = float_binary_state(&b.ctx, name, l, r, ty, b.ctx.unknown_loc());
        b.op(state)
    }

    fn f32c(b: &mut Bench, v: f32) -> Value {
        let ty = b.ctx.float_type(FloatKind::F32);
        let a = b.ctx.intern_attr(AttrKind::Float { bits: v.to_bits() as u128, ty });
        b.constant(a)
    }

    fn folded_f32(b: &Bench, op: OpId) -> Option<f32> {
        match b.fold(op)?.as_slice() {
            [FoldResult::Attr(a)] => match b.ctx.attr_kind(*a) {
                AttrKind::Float { bits, .. } => Some(f32::from_bits(*bits as u32)),
                _ => None,
            },
            _ => None,
        }
    }

    #[test]
    fn identities() {
        let mut b = Bench::new();
        let x = b.arg(b.ctx.float_type(FloatKind::F32));
        let (nz, pz, one, inf) =
            (f32c(&mut b, -0.0), f32c(&mut b, 0.0), f32c(&mut b, 1.0), f32c(&mut b, f32::INFINITY));
        let nan = f32c(&mut b, f32::NAN);
        let ninf = f32c(&mut b, f32::NEG_INFINITY);
        let folds = [
            bin(&mut b, "arith.addf", x, nz),
            bin(&mut b, "arith.subf", x, pz),
            bin(&mut b, "arith.mulf", x, one),
            bin(&mut b, "arith.divf", x, one),
            bin(&mut b, "arith.maximumf", x, ninf),
            bin(&mut b, "arith.minimumf", x, inf),
            bin(&mut b, "arith.maxnumf", x, ninf),
            bin(&mut b, "arith.minnumf", x, inf),
            bin(&mut b, "arith.minnumf", x, x),
        ];
        for op in folds {
            assert_eq!(b.fold_value(op), Some(x), "{}", b.ctx.op_name_str(b.ir.op_name(op)));
        }
        let keeps =
            [bin(&mut b, "arith.addf", x, pz), bin(&mut b, "arith.subf", x, nz), bin(&mut b, "arith.maxnumf", x, nan)];
        for op in keeps {
            assert_eq!(b.fold(op), None);
        }
    }

    #[test]
    fn constants_round_to_the_type() {
        let mut b = Bench::new();
        let (a, c) = (f32c(&mut b, 0.1), f32c(&mut b, 0.2));
        let add = bin(&mut b, "arith.addf", a, c);
        assert_eq!(folded_f32(&b, add), Some(0.1f32 + 0.2f32));
        let (m, n) = (f32c(&mut b, -7.5), f32c(&mut b, 2.0));
        let rem = bin(&mut b, "arith.remf", m, n);
        assert_eq!(folded_f32(&b, rem), Some(-1.5));
        let (pz, nz) = (f32c(&mut b, 0.0), f32c(&mut b, -0.0));
        let max = bin(&mut b, "arith.maximumf", nz, pz);
        let min = bin(&mut b, "arith.minimumf", pz, nz);
        assert_eq!(folded_f32(&b, max).map(f32::to_bits), Some(0.0f32.to_bits()));
        assert_eq!(folded_f32(&b, min).map(f32::to_bits), Some((-0.0f32).to_bits()));
        let nan = f32c(&mut b, f32::NAN);
        let maxnum = bin(&mut b, "arith.maxnumf", n, nan);
        let minnum = bin(&mut b, "arith.minnumf", nan, n);
        let maximum = bin(&mut b, "arith.maximumf", nan, n);
        assert!(folded_f32(&b, maxnum).is_some_and(f32::is_nan));
        assert_eq!(folded_f32(&b, minnum), Some(2.0));
        assert!(folded_f32(&b, maximum).is_some_and(f32::is_nan));
        let zero_by_zero = bin(&mut b, "arith.divf", pz, pz);
        assert_eq!(folded_f32(&b, zero_by_zero).map(f32::to_bits), Some(0x7fc0_0000));
    }

    #[test]
    fn verifier_requires_one_type() {
        let mut b = Bench::new();
        let (f32t, f64t) = (b.ctx.float_type(FloatKind::F32), b.ctx.float_type(FloatKind::F64));
        let (x, y) = (b.arg(f32t), b.arg(f64t));
        let ok = bin(&mut b, "arith.addf", x, x);
        assert_eq!(b.verify(ok), Ok(()));
        let bad = bin(&mut b, "arith.addf", x, y);
        assert_eq!(b.verify(bad), Err("'arith.addf' op requires the same type for all operands and results".into()));
        let i32t = b.ctx.integer_type(32);
        let i = b.arg(i32t);
        let int = bin(&mut b, "arith.mulf", i, i);
        assert_eq!(b.verify(int), Err("'arith.mulf' op operand #0 must be floating-point-like, but got 'i32'".into()));
    }
}
