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
//! This module holds what the ops share: the type constraints, the dialect definition and its constant
//! materializer, the overflow flags of `addi`/`subi`/`muli`, the syntax and verifier of the
//! binary ops, and helpers for folders and canonicalization patterns. Each op's definition and
//! hooks live together in one submodule.
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
mod bitcast;
mod bitwise;
mod cast_common;
mod cmpf;
mod cmpf_int;
mod cmpi;
mod constant;
mod div_round;
mod elementwise;
mod extended;
mod fastmath;
mod float_bits;
mod float_casts;
mod float_const;
mod index_cast;
mod int_casts;
mod int_float_casts;
mod int_patterns;
mod minmax_int;
mod negf;
mod select;
mod select_patterns;
mod shifts;

pub use binary::{ADDI, DIVSI, DIVUI, MULI, REMSI, REMUI, SUBI, binary_state};
pub use binary_float::{ADDF, DIVF, MAXIMUMF, MAXNUMF, MINIMUMF, MINNUMF, MULF, REMF, SUBF, float_binary_state};
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

use crate::support::{element_type, is_bool_like, is_signless_integer_like, shape_of};
use fuser_ir::attrs::{Attr, AttrKind, DenseData};
use fuser_ir::context::Context;
use fuser_ir::declare::TypeConstraint;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, Value};
use fuser_ir::registry::{DialectDef, FoldResult, PatternDef, Traits, VerifyCtx};
use fuser_ir::rewrite_api::Rewriter;
use fuser_ir::types::{Type, TypeKind};

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

// ----- type constraints ---------------------------------------------------------------------

/// MLIR's `SignlessIntegerLike`: a signless integer or `index`, or a vector/tensor of them.
pub(crate) const SIGNLESS_INTEGER_LIKE: TypeConstraint =
    TypeConstraint::new("signless-integer-like", is_signless_integer_like);
/// MLIR's `BoolLike`: `i1`, or a vector/tensor of `i1`.
pub(crate) const BOOL_LIKE: TypeConstraint = TypeConstraint::new("bool-like", is_bool_like);
/// MLIR's `FloatLike`: a float, or a vector/tensor of floats.
pub(crate) const FLOAT_LIKE: TypeConstraint =
    TypeConstraint::new("floating-point-like", |ctx, t| ctx.type_kind(element_type(ctx, t)).is_float());

/// `i1` with the shape of `operand_ty` (scalar, vector or tensor): the result type of the
/// comparisons.
pub(crate) fn bool_like_of(ctx: &Context, operand_ty: Type) -> Type {
    let i1 = ctx.i1_type();
    match ctx.type_kind(operand_ty).clone() {
        TypeKind::Vector { shape, scalable, .. } => ctx.intern_type(TypeKind::Vector { shape, scalable, elem: i1 }),
        TypeKind::RankedTensor { shape, encoding, .. } => {
            ctx.intern_type(TypeKind::RankedTensor { shape, elem: i1, encoding })
        }
        TypeKind::UnrankedTensor { .. } => ctx.intern_type(TypeKind::UnrankedTensor { elem: i1 }),
        _ => i1,
    }
}

