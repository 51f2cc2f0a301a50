//! The canonicalization of `arith.cmpf` comparing a converted integer (`sitofp`/`uitofp`) with
//! a float constant: when the conversion cannot change the answer, the comparison becomes a
//! `cmpi` of the integer with the constant rounded towards zero (the predicate adjusted for a
//! fractional constant), or a constant `true`/`false` when the constant lies outside the
//! integer's range. `ord` is always true and `uno` always false after a conversion. Written
//! from mlir-opt-19's behaviour; scalar constants of every float type (through `ApFloat`) and
//! integers of any width.

use super::cmpf::{CmpFPredicate, cmpf_predicate};
use super::float_const::ap_of;
use super::int_float_casts::{int_to_float, int_value_attr};
use super::{CmpPredicate, SITOFP, UITOFP, cmpi_state, constant_state, defined_by};
use fuser_ir::apfloat::ApFloat;
use fuser_ir::apint::ApInt;
use fuser_ir::ir::{OpId, OperationState, Value};
use fuser_ir::registry::{FoldResult, PatternDef};
use fuser_ir::rewrite_api::Rewriter;
use fuser_ir::types::TypeKind;
use std::cmp::Ordering;

pub(super) static CMPF_INT_TO_FP_CONST: PatternDef =
    PatternDef { name: "arith-cmpf-int-to-fp-const", apply: cmpf_int_to_fp_const };

/// What the comparison becomes.
enum Outcome {
    Constant(bool),
    Compare(CmpPredicate, ApInt),
}

/// The integer predicate of a float predicate on converted integers.
fn int_predicate(p: CmpFPredicate, unsigned: bool) -> Option<CmpPredicate> {
    use CmpPredicate::*;
    let pick = |s, u| Some(if unsigned { u } else { s });
    match p.keyword() {
        "oeq" | "ueq" => Some(Eq),
        "ogt" | "ugt" => pick(Sgt, Ugt),
        "oge" | "uge" => pick(Sge, Uge),
        "olt" | "ult" => pick(Slt, Ult),
        "ole" | "ule" => pick(Sle, Ule),
        "one" | "une" => Some(Ne),
        _ => None,
    }
}

/// The `width`-bit integer with only the bits `from..to` set.
fn bit_range(width: u32, from: u32, to: u32) -> ApInt {
    let mut bytes = vec![0u8; (width as usize).div_ceil(8)];
    for i in from..to {
        bytes[i as usize / 8] |= 1 << (i % 8);
    }
    ApInt::from_le_bytes(width, &bytes)
}

/// `a < b` (ordered).
fn less(a: &ApFloat, b: &ApFloat) -> bool {
    a.compare(b) == Some(Ordering::Less)
}

/// Decides the rewrite of `pred(convert(x : iW), rhs)` (MLIR's `CmpFIntToFPConst`).
fn decide(pred: CmpFPredicate, rhs: &ApFloat, width: u32, unsigned: bool) -> Option<Outcome> {
    let k = rhs.kind();
    let mantissa = ApFloat::precision(k)? as i64;
    let value_bits = if unsigned { width as i64 } else { width as i64 - 1 };
    if width as i64 > mantissa {
        let exponent = rhs.ilogb();
        if exponent == i32::MAX {
            if (ApFloat::max_exponent(k)? as i64) < value_bits {
                return None;
            }
        } else if mantissa <= exponent as i64 && exponent as i64 <= value_bits {
            return None;
        }
    }
    match pred.keyword() {
        "ord" => return Some(Outcome::Constant(true)),
        "uno" => return Some(Outcome::Constant(false)),
        _ => {}
    }
    let mut p = int_predicate(pred, unsigned)?;
    use CmpPredicate::*;
    let (min, max) = if unsigned {
        (ApInt::zero(width), bit_range(width, 0, width))
    } else {
        (bit_range(width, width - 1, width), bit_range(width, 0, width - 1))
    };
    let convert = |v: &ApInt| int_to_float(k, v, !unsigned);
    if less(&convert(&max)?, rhs) {
        return Some(Outcome::Constant(matches!(p, Ne | Slt | Sle | Ult | Ule)));
    }
    if less(rhs, &convert(&min)?) {
        return Some(Outcome::Constant(matches!(p, Ne | Sgt | Sge | Ugt | Uge)));
    }
    let (n, _) = rhs.to_apint_toward_zero(width, !unsigned)?;
    let negative = rhs.is_negative();
    if !rhs.is_zero() && convert(&n)?.compare(rhs) != Some(Ordering::Equal) {
        match p {
            Ne => return Some(Outcome::Constant(true)),
            Eq => return Some(Outcome::Constant(false)),
            Ule if negative => return Some(Outcome::Constant(false)),
            Sle if negative => p = Slt,
            Ult if negative => return Some(Outcome::Constant(false)),
            Ult => p = Ule,
            Slt if !negative => p = Sle,
            Ugt if negative => return Some(Outcome::Constant(true)),
            Sgt if negative => p = Sge,
            Uge if negative => return Some(Outcome::Constant(true)),
            Uge => p = Ugt,
            Sge if !negative => p = Sgt,
            _ => {}
        }
    }
    Some(Outcome::Compare(p, n))
}

