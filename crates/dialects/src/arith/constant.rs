//! `arith.constant`: a constant integer, index, float or elements value, stored in the `value`
//! property; custom form `arith.constant {attrs}? 42 : i32`. Folds to its value; suggests result
//! names as MLIR does (`%c42_i32`, `%c0`, `%true`, `%cst`).

use crate::support::{dict_of, empty_state, inherent_attr, int_const, printed_attr_dict, split_inherent, type_str};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult};
use fuser_ir::attrs::{Attr, AttrKind, DenseData};
use fuser_ir::context::Context;
use fuser_ir::declare::{ANY_TYPE, AttrConstraint};
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState, Value};
use fuser_ir::registry::{FoldResult, VerifyCtx};
use fuser_ir::types::{Type, TypeKind};

fuser_ir::declare_op! {
    pub static CONSTANT: "arith.constant" {
        summary: "integer, index or floating-point constant",
        description: "Produces a constant of the type of its `value` attribute: an integer or \
index literal, a boolean (`true`/`false` for `i1`), a float, or a dense vector/tensor.\n\n\
Syntax: `arith.constant (attributes)? value`.\n\n\
```mlir\n%c42_i32 = arith.constant 42 : i32\n%c0 = arith.constant 0 : index\n%true = arith.constant true\n```",
        traits: [PURE | CONSTANT_LIKE],
        results: { result: ANY_TYPE },
        properties: { value: AttrConstraint::any("typed attribute") },
        hooks: {
            verify: verify_constant,
            fold: fold_constant,
            parse: parse_constant,
            print: print_constant,
            result_names: constant_result_names,
        },
    }
}

/// True when `value` can be the `value` of an `arith.constant` of type `ty`.
pub(super) fn is_buildable_with(ctx: &Context, value: Attr, ty: Type) -> bool {
    let holds_value = matches!(
        ctx.attr_kind(value),
        AttrKind::Integer { .. } | AttrKind::Bool(_) | AttrKind::Float { .. } | AttrKind::DenseElements { .. }
    );
    holds_value && ctx.attr_type(value) == Some(ty)
}

/// What the declaration does not say: `value` has the result type, which is signless if an
/// integer, and is a kind of attribute `arith.constant` can hold.
fn verify_constant(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let (ctx, ir) = (v.ctx, v.ir);
    let Some(value) = inherent_attr(ctx, ir, op, "value") else {
        return Err(v.op_error(op, "requires attribute 'value'"));
    };
    let ty = ir.value_type(ir.result(op, 0));
    if ctx.attr_type(value) != Some(ty) {
        return Err(v.op_error(op, "failed to verify that all of {value, result} have same type"));
    }
    if let TypeKind::Integer { signedness, .. } = ctx.type_kind(ty)
        && *signedness != fuser_ir::types::Signedness::Signless
    {
        return Err(v.op_error(op, "integer return type must be signless"));
    }
    if !is_buildable_with(ctx, value, ty) {
        return Err(v.op_error(op, "value must be an integer, float, or elements attribute"));
    }
    let scalable = matches!(ctx.type_kind(ty), TypeKind::Vector { scalable, .. } if scalable.iter().any(|&s| s));
    let splat = matches!(ctx.attr_kind(value), AttrKind::DenseElements { data: DenseData::Splat(_), .. });
    if scalable && !splat {
        return Err(v.op_error(
            op,
            "intializing scalable vectors with elements attribute is not supported unless it's a vector splat",
        ));
    }
    Ok(())
}

fn fold_constant(ctx: &Context, ir: &Ir, op: OpId, _operands: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    inherent_attr(ctx, ir, op, "value").map(|a| vec![FoldResult::Attr(a)])
}

fn parse_constant(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let mut entries = Vec::new();
    p.parse_optional_attr_dict(&mut entries)?;
    let offset = p.current_offset();
    let value = p.parse_attribute(None)?;
    let Some(ty) = p.ctx().attr_type(value) else {
        return Err(p.emit_error_at(offset, "expected a typed attribute"));
    };
    let ctx = p.ctx();
    let (mut props, attrs) = split_inherent(ctx, &CONSTANT, entries);
    props.push((ctx.ident("value"), value));
    state.props = Some(ctx.dictionary(props));
    state.attrs = ctx.dictionary(attrs);
    state.result_types = vec![ty];
    Ok(())
}

