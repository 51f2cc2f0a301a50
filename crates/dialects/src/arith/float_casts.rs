//! The float width casts `arith.extf` (to a wider float type) and `arith.truncf` (to a
//! narrower one), with optional fast-math flags (printed whenever present, `none` included) and,
//! for `truncf`, an optional rounding mode; custom forms
//! `arith.extf %a (fastmath<flags>)? : f16 to f32` and
//! `arith.truncf %a (to_nearest_even|downward|upward|toward_zero|to_nearest_away)? (fastmath<flags>)? : f32 to f16`.
//!
//! Folders follow mlir-opt-19: constants of every float type (scalars, splats, dense) are
//! converted through `ApFloat` when the conversion is exact (`truncf` rounds with its mode and
//! leaves inexact, overflowing and signaling-NaN results alone);
//! `extf(truncf x)` is `x` when both carry `contract` and the types round-trip.

use super::cast_common::{cast_state, fold_cast_constant, parse_cast_types, print_cast_types, verify_cast, width_of};
use super::fastmath::{FASTMATH, FastMathFlags, parse_optional_fastmath};
use super::{FLOAT_LIKE, defined_by, fold_to_attr, fold_to_value};
use crate::support::{inherent_attr, printed_attr_dict, split_inherent};
use fuser_ir::apfloat::RoundingMode;
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::declare::AttrConstraint;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::registry::{FoldResult, VerifyCtx};
use fuser_ir::types::Type;

/// The rounding modes of `truncf`, in MLIR's numbering.
const ROUNDING_MODES: [&str; 5] = ["to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away"];

/// `roundingmode`: an `i32` in `0..=4` (MLIR's `Arith_RoundingModeAttr`).
const ROUNDING_MODE: AttrConstraint = AttrConstraint::new("Floating point rounding mode", is_rounding_mode).optional();

fn is_rounding_mode(ctx: &Context, a: Attr) -> bool {
    ctx.attr_type(a) == Some(ctx.integer_type(32)) && ctx.attr_i64(a).is_some_and(|v| (0..5).contains(&v))
}

fuser_ir::declare_op! {
    pub static EXTF: "arith.extf" {
        summary: "cast from floating-point to wider floating-point",
        description: "Widens a float to a wider float type; the value is preserved exactly \
(elementwise for vectors and tensors).\n\n\
```mlir\n%0 = arith.extf %a : f16 to f32\n%1 = arith.extf %v fastmath<contract> : vector<4xbf16> to vector<4xf64>\n```",
        traits: [PURE],
        operands: { in: FLOAT_LIKE },
        results: { out: FLOAT_LIKE },
        properties: { fastmath: FASTMATH },
        hooks: { verify: verify_extf, fold: fold_extf, parse: parse_extf, print: print_extf },
    }
}

fuser_ir::declare_op! {
    pub static TRUNCF: "arith.truncf" {
        summary: "cast from floating-point to narrower floating-point",
        description: "Narrows a float to a narrower float type, rounding with the given mode \
(to nearest, ties to even, when absent), elementwise for vectors and tensors.\n\n\
```mlir\n%0 = arith.truncf %a : f32 to f16\n%1 = arith.truncf %b toward_zero fastmath<nnan> : f64 to f32\n```",
        traits: [PURE],
        operands: { in: FLOAT_LIKE },
        results: { out: FLOAT_LIKE },
        properties: { roundingmode: ROUNDING_MODE, fastmath: FASTMATH },
        hooks: { verify: verify_truncf, fold: fold_truncf, parse: parse_truncf, print: print_truncf },
    }
}

/// The state of `arith.extf` / `arith.truncf` (`name`) of `input` to `ty`, without flags.
pub fn float_cast_state(ctx: &Context, name: &str, input: Value, ty: Type, loc: Attr) -> OperationState {
    cast_state(ctx, name, input, ty, loc)
}