fn cmpf_int_to_fp_const(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let (ctx, ir) = (rw.ctx(), rw.ir());
    if ir.num_operands(op) != 2 || ir.num_results(op) != 1 {
        return false;
    }
    let Some(pred) = cmpf_predicate(ctx, ir, op) else { return false };
    let rhs_attr = ir.defining_op(ir.operand(op, 1)).and_then(|d| {
        let def = ctx.op_def(ir.op_name(d))?;
        match def.fold?(ctx, ir, d, &[])?.as_slice() {
            [FoldResult::Attr(a)] => Some(*a),
            _ => None,
        }
    });
    let Some(rhs) = rhs_attr.and_then(|a| ap_of(ctx, a)) else { return false };
    if rhs.is_nan() {
        return false;
    }
    let lhs = ir.operand(op, 0);
    let (int_val, unsigned) = match (defined_by(ctx, ir, lhs, SITOFP.name), defined_by(ctx, ir, lhs, UITOFP.name)) {
        (Some(d), _) if ir.num_operands(d) == 1 => (ir.operand(d, 0), false),
        (_, Some(d)) if ir.num_operands(d) == 1 => (ir.operand(d, 0), true),
        _ => return false,
    };
    let int_ty = ir.value_type(int_val);
    let Some(width) = (match ctx.type_kind(int_ty) {
        TypeKind::Integer { width, .. } if *width > 0 => Some(*width),
        _ => None,
    }) else {
        return false;
    };
    let Some(outcome) = decide(pred, &rhs, width, unsigned) else { return false };
    let loc = ir.loc(op);
    rw.set_insertion_point_before(op);
    let result = match outcome {
        Outcome::Constant(b) => {
            let Some(state) = constant_state(rw.ctx(), rw.ctx().bool_attr(b), loc) else { return false };
            create(rw, state)
        }
        Outcome::Compare(p, n) => {
            let c = int_value_attr(rw.ctx(), int_ty, n);
            let Some(state) = constant_state(rw.ctx(), c, loc) else { return false };
            let c = create(rw, state);
            let state = cmpi_state(rw.ctx(), rw.ir(), p, int_val, c, loc);
            create(rw, state)
        }
    };
    rw.replace_op(op, &[result]);
    true
}

fn create(rw: &mut dyn Rewriter, state: OperationState) -> Value {
    let op = rw.create_op(state);
    rw.ir().result(op, 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fuser_ir::types::FloatKind;

    fn cmp_in(k: FloatKind, kw: &str, rhs: f64, width: u32, unsigned: bool) -> Option<String> {
        let p = CmpFPredicate::from_keyword(kw)?;
        let v = ApFloat::from_bits(FloatKind::F64, rhs.to_bits() as u128)?
            .convert(k, fuser_ir::apfloat::RoundingMode::NearestTiesToEven)
            .0;
        Some(match decide(p, &v, width, unsigned)? {
            Outcome::Constant(b) => b.to_string(),
            Outcome::Compare(p, n) => format!("{} {}", p.keyword(), n.to_string_signed()),
        })
    }

    fn cmp(kw: &str, rhs: f64, unsigned: bool) -> Option<String> {
        cmp_in(FloatKind::F32, kw, rhs, 8, unsigned)
    }

    #[test]
    fn fractional_and_out_of_range_constants() {
        assert_eq!(cmp("olt", 4.4, false).as_deref(), Some("sle 4"));
        assert_eq!(cmp("olt", -4.4, false).as_deref(), Some("slt -4"));
        assert_eq!(cmp("oeq", 4.5, false).as_deref(), Some("false"));
        assert_eq!(cmp("ogt", 300.0, false).as_deref(), Some("false"));
        assert_eq!(cmp("one", -300.0, true).as_deref(), Some("true"));
        assert_eq!(cmp("ult", -1.5, true).as_deref(), Some("false"));
        assert_eq!(cmp("ord", 1.0, true).as_deref(), Some("true"));
        assert_eq!(cmp("true", 1.0, true), None);
        // Wide integers against f128 constants.
        assert_eq!(cmp_in(FloatKind::F128, "olt", 1.0e40, 200, false).as_deref(), None);
        assert_eq!(cmp_in(FloatKind::F128, "olt", 2.5, 200, false).as_deref(), Some("sle 2"));
        assert_eq!(cmp_in(FloatKind::F16, "ogt", f64::INFINITY, 8, false).as_deref(), Some("false"));
    }
}