fn print_constant(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (dict, value) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        (printed_attr_dict(ctx, ir, op), inherent_attr(ctx, ir, op, "value"))
    };
    p.print_optional_attr_dict(dict, &["value"]);
    if let Some(v) = value {
        p.write(" ");
        p.print_attribute(v);
    }
}

/// `%c42_i32`, `%c-1_i64`, `%c0` (index), `%true`/`%false` (i1), `%cst` otherwise.
fn constant_result_names(ctx: &Context, ir: &Ir, op: OpId, set: &mut dyn FnMut(Value, String)) {
    let Some(&result) = ir.results(op).first() else { return };
    let name = inherent_attr(ctx, ir, op, "value")
        .and_then(|value| int_constant_name(ctx, value))
        .unwrap_or_else(|| "cst".to_string());
    set(result, name);
}

fn int_constant_name(ctx: &Context, value: Attr) -> Option<String> {
    let ty = ctx.attr_type(value)?;
    match ctx.type_kind(ty) {
        TypeKind::Integer { width: 1, .. } => {
            let (c, _) = int_const(ctx, value)?;
            Some(if c.is_zero() { "false" } else { "true" }.to_string())
        }
        TypeKind::Index | TypeKind::Integer { .. } => {
            let AttrKind::Integer { value: v, .. } = ctx.attr_kind(value) else { return None };
            let digits = v.to_string_signed();
            Some(if ctx.type_kind(ty).is_index() {
                format!("c{digits}")
            } else {
                format!("c{digits}_{}", type_str(ctx, ty))
            })
        }
        _ => None,
    }
}

/// The state of an `arith.constant` holding `value` (its type gives the result type); `None`
/// for an attribute without a type.
pub fn constant_state(ctx: &Context, value: Attr, loc: Attr) -> Option<OperationState> {
    let ty = ctx.attr_type(value)?;
    let mut state = empty_state(ctx, CONSTANT.name, loc);
    state.result_types = vec![ty];
    state.props = Some(dict_of(ctx, &[("value", value)]));
    Some(state)
}

#[cfg(test)]
mod tests {
    use super::super::test_util::Bench;
    use super::*;

    fn name_of(b: &Bench, v: Value) -> String {
        let op = b.ir.defining_op(v).unwrap();
        let mut out = String::new();
        constant_result_names(&b.ctx, &b.ir, op, &mut |_, n| out = n);
        out
    }

    #[test]
    fn result_names_follow_mlir() {
        let mut b = Bench::new();
        let (i32t, i64t, idx) = (b.ctx.integer_type(32), b.ctx.integer_type(64), b.ctx.index_type());
        let c42 = b.int(i32t, 42);
        let cm1 = b.int(i64t, -1);
        let c0 = b.int(idx, 0);
        let t = b.constant(b.ctx.bool_attr(true));
        let f32t = b.ctx.float_type(fuser_ir::types::FloatKind::F32);
        let fl = b.constant(b.ctx.intern_attr(AttrKind::Float { bits: 1.0f32.to_bits() as u128, ty: f32t }));
        assert_eq!(name_of(&b, c42), "c42_i32");
        assert_eq!(name_of(&b, cm1), "c-1_i64");
        assert_eq!(name_of(&b, c0), "c0");
        assert_eq!(name_of(&b, t), "true");
        assert_eq!(name_of(&b, fl), "cst");
    }

    #[test]
    fn folds_to_value_and_verifies_type() {
        let mut b = Bench::new();
        let i32t = b.ctx.integer_type(32);
        let c = b.int(i32t, 7);
        let op = b.ir.defining_op(c).unwrap();
        assert_eq!(b.fold(op), Some(vec![FoldResult::Attr(b.ctx.int_attr(i32t, 7))]));
        assert_eq!(b.verify(op), Ok(()));
        b.ir.set_value_type(c, b.ctx.integer_type(64));
        assert_eq!(
            b.verify(op),
            Err("'arith.constant' op failed to verify that all of {value, result} have same type".into())
        );
    }
}