/// MLIR's `ElementwiseMappable` verifier: vectors and tensors go together, of one shape and
/// one container kind.
pub(crate) fn verify_elementwise(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    let mappable = |t: &Type| {
        matches!(
            ctx.type_kind(*t),
            TypeKind::Vector { .. } | TypeKind::RankedTensor { .. } | TypeKind::UnrankedTensor { .. }
        )
    };
    let operands: Vec<Type> = ir.operands(op).iter().map(|&x| ir.value_type(x)).filter(mappable).collect();
    let results: Vec<Type> = ir.results(op).iter().map(|&x| ir.value_type(x)).filter(mappable).collect();
    if operands.is_empty() && results.is_empty() {
        return Ok(());
    }
    if operands.is_empty() {
        return Err(v.op_error(op, "if a result is non-scalar, then at least one operand must be non-scalar"));
    }
    if results.is_empty() {
        return Err(v.op_error(op, "if an operand is non-scalar, then there must be at least one non-scalar result"));
    }
    if results.len() != ir.num_results(op) {
        return Err(v.op_error(op, "if an operand is non-scalar, then all results must be non-scalar"));
    }
    let all: Vec<Type> = operands.into_iter().chain(results).collect();
    let kind = |t: Type| match ctx.type_kind(t) {
        TypeKind::Vector { .. } => 0,
        _ => 1,
    };
    let shape = |t: Type| crate::support::shape_of(ctx, t).map(|s| s.0);
    let compatible = |a: &Option<Vec<i64>>, b: &Option<Vec<i64>>| match (a, b) {
        (Some(x), Some(y)) => x.len() == y.len() && x.iter().zip(y).all(|(&m, &n)| m == n || m < 0 || n < 0),
        _ => true,
    };
    let first = shape(all[0]);
    if all.iter().any(|&t| kind(t) != kind(all[0]) || !compatible(&shape(t), &first)) {
        return Err(v.op_error(op, "all non-scalar operands/results must have the same shape and base type"));
    }
    Ok(())
}

// ----- overflow flags -----------------------------------------------------------------------

/// The `#arith.overflow<...>` flags of `addi`/`subi`/`muli`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct OverflowFlags {
    pub nsw: bool,
    pub nuw: bool,
}

impl OverflowFlags {
    /// `none`, `nsw`, `nuw` or `nsw, nuw`: the body of `overflow<...>` as MLIR prints it.
    pub fn keywords(self) -> &'static str {
        match (self.nsw, self.nuw) {
            (false, false) => "none",
            (true, false) => "nsw",
            (false, true) => "nuw",
            (true, true) => "nsw, nuw",
        }
    }

    /// Adds one flag keyword; `false` for an unknown keyword.
    pub fn add_keyword(&mut self, kw: &str) -> bool {
        match kw {
            "none" => {}
            "nsw" => self.nsw = true,
            "nuw" => self.nuw = true,
            _ => return false,
        }
        true
    }

    /// The attribute `#arith.overflow<...>` (kept as an opaque dialect attribute).
    pub fn to_attr(self, ctx: &Context) -> Attr {
        ctx.intern_attr(AttrKind::Opaque {
            dialect: "arith".into(),
            body: format!("overflow<{}>", self.keywords()).into(),
            pretty: true,
        })
    }

    /// Reads `#arith.overflow<...>`, accepting any spacing and order of the flags.
    pub fn from_attr(ctx: &Context, a: Attr) -> Option<OverflowFlags> {
        let AttrKind::Opaque { dialect, body, .. } = ctx.attr_kind(a) else { return None };
        let inner = body.strip_prefix("overflow")?.trim().strip_prefix('<')?.strip_suffix('>')?;
        let mut flags = OverflowFlags::default();
        for kw in inner.split(',') {
            if !flags.add_keyword(kw.trim()) {
                return None;
            }
        }
        (&**dialect == "arith").then_some(flags)
    }
}

/// The arith attributes in printed form: `overflow<nuw,nsw>` becomes `overflow<nsw, nuw>`,
/// `fastmath<contract, nnan>` becomes `fastmath<nnan,contract>`. Other bodies are left as
/// written.
pub fn canonical_attr_body(body: &str) -> Option<String> {
    if body.starts_with("fastmath") {
        return fastmath::canonical_fastmath_body(body);
    }
    let inner = body.strip_prefix("overflow")?.trim().strip_prefix('<')?.strip_suffix('>')?;
    let mut flags = OverflowFlags::default();
    for kw in inner.split(',') {
        if !flags.add_keyword(kw.trim()) {
            return None;
        }
    }
    Some(format!("overflow<{}>", flags.keywords()))
}

// ----- fold helpers -------------------------------------------------------------------------

