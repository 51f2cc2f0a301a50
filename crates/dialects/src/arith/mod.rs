//! The `arith` dialect of MLIR 19, every op: `constant`; the integer ops `addi`, `subi`, `muli`,
//! `divsi`, `divui`, `ceildivsi`, `ceildivui`, `floordivsi`, `remsi`, `remui`, `maxsi`, `maxui`,
//! `minsi`, `minui`, `addui_extended`, `mulsi_extended`, `mului_extended`, `andi`, `ori`, `xori`,
//! `shli`, `shrsi`, `shrui`, `cmpi`; the float ops `addf`, `subf`, `mulf`, `divf`, `remf`, `negf`,
//! `maximumf`, `minimumf`, `maxnumf`, `minnumf`, `cmpf` with their `#arith.fastmath` flags;
//! `select`; and the casts `extsi`, `extui`, `trunci`, `extf`, `truncf`, `sitofp`, `uitofp`,
//! `fptosi`, `fptoui`, `bitcast`, `index_cast`, `index_castui`; with MLIR's custom syntax,
//! properties, verifiers, folders and canonicalization patterns.
//!
//! Every op is declared with [`fuser_ir::declare_op!`]: operand/result counts, required
//! properties, attribute and type constraints are checked by the generic structural verifier,
//! so the ops' `verify` hooks only check what relates operands, results and properties.
//!
//! This module holds the dialect definition and its constant materializer and re-exports the
//! ops; what the ops share lives in files of its own, below the ops: `constraints` (type
//! constraints, the elementwise verifier), `overflow` (the overflow flags), `fold_util` (folder
//! and pattern helpers), `binary_syntax` (syntax, verifier and hook sets of the integer binary
//! ops). Each op's definition and hooks live together in one submodule.
//!
//! Folding works on integer constants of every width (`i1` .. `i16777215`, with `ApInt`
//! arithmetic; `index` folds in 64 bits, as in MLIR) and on floats of every type MLIR 19 has
//! (`f16` .. `f128`, `tf32`, the 8-bit formats), with `ApFloat` arithmetic in the type's own
//! precision and rounding; vector and tensor constants fold elementwise wherever MLIR folds
//! them (`elementwise`), splat or not.
//!
//! Deliberately narrower than mlir-opt-19: `trunci(shrui(muli(ext x, ext y), n))` becomes an
//! extended multiplication only when the product is exactly twice as wide. mlir-opt-19 also
//! rewrites wider products, which changes the result (`x = 2^30, y = 8` through `i128` with
//! `n = 96` gives 0, its rewrite gives 2); upstream deleted those patterns after LLVM 19 for
//! that reason (llvm/llvm-project#144844).

mod binary;
mod binary_float;
mod binary_syntax;
mod bitcast;
mod bitwise;
mod cast_common;
mod cmpf;
mod cmpf_int;
mod cmpi;
mod constant;
mod constraints;
mod div_round;
mod elementwise;
mod extended;
mod fastmath;
mod float_bits;
mod float_casts;
mod float_const;
mod fold_util;
mod index_cast;
mod int_casts;
mod int_float_casts;
mod int_patterns;
mod minmax_int;
mod negf;
mod overflow;
mod select;
mod select_patterns;
mod shifts;
#[cfg(test)]
pub(crate) mod test_util;

pub use binary::{ADDI, DIVSI, DIVUI, MULI, REMSI, REMUI, SUBI};
pub use binary_float::{ADDF, DIVF, MAXIMUMF, MAXNUMF, MINIMUMF, MINNUMF, MULF, REMF, SUBF, float_binary_state};
pub use binary_syntax::binary_state;
pub use bitcast::{BITCAST, bitcast_state};
pub use bitwise::{ANDI, ORI, XORI};
pub use cmpf::{CMPF, CmpFPredicate, cmpf_predicate, cmpf_state};
pub use cmpi::{CMPI, CmpPredicate, cmpi_state};
pub use constant::{CONSTANT, constant_state};
pub use div_round::{CEILDIVSI, CEILDIVUI, FLOORDIVSI};
pub use extended::{ADDUI_EXTENDED, MULSI_EXTENDED, MULUI_EXTENDED, extended_state};
pub use fastmath::FastMathFlags;
pub use float_casts::{EXTF, TRUNCF, float_cast_state};
pub use index_cast::{INDEX_CAST, INDEX_CASTUI, index_cast_state};
pub use int_casts::{EXTSI, EXTUI, TRUNCI, int_cast_state};
pub use int_float_casts::{FPTOSI, FPTOUI, SITOFP, UITOFP, conversion_state};
pub use minmax_int::{MAXSI, MAXUI, MINSI, MINUI};
pub use negf::{NEGF, negf_state};
pub use select::{SELECT, select_state};
pub use shifts::{SHLI, SHRSI, SHRUI};

pub(crate) use constraints::{BOOL_LIKE, FLOAT_LIKE, SIGNLESS_INTEGER_LIKE, bool_like_of, verify_elementwise};
pub(crate) use fold_util::{
    MOVE_CONSTANT_RIGHT, defined_by, fold_to_attr, fold_to_value, is_constant_value, splat_int, splat_of, splat_scalar,
};
pub use overflow::{OverflowFlags, canonical_attr_body};

use fuser_ir::attrs::Attr;
use fuser_ir::ir::OpId;
use fuser_ir::registry::DialectDef;
use fuser_ir::rewrite_api::Rewriter;
use fuser_ir::types::Type;

