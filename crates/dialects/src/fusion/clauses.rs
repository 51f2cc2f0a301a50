//! The custom syntax of the fusion ops whose properties are written as `name = value` clauses
//! between the operands and the attribute dictionary (slice, concat, dropout):
//!
//! `%r = fusion.OP %a, %b CLAUSE* attr-dict : (type, type) -> type`
//!
//! Each clause is `name = [1, 2]` (an `array<i64>` property), `name = 3` (an `i64` integer
//! property) or `name = 0.5` (an `f64` float property). A clause the printer writes is elided
//! from the printed attribute dictionary; a property written in the dictionary instead (the
//! generic spelling) is accepted too. Also the readers of those property kinds.

use super::syntax::{i64_array, i64_array_attr};
use crate::support::{inherent_attr, parse_int_list, printed_attr_dict};
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::AttrKind;
use fuser_ir::context::Context;
use fuser_ir::declare::AttrConstraint;
use fuser_ir::ir::{Ir, OpId, OperationState};
use fuser_ir::types::{FloatKind, TypeKind};
use fuser_ir::{Attr, Type};

/// The kind of value a clause holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ClauseKind {
    /// `[1, 2]`: `array<i64: 1, 2>`.
    Ints,
    /// `3`: `3 : i64`.
    Int,
    /// `0.5`: `5.000000e-01 : f64`.
    Float,
}

/// One clause: the property name and its kind; `optional` clauses may be left out.
#[derive(Clone, Copy, Debug)]
pub struct Clause {
    pub name: &'static str,
    pub kind: ClauseKind,
    pub optional: bool,
}

/// `name`: an `i64` integer attribute.
pub const I64_PROP: AttrConstraint = AttrConstraint::new(
    "64-bit signless integer attribute",
    |ctx, a| matches!(ctx.attr_kind(a), AttrKind::Integer { ty, .. } if matches!(ctx.type_kind(*ty), TypeKind::Integer { width: 64, .. })),
);

/// `name`: an `f64` float attribute.
pub const F64_PROP: AttrConstraint =
    AttrConstraint::new("64-bit float attribute", |ctx, a| f64_value(ctx, a).is_some());

/// `name`: an `array<i64: ...>`.
pub const I64_ARRAY_PROP: AttrConstraint =
    AttrConstraint::new("i64 dense array attribute", |ctx, a| i64_array(ctx, a).is_some());

/// The value of an `f64` float attribute.
pub fn f64_value(ctx: &Context, a: Attr) -> Option<f64> {
    match ctx.attr_kind(a) {
        AttrKind::Float { bits, ty } if matches!(ctx.type_kind(*ty), TypeKind::Float(FloatKind::F64)) => {
            Some(f64::from_bits(*bits as u64))
        }
        _ => None,
    }
}

/// `value : f64`.
pub fn f64_attr(ctx: &Context, value: f64) -> Attr {
    ctx.intern_attr(AttrKind::Float { bits: value.to_bits() as u128, ty: ctx.float_type(FloatKind::F64) })
}

/// The `array<i64>` property `name` of `op`.
pub fn prop_ints(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<Vec<i64>> {
    i64_array(ctx, inherent_attr(ctx, ir, op, name)?)
}

/// The `i64` property `name` of `op`.
pub fn prop_int(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<i64> {
    match ctx.attr_kind(inherent_attr(ctx, ir, op, name)?) {
        AttrKind::Integer { value, ty } if matches!(ctx.type_kind(*ty), TypeKind::Integer { width: 64, .. }) => {
            value.to_i64()
        }
        _ => None,
    }
}

/// The `f64` property `name` of `op`.
pub fn prop_float(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<f64> {
    f64_value(ctx, inherent_attr(ctx, ir, op, name)?)
}

fn parse_clause(p: &mut dyn OpAsmParser, kind: ClauseKind) -> ParseResult<Attr> {
    match kind {
        ClauseKind::Ints => {
            let v = parse_int_list(p)?;
            Ok(i64_array_attr(p.ctx(), &v))
        }
        ClauseKind::Int => {
            let v = p.parse_integer()?;
            Ok(p.ctx().int_attr(p.ctx().i64_type(), v))
        }
        ClauseKind::Float => {
            let at = p.current_offset();
            let f64t = p.ctx().float_type(FloatKind::F64);
            let a = p.parse_attribute(Some(f64t))?;
            match f64_value(p.ctx(), a) {
                Some(_) => Ok(a),
                None => Err(p.emit_error_at(at, "expected a floating point number")),
            }
        }
    }
}

/// Parses `operands CLAUSE* attr-dict : (types) -> type`.
pub fn parse_clause_op(p: &mut dyn OpAsmParser, state: &mut OperationState, clauses: &[Clause]) -> ParseResult<()> {
    let operands = p.parse_operand_list()?;
    let mut props = Vec::new();
    for c in clauses {
        if c.optional {
            if !p.parse_optional_keyword(c.name) {
                continue;
            }
        } else {
            p.parse_keyword(c.name)?;
        }
        p.parse_punct(Punct::Equal)?;
        let a = parse_clause(p, c.kind)?;
        props.push((p.ctx().ident(c.name), a));
    }
    super::syntax::parse_tail(p, state, &operands, props)
}

/// A clause's value as the printer writes it.
enum Printed {
    Text(String),
    Attr(Attr),
}

/// Prints the form [`parse_clause_op`] reads: each clause whose property is present and of
/// its kind (others stay in the dictionary, so a malformed op still prints back as it was).
pub fn print_clause_op(p: &mut dyn OpAsmPrinter, op: OpId, clauses: &[Clause]) {
    let (operands, types, result, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        let operands = ir.operands(op).to_vec();
        let types: Vec<Type> = operands.iter().map(|&v| ir.value_type(v)).collect();
        let result = ir.results(op).first().map(|&r| ir.value_type(r));
        (operands, types, result, printed_attr_dict(ctx, ir, op))
    };
    p.write(" ");
    p.print_operands(&operands);
    let mut elided = Vec::new();
    for c in clauses {
        let printed = {
            let (ctx, ir) = (p.ctx(), p.ir());
            match c.kind {
                ClauseKind::Ints => prop_ints(ctx, ir, op, c.name).map(|v| {
                    let parts: Vec<String> = v.iter().map(i64::to_string).collect();
                    Printed::Text(format!("[{}]", parts.join(", ")))
                }),
                ClauseKind::Int => prop_int(ctx, ir, op, c.name).map(|v| Printed::Text(v.to_string())),
                ClauseKind::Float => {
                    inherent_attr(ctx, ir, op, c.name).filter(|&a| f64_value(ctx, a).is_some()).map(Printed::Attr)
                }
            }
        };
        let Some(printed) = printed else { continue };
        p.write(&format!(" {} = ", c.name));
        match printed {
            Printed::Text(t) => p.write(&t),
            Printed::Attr(a) => p.print_attribute_without_type(a),
        }
        elided.push(c.name);
    }
    p.print_optional_attr_dict(dict, &elided);
    p.write(" : (");
    for (i, &t) in types.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.print_type(t);
    }
    p.write(") -> ");
    if let Some(r) = result {
        p.print_type(r);
    }
}