/// A folder's answer: this existing value.
pub(crate) fn fold_to_value(v: Value) -> Option<Vec<FoldResult>> {
    Some(vec![FoldResult::Value(v)])
}

/// A folder's answer: this constant.
pub(crate) fn fold_to_attr(a: Attr) -> Option<Vec<FoldResult>> {
    Some(vec![FoldResult::Attr(a)])
}

/// An integer constant of type `ty` (scalar, or a splat for static vectors and tensors) whose
/// every element is `value` (interpreted in the element's width).
pub(crate) fn splat_int(ctx: &Context, ty: Type, value: i128) -> Option<Attr> {
    let elem = element_type(ctx, ty);
    let width = ctx.type_kind(elem).int_or_float_width()?;
    let scalar = crate::support::ap_attr(ctx, elem, fuser_ir::apint::ApInt::from_i128(width, value));
    if elem == ty {
        return Some(scalar);
    }
    let (shape, _) = shape_of(ctx, ty)?;
    if shape.iter().any(|&d| d < 0) {
        return None;
    }
    Some(ctx.intern_attr(AttrKind::DenseElements { ty, data: DenseData::Splat(scalar) }))
}

/// The operands `(x, y)` of `v` when `v` is an `arith.xori`.
pub(crate) fn operands_of_xori(ctx: &Context, ir: &Ir, v: Value) -> Option<(Value, Value)> {
    let d = defined_by(ctx, ir, v, XORI.name)?;
    (ir.num_operands(d) == 2).then(|| (ir.operand(d, 0), ir.operand(d, 1)))
}

/// The scalar of a constant of type `ty`: the attribute itself for a scalar type, the splat
/// element for a vector or tensor type.
pub(crate) fn splat_scalar(ctx: &Context, a: Attr, ty: Type) -> Option<Attr> {
    if ctx.attr_type(a) != Some(ty) {
        return None;
    }
    match ctx.attr_kind(a) {
        AttrKind::DenseElements { data: DenseData::Splat(s), .. } => Some(*s),
        AttrKind::DenseElements { .. } => None,
        _ => (element_type(ctx, ty) == ty).then_some(a),
    }
}

/// The splat of `scalar` with the static vector or tensor type `ty`.
pub(crate) fn splat_of(ctx: &Context, ty: Type, scalar: Attr) -> Option<Attr> {
    let (shape, _) = shape_of(ctx, ty)?;
    if shape.iter().any(|&d| d < 0) {
        return None;
    }
    Some(ctx.intern_attr(AttrKind::DenseElements { ty, data: DenseData::Splat(scalar) }))
}

/// The op defining `v` when its name is `name`.
pub(crate) fn defined_by(ctx: &Context, ir: &Ir, v: Value, name: &str) -> Option<OpId> {
    ir.defining_op(v).filter(|&d| ctx.op_name_str(ir.op_name(d)) == name)
}

/// True when `v` is the result of a constant-like op.
pub(crate) fn is_constant_value(ctx: &Context, ir: &Ir, v: Value) -> bool {
    ir.defining_op(v).and_then(|d| ctx.op_def(ir.op_name(d))).is_some_and(|def| def.has(Traits::CONSTANT_LIKE))
}

/// Canonicalization of commutative ops: a constant left operand moves to the right, so that
/// folders and patterns only look for constants on the right (MLIR does this while folding).
pub(crate) static MOVE_CONSTANT_RIGHT: PatternDef =
    PatternDef { name: "arith-commutative-constant-right", apply: move_constant_right };

fn move_constant_right(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let (ctx, ir) = (rw.ctx(), rw.ir());
    if ir.num_operands(op) != 2 {
        return false;
    }
    let (l, r) = (ir.operand(op, 0), ir.operand(op, 1));
    if !is_constant_value(ctx, ir, l) || is_constant_value(ctx, ir, r) {
        return false;
    }
    let ir = rw.ir_mut();
    ir.set_operand(op, 0, r);
    ir.set_operand(op, 1, l);
    rw.notify_changed(op);
    true
}