/// The `arith` dialect.
pub static ARITH: DialectDef = DialectDef {
    namespace: "arith",
    summary: "Basic integer and floating-point arithmetic, comparisons and casts",
    description: "MLIR's arith dialect (as of LLVM 19): integer, index and float constants; \
two's-complement arithmetic (with rounding divisions, min/max and the extended add/multiply), \
bitwise operations and shifts; IEEE float arithmetic with `#arith.fastmath` flags; integer and \
float comparisons; selection; and casts between integer widths, float widths, integers and \
floats, bit patterns and `index`, with MLIR's syntax, verification, folding and \
canonicalization. Operands are signless integers, `index` or floats, or \
vectors and tensors of them. Integer constants fold at every width (`i1` .. `i16777215`); \
float constants fold in the type's own precision and rounding, for every float type.",
    ops: &[
        &CONSTANT,
        &ADDI,
        &SUBI,
        &MULI,
        &DIVSI,
        &DIVUI,
        &REMSI,
        &REMUI,
        &CMPI,
        &SELECT,
        &INDEX_CAST,
        &ADDF,
        &SUBF,
        &MULF,
        &DIVF,
        &REMF,
        &NEGF,
        &MAXIMUMF,
        &MINIMUMF,
        &MAXNUMF,
        &MINNUMF,
        &CMPF,
        &EXTSI,
        &EXTUI,
        &TRUNCI,
        &INDEX_CASTUI,
        &BITCAST,
        &EXTF,
        &TRUNCF,
        &SITOFP,
        &UITOFP,
        &FPTOSI,
        &FPTOUI,
        &ANDI,
        &ORI,
        &XORI,
        &SHLI,
        &SHRSI,
        &SHRUI,
        &MAXSI,
        &MAXUI,
        &MINSI,
        &MINUI,
        &CEILDIVUI,
        &CEILDIVSI,
        &FLOORDIVSI,
        &ADDUI_EXTENDED,
        &MULSI_EXTENDED,
        &MULUI_EXTENDED,
    ],
    types: &[],
    attrs: &[],
    opaque_attrs: true,
    materialize_constant: Some(materialize_constant),
};

/// Builds an `arith.constant` of `ty` holding `value` when the attribute's type is `ty` and
/// `arith.constant` can hold it (MLIR's `ConstantOp::isBuildableWith`).
fn materialize_constant(rw: &mut dyn Rewriter, value: Attr, ty: Type, loc: Attr) -> Option<OpId> {
    let state = {
        let ctx = rw.ctx();
        if !constant::is_buildable_with(ctx, value, ty) {
            return None;
        }
        constant_state(ctx, value, loc)?
    };
    Some(rw.create_op(state))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fuser_ir::attrs::AttrKind;
    use fuser_ir::context::Context;

    #[test]
    fn attr_bodies_canonicalize_like_mlir() {
        assert_eq!(canonical_attr_body("overflow<nuw,nsw>").as_deref(), Some("overflow<nsw, nuw>"));
        assert_eq!(canonical_attr_body("overflow<none>").as_deref(), Some("overflow<none>"));
        assert_eq!(canonical_attr_body("fastmath<nnan,fast>").as_deref(), Some("fastmath<fast>"));
        assert_eq!(canonical_attr_body("denormal<ieee>"), None);
    }

    /// The declared structure gives mlir-opt-19's messages, before the ops' own hooks.
    #[test]
    fn declared_structure_matches_mlir_messages() {
        use super::test_util::Bench;
        let mut b = Bench::new();
        let (i32t, f32t) = (b.ctx.integer_type(32), b.ctx.float_type(fuser_ir::types::FloatKind::F32));
        let (x, f) = (b.arg(i32t), b.arg(f32t));
        let mut c = constant_state(&b.ctx, b.ctx.int_attr(i32t, 1), b.ctx.unknown_loc()).unwrap();
        c.operands = vec![x];
        let c = b.op(c);
        assert_eq!(b.verify(c), Err("'arith.constant' op requires zero operands".into()));
        let mut no_value = b.empty("arith.constant");
        no_value.result_types = vec![i32t];
        let no_value = b.op(no_value);
        assert_eq!(b.verify(no_value), Err("'arith.constant' op requires attribute 'value'".into()));
        let mut cast = b.empty("arith.index_cast");
        cast.result_types = vec![b.ctx.index_type()];
        let cast = b.op(cast);
        assert_eq!(b.verify(cast), Err("'arith.index_cast' op requires a single operand".into()));
        // Type constraints come before SameOperandsAndResultType, as in MLIR.
        let mixed = b.op(binary_state(&b.ctx, "arith.addi", f, x, i32t, b.ctx.unknown_loc()));
        assert_eq!(
            b.verify(mixed),
            Err("'arith.addi' op operand #0 must be signless-integer-like, but got 'f32'".into())
        );
        let mut cmp = cmpi_state(&b.ctx, &b.ir, CmpPredicate::Eq, x, x, b.ctx.unknown_loc());
        cmp.props = None;
        let cmp = b.op(cmp);
        assert_eq!(b.verify(cmp), Err("'arith.cmpi' op requires attribute 'predicate'".into()));
        assert_eq!(ADDI.operand_named(&b.ctx, &b.ir, mixed, "rhs"), Some(x));
    }

    #[test]
    fn overflow_flags_round_trip() {
        let ctx = Context::empty();
        let f = OverflowFlags { nsw: true, nuw: true };
        let a = f.to_attr(&ctx);
        assert_eq!(OverflowFlags::from_attr(&ctx, a), Some(f));
        let messy = ctx.intern_attr(AttrKind::Opaque {
            dialect: "arith".into(),
            body: "overflow<nuw,nsw>".into(),
            pretty: true,
        });
        assert_eq!(OverflowFlags::from_attr(&ctx, messy), Some(f));
        assert_eq!(OverflowFlags::default().keywords(), "none");
    }
}