/// True when `b` is strictly wider than `a` (both floats).
fn wider(ctx: &Context, a: Type, b: Type) -> bool {
    matches!((width_of(ctx, a), width_of(ctx, b)), (Some(x), Some(y)) if y > x)
}

fn verify_extf(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_cast(v, op, wider)
}

fn verify_truncf(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    verify_cast(v, op, |ctx, a, b| wider(ctx, b, a))
}

// ----- folders ------------------------------------------------------------------------------

/// Converts a constant (scalar, splat or dense) to the result type with rounding mode `rm`,
/// when `APFloat::convert` is exact (MLIR's `convertFloatValue`).
fn fold_exact(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
    operands: &[Option<Attr>],
    rm: RoundingMode,
) -> Option<Vec<FoldResult>> {
    let to = ir.value_type(ir.result(op, 0));
    let folded = fold_cast_constant(ctx, operands.first().copied().flatten(), to, |a, elem| {
        super::float_bits::convert_exact(ctx, a, elem, rm)
    });
    fold_to_attr(folded?)
}

/// The rounding mode of a `truncf` (to nearest even when absent).
fn rounding_mode_of(ctx: &Context, ir: &Ir, op: OpId) -> RoundingMode {
    match inherent_attr(ctx, ir, op, "roundingmode").and_then(|a| ctx.attr_i64(a)) {
        Some(1) => RoundingMode::TowardNegative,
        Some(2) => RoundingMode::TowardPositive,
        Some(3) => RoundingMode::TowardZero,
        Some(4) => RoundingMode::NearestTiesToAway,
        _ => RoundingMode::NearestTiesToEven,
    }
}

/// The flags of `op` (absent reads as `none`).
fn flags_of(ctx: &Context, ir: &Ir, op: OpId) -> FastMathFlags {
    inherent_attr(ctx, ir, op, "fastmath").and_then(|a| FastMathFlags::from_attr(ctx, a)).unwrap_or_default()
}

fn fold_extf(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    if ir.num_operands(op) != 1 || ir.num_results(op) != 1 {
        return None;
    }
    let contract = FastMathFlags(1 << 5);
    if let Some(trunc) = defined_by(ctx, ir, ir.operand(op, 0), TRUNCF.name).filter(|&d| ir.num_operands(d) == 1) {
        let src = ir.operand(trunc, 0);
        if ir.value_type(src) == ir.value_type(ir.result(op, 0))
            && flags_of(ctx, ir, trunc).contains(contract)
            && flags_of(ctx, ir, op).contains(contract)
        {
            return fold_to_value(src);
        }
    }
    fold_exact(ctx, ir, op, operands, RoundingMode::NearestTiesToEven)
}

fn fold_truncf(ctx: &Context, ir: &Ir, op: OpId, operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    if ir.num_operands(op) != 1 || ir.num_results(op) != 1 {
        return None;
    }
    fold_exact(ctx, ir, op, operands, rounding_mode_of(ctx, ir, op))
}

// ----- syntax -------------------------------------------------------------------------------

fn parse_extf(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let operand = p.parse_operand()?;
    parse_float_cast_rest(p, state, operand, None)
}

fn parse_truncf(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let operand = p.parse_operand()?;
    let mode = ROUNDING_MODES.iter().position(|m| p.parse_optional_keyword(m));
    parse_float_cast_rest(p, state, operand, mode)
}

/// `(fastmath<flags>)? {attrs}? : T to U` after the operand (and rounding mode).
fn parse_float_cast_rest(
    p: &mut dyn OpAsmParser,
    state: &mut OperationState,
    operand: fuser_ir::asm::UnresolvedOperand,
    mode: Option<usize>,
) -> ParseResult<()> {
    let flags = parse_optional_fastmath(p)?;
    let mut entries = Vec::new();
    p.parse_optional_attr_dict(&mut entries)?;
    let (from, to) = parse_cast_types(p)?;
    state.operands = vec![p.resolve_operand(&operand, from)?];
    state.result_types = vec![to];
    let ctx = p.ctx();
    let (mut props, attrs) = match ctx.op_def(state.name) {
        Some(def) => split_inherent(ctx, def, entries),
        None => (Vec::new(), entries),
    };
    if let Some(m) = mode {
        props.push((ctx.ident("roundingmode"), ctx.int_attr(ctx.integer_type(32), m as i64)));
    }
    if let Some(f) = flags {
        props.push((ctx.ident("fastmath"), f.to_attr(ctx)));
    }
    state.props = (!props.is_empty()).then(|| ctx.dictionary(props));
    state.attrs = ctx.dictionary(attrs);
    Ok(())
}

