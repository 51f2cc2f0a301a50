//! What the integer binary ops share (`addi`, `subi`, `muli`, `shli` with overflow flags;
//! `divsi` .. `remui`, `andi`/`ori`/`xori`, the shifts and min/max without): the verifier, the
//! custom syntax `%a, %b (overflow<nsw, nuw>)? {attrs}? : type`, the `overflowFlags` property
//! and the two hook sets the ops name in `declare_op!`.

use super::overflow::OverflowFlags;
use crate::support::{dict_of, empty_state, inherent_attr, printed_attr_dict, split_inherent};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::declare::{AttrConstraint, HookSet};
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{OpId, OperationState, Value};
use fuser_ir::registry::VerifyCtx;
use fuser_ir::types::Type;

/// The hooks of the integer binary ops without flags (each op adds its folder and patterns).
pub(crate) const INT_BINARY_HOOKS: HookSet =
    HookSet { verify: Some(verify_binary), parse: Some(parse_binary), print: Some(print_binary), ..HookSet::NONE };

/// The hooks of the integer binary ops with `overflowFlags` (`addi`, `subi`, `muli`, `shli`).
pub(crate) const INT_BINARY_FLAGS_HOOKS: HookSet = HookSet {
    verify: Some(verify_binary),
    parse: Some(parse_binary_with_flags),
    print: Some(print_binary),
    default_props: Some(default_flags),
    ..HookSet::NONE
};

/// `overflowFlags`: MLIR's `Arith_IntegerOverflowAttr` (defaults to `none`).
pub(crate) const OVERFLOW_FLAGS: AttrConstraint =
    AttrConstraint::new("Integer overflow arith flags", |ctx, a| OverflowFlags::from_attr(ctx, a).is_some()).optional();

pub(crate) fn default_flags(ctx: &Context) -> Vec<(&'static str, Attr)> {
    vec![("overflowFlags", OverflowFlags::default().to_attr(ctx))]
}

/// The state of a binary op `name` (e.g. `"arith.addi"`) on `lhs` and `rhs` of type `ty`; ops
/// with overflow flags get `overflowFlags = #arith.overflow<none>` as MLIR builds them.
pub fn binary_state(ctx: &Context, name: &str, lhs: Value, rhs: Value, ty: Type, loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, name, loc);
    state.operands = vec![lhs, rhs];
    state.result_types = vec![ty];
    if ["arith.addi", "arith.subi", "arith.muli", "arith.shli"].contains(&name) {
        state.props = Some(dict_of(ctx, &[("overflowFlags", OverflowFlags::default().to_attr(ctx))]));
    }
    state
}

/// What the declaration does not say: both operands have exactly the result type (the
/// `SameOperandsAndResultType` trait also accepts shapes that differ only in dynamic sizes).
pub(crate) fn verify_binary(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let ir = v.ir;
    let ty = ir.value_type(ir.result(op, 0));
    if ir.value_type(ir.operand(op, 0)) != ty || ir.value_type(ir.operand(op, 1)) != ty {
        return Err(v.op_error(op, "requires the same type for all operands and results"));
    }
    Ok(())
}

pub(crate) fn parse_binary(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    parse_binary_form(p, state, false)
}

pub(crate) fn parse_binary_with_flags(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    parse_binary_form(p, state, true)
}

/// `%a, %b (overflow<flags>)? {attrs}? : type`.
fn parse_binary_form(p: &mut dyn OpAsmParser, state: &mut OperationState, has_flags: bool) -> ParseResult<()> {
    let lhs = p.parse_operand()?;
    p.parse_punct(Punct::Comma)?;
    let rhs = p.parse_operand()?;
    let flags = if has_flags { parse_optional_overflow(p)? } else { None };
    let mut entries = Vec::new();
    p.parse_optional_attr_dict(&mut entries)?;
    p.parse_punct(Punct::Colon)?;
    let ty = p.parse_type()?;
    state.operands = vec![p.resolve_operand(&lhs, ty)?, p.resolve_operand(&rhs, ty)?];
    state.result_types = vec![ty];
    let ctx = p.ctx();
    let def = ctx.op_def(state.name);
    let (mut props, attrs) = match def {
        Some(def) => split_inherent(ctx, def, entries),
        None => (Vec::new(), entries),
    };
    if has_flags {
        let flags = flags.unwrap_or_default().to_attr(ctx);
        if !props.iter().any(|(k, _)| ctx.ident_str(*k) == "overflowFlags") {
            props.push((ctx.ident("overflowFlags"), flags));
        }
    }
    state.props = (!props.is_empty()).then(|| ctx.dictionary(props));
    state.attrs = ctx.dictionary(attrs);
    Ok(())
}

/// `overflow<nsw, nuw>` if present.
fn parse_optional_overflow(p: &mut dyn OpAsmParser) -> ParseResult<Option<OverflowFlags>> {
    if !p.parse_optional_keyword("overflow") {
        return Ok(None);
    }
    p.parse_punct(Punct::Less)?;
    let mut flags = OverflowFlags::default();
    loop {
        let offset = p.current_offset();
        let Some(kw) = p.parse_optional_bare_id() else {
            // MLIR reports the missing keyword, then the attribute parameter it was parsing.
            p.emit_error_at(offset, "expected valid keyword");
            return Err(p.emit_error(
                "failed to parse Arith_IntegerOverflowAttr parameter 'value' which is to be a `::mlir::arith::IntegerOverflowFlags`",
            ));
        };
        if !flags.add_keyword(&kw) {
            // MLIR reports the bad keyword, then the attribute parameter it was parsing.
            p.emit_error_at(offset, "expected ::mlir::arith::IntegerOverflowFlags to be one of: none, nsw, nuw");
            return Err(p.emit_error(
                "failed to parse Arith_IntegerOverflowAttr parameter 'value' which is to be a `::mlir::arith::IntegerOverflowFlags`",
            ));
        }
        if !p.parse_optional_punct(Punct::Comma) {
            break;
        }
    }
    p.parse_punct(Punct::Greater)?;
    Ok(Some(flags))
}

pub(crate) fn print_binary(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (lhs, rhs, ty, flags, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        let ops = ir.operands(op);
        let ty = ir.results(op).first().map(|&r| ir.value_type(r));
        // Only ops declaring the property print it as `overflow<...>` (elsewhere it is an
        // ordinary discardable attribute).
        let declared = ctx.op_def(ir.op_name(op)).is_some_and(|d| d.properties.contains(&"overflowFlags"));
        let flags = inherent_attr(ctx, ir, op, "overflowFlags")
            .filter(|_| declared)
            .and_then(|a| OverflowFlags::from_attr(ctx, a));
        (ops.first().copied(), ops.get(1).copied(), ty, flags, printed_attr_dict(ctx, ir, op))
    };
    let (Some(lhs), Some(rhs), Some(ty)) = (lhs, rhs, ty) else { return };
    p.write(" ");
    p.print_operands(&[lhs, rhs]);
    if let Some(f) = flags.filter(|f| *f != OverflowFlags::default()) {
        p.write(" overflow<");
        p.write(f.keywords());
        p.write(">");
    }
    let elided: &[&str] = if flags.is_some() { &["overflowFlags"] } else { &[] };
    p.print_optional_attr_dict(dict, elided);
    p.write(" : ");
    p.print_type(ty);
}