#[cfg(test)]
pub(crate) mod test_util {
    //! Hand-built IR for folder tests: a block of ops with function arguments as leaves.
    use crate::support::empty_state;
    use fuser_ir::attrs::Attr;
    use fuser_ir::context::Context;
    use fuser_ir::ir::{BlockId, Ir, OpId, Value};
    use fuser_ir::registry::FoldResult;
    use fuser_ir::types::Type;

    pub struct Bench {
        pub ctx: Context,
        pub ir: Ir,
        pub block: BlockId,
    }

    impl Bench {
        pub fn new() -> Bench {
            let ctx = Context::new(crate::registry());
            let mut ir = Ir::new();
            let block = ir.create_block(&[]);
            Bench { ctx, ir, block }
        }
        pub fn arg(&mut self, ty: Type) -> Value {
            self.ir.add_block_arg(self.block, ty, None)
        }
        /// Appends an op (state built by `make`) and returns it.
        pub fn op(&mut self, state: fuser_ir::ir::OperationState) -> OpId {
            let op = self.ir.create_op(state);
            self.ir.append_op(self.block, op);
            op
        }
        /// Appends the integer binary op `name` of `l` and `r` (result typed as `l`).
        pub fn binary(&mut self, name: &str, l: Value, r: Value) -> OpId {
            let ty = self.ir.value_type(l);
            let state = super::binary_state(&self.ctx, name, l, r, ty, self.ctx.unknown_loc());
            self.op(state)
        }
        /// An `arith.constant` result.
        pub fn constant(&mut self, value: Attr) -> Value {
            let state = super::constant_state(&self.ctx, value, self.ctx.unknown_loc()).unwrap();
            let op = self.op(state);
            self.ir.result(op, 0)
        }
        pub fn int(&mut self, ty: Type, v: i64) -> Value {
            let a = self.ctx.int_attr(ty, v);
            self.constant(a)
        }
        /// Runs the op's folder with the constant operands it can see.
        pub fn fold(&self, op: OpId) -> Option<Vec<FoldResult>> {
            let def = self.ctx.op_def(self.ir.op_name(op)).unwrap();
            let operands: Vec<Option<Attr>> = self
                .ir
                .operands(op)
                .iter()
                .map(|&v| {
                    let d = self.ir.defining_op(v)?;
                    let const_def = self.ctx.op_def(self.ir.op_name(d))?;
                    const_def.fold?(&self.ctx, &self.ir, d, &[]).and_then(|r| match r.first() {
                        Some(FoldResult::Attr(a)) => Some(*a),
                        _ => None,
                    })
                })
                .collect();
            def.fold.unwrap()(&self.ctx, &self.ir, op, &operands)
        }
        /// The folded constant as a signed number, if the fold produced a scalar constant.
        pub fn fold_int(&self, op: OpId) -> Option<i128> {
            match self.fold(op)?.as_slice() {
                [FoldResult::Attr(a)] => crate::support::int_const(&self.ctx, *a).and_then(|(c, _)| c.signed()),
                _ => None,
            }
        }
        pub fn fold_value(&self, op: OpId) -> Option<Value> {
            match self.fold(op)?.as_slice() {
                [FoldResult::Value(v)] => Some(*v),
                _ => None,
            }
        }
        pub fn verify(&self, op: OpId) -> Result<(), String> {
            let def = self.ctx.op_def(self.ir.op_name(op)).unwrap();
            let v = fuser_ir::registry::VerifyCtx { ctx: &self.ctx, ir: &self.ir };
            def.verify_structure_and_hook(&v, op).map_err(|d| d.message)
        }
        pub fn empty(&self, name: &str) -> fuser_ir::ir::OperationState {
            empty_state(&self.ctx, name, self.ctx.unknown_loc())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