fn print_extf(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_float_cast(p, op, false);
}

fn print_truncf(p: &mut dyn OpAsmPrinter, op: OpId) {
    print_float_cast(p, op, true);
}

/// ` %in (mode)? (fastmath<flags>)? {attrs}? : T to U`; the flags print when present.
fn print_float_cast(p: &mut dyn OpAsmPrinter, op: OpId, with_mode: bool) {
    let (input, mode, flags, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        let input = (ir.num_operands(op) == 1).then(|| ir.operand(op, 0));
        let mode = inherent_attr(ctx, ir, op, "roundingmode").and_then(|a| ctx.attr_i64(a));
        let flags = inherent_attr(ctx, ir, op, "fastmath").and_then(|a| FastMathFlags::from_attr(ctx, a));
        (input, mode, flags, printed_attr_dict(ctx, ir, op))
    };
    let Some(input) = input else { return };
    p.write(" ");
    p.print_operand(input);
    let mut elided = vec!["fastmath"];
    if with_mode && let Some(name) = mode.and_then(|m| usize::try_from(m).ok()).and_then(|m| ROUNDING_MODES.get(m)) {
        p.write(" ");
        p.write(name);
        elided.push("roundingmode");
    }
    match flags {
        Some(f) => {
            p.write(" fastmath<");
            p.write(&f.keywords());
            p.write(">");
        }
        None => elided.retain(|n| *n != "fastmath"),
    }
    p.print_optional_attr_dict(dict, &elided);
    print_cast_types(p, op);
}

#[cfg(test)]
mod tests {
    use super::super::test_util::Bench;
    use super::*;
    use fuser_ir::attrs::AttrKind;
    use fuser_ir::types::FloatKind;

    fn constant(b: &mut Bench, kind: FloatKind, bits: u128) -> Value {
        let ty = b.ctx.float_type(kind);
        b.constant(b.ctx.intern_attr(AttrKind::Float { bits, ty }))
    }

    #[test]
    fn exact_conversions_fold_and_inexact_truncations_do_not() {
        let mut b = Bench::new();
        let (f16t, f32t, f64t) =
            (b.ctx.float_type(FloatKind::F16), b.ctx.float_type(FloatKind::F32), b.ctx.float_type(FloatKind::F64));
        let loc = b.ctx.unknown_loc();
        let half = constant(&mut b, FloatKind::F16, 0x3e00); // 1.5
        let ext = b.op(float_cast_state(&b.ctx, EXTF.name, half, f64t, loc));
        let expected = b.ctx.intern_attr(AttrKind::Float { bits: 1.5f64.to_bits() as u128, ty: f64t });
        assert_eq!(b.fold(ext), Some(vec![FoldResult::Attr(expected)]));
        let tenth = constant(&mut b, FloatKind::F32, 0.1f32.to_bits() as u128);
        let trunc = b.op(float_cast_state(&b.ctx, TRUNCF.name, tenth, f16t, loc));
        assert_eq!(b.fold(trunc), None);
        assert_eq!(b.verify(trunc), Ok(()));
        let bad = b.op(float_cast_state(&b.ctx, EXTF.name, tenth, f32t, loc));
        assert_eq!(
            b.verify(bad),
            Err("'arith.extf' op operand type 'f32' and result type 'f32' are cast incompatible".into())
        );
    }
}
