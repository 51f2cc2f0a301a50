//! The canonicalization of `arith.cmpf` comparing a converted integer (`sitofp`/`uitofp`) with
//! a float constant: when the conversion cannot change the answer, the comparison becomes a
//! `cmpi` of the integer with the constant rounded towards zero (the predicate adjusted for a
//! fractional constant), or a constant `true`/`false` when the constant lies outside the
//! integer's range. `ord` is always true and `uno` always false after a conversion. Written
//! from mlir-opt-19's behaviour; scalar `f16`/`bf16`/`f32`/`f64` constants only.

use super::cmpf::{CmpFPredicate, cmpf_predicate};
use super::float_const::any_float_value;
use super::int_float_casts::{float_to_int, precision, round_to_precision};
use super::{CmpPredicate, SITOFP, UITOFP, cmpi_state, constant_state, defined_by};
use crate::support::int_attr;
use fuser_ir::ir::{OpId, OperationState, Value};
use fuser_ir::registry::{FoldResult, PatternDef};
use fuser_ir::rewrite_api::Rewriter;
use fuser_ir::types::{FloatKind, TypeKind};

pub(super) static CMPF_INT_TO_FP_CONST: PatternDef =
    PatternDef { name: "arith-cmpf-int-to-fp-const", apply: cmpf_int_to_fp_const };

/// What the comparison becomes.
enum Outcome {
    Constant(bool),
    Compare(CmpPredicate, i128),
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

/// The largest binary exponent of the float kinds handled.
fn max_exponent(k: FloatKind) -> i32 {
    match k {
        FloatKind::F16 => 15,
        FloatKind::F64 => 1023,
        _ => 127,
    }
}

/// The integer `value` converted to the float kind (to nearest, ties to even; overflow is
/// infinite).
fn to_float(k: FloatKind, value: i128) -> f64 {
    let (p, max) = precision(k).unwrap_or((53, f64::MAX));
    let v = round_to_precision(value.unsigned_abs(), p);
    let v = if v > max { f64::INFINITY } else { v };
    if value < 0 { -v } else { v }
}

/// The binary exponent of a finite non-zero `v` (`floor(log2 |v|)`), exactly.
fn ilogb(v: f64) -> i32 {
    let biased = ((v.to_bits() >> 52) & 0x7ff) as i32;
    if biased == 0 {
        return v.abs().log2().floor() as i32; // f64 subnormal: far below any integer's range
    }
    biased - 1023
}

/// Decides the rewrite of `pred(convert(x : iW), rhs)`.
fn decide(pred: CmpFPredicate, rhs: f64, k: FloatKind, width: u32, unsigned: bool) -> Option<Outcome> {
    let mantissa = precision(k)?.0 as i32;
    let value_bits = if unsigned { width as i32 } else { width as i32 - 1 };
    if width as i32 > mantissa {
        if rhs.is_infinite() {
            if max_exponent(k) < value_bits {
                return None;
            }
        } else if rhs != 0.0 {
            let exponent = ilogb(rhs);
            if mantissa <= exponent && exponent <= value_bits {
                return None;
            }
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
        (0i128, if width >= 127 { i128::MAX } else { (1i128 << width) - 1 })
    } else {
        (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1)
    };
    if to_float(k, max) < rhs {
        return Some(Outcome::Constant(matches!(p, Ne | Slt | Sle | Ult | Ule)));
    }
    if to_float(k, min) > rhs {
        return Some(Outcome::Constant(matches!(p, Ne | Sgt | Sge | Ugt | Uge)));
    }
    let c = float_to_int(rhs, width, !unsigned)?;
    let n = if unsigned { i128::try_from(c.unsigned()?).ok()? } else { c.signed()? };
    let negative = rhs.is_sign_negative();
    if rhs != 0.0 && to_float(k, n) != rhs {
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
    let Some((rhs, k)) = rhs_attr.and_then(|a| any_float_value(ctx, a)) else { return false };
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
        TypeKind::Integer { width, .. } if *width <= 127 && *width > 0 => Some(*width),
        _ => None,
    }) else {
        return false;
    };
    let Some(outcome) = decide(pred, rhs, k, width, unsigned) else { return false };
    let loc = ir.loc(op);
    rw.set_insertion_point_before(op);
    let result = match outcome {
        Outcome::Constant(b) => {
            let Some(state) = constant_state(rw.ctx(), rw.ctx().bool_attr(b), loc) else { return false };
            create(rw, state)
        }
        Outcome::Compare(p, n) => {
            let c = int_attr(rw.ctx(), int_ty, crate::support::IntConst::new(width, n as u128));
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

    fn cmp(kw: &str, rhs: f64, unsigned: bool) -> Option<String> {
        let p = CmpFPredicate::from_keyword(kw)?;
        Some(match decide(p, rhs, FloatKind::F32, 8, unsigned)? {
            Outcome::Constant(b) => b.to_string(),
            Outcome::Compare(p, n) => format!("{} {n}", p.keyword()),
        })
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
    }
}
