//! Typed accessors of declared ops: the operand and result groups of an op by index or name
//! (segment aware) and its inherent attributes, as methods of [`OpDef`].
//!
//! Layer: definitions (above `declare.rs` and `registry.rs`, whose types it joins). Nothing
//! here panics on malformed IR: an op whose structure does not match its declaration gives
//! `None`.

use super::{OpDecl, ValueList, inherent_attr};
use crate::attrs::Attr;
use crate::context::Context;
use crate::ir::{Ir, OpId, Value};
use crate::registry::OpDef;

impl OpDef {
    /// The declared structure, for ops made with [`declare_op!`](crate::declare_op).
    pub fn declared(&self) -> Option<&'static OpDecl> {
        self.decl
    }

    /// The values of operand group `index` (segment aware); `None` if the op has no
    /// declaration, no such group, or operands that do not match the declaration.
    pub fn operand_group(&self, ctx: &Context, ir: &Ir, op: OpId, index: usize) -> Option<Vec<Value>> {
        let range = self.decl?.group_ranges(ctx, ir, op, ValueList::Operands).ok()?.get(index)?.clone();
        Some(range.map(|i| ir.operand(op, i)).collect())
    }

    /// The values of the operand group called `name`.
    pub fn operands_named(&self, ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<Vec<Value>> {
        let index = self.decl?.operands.iter().position(|d| d.name == name)?;
        self.operand_group(ctx, ir, op, index)
    }

    /// The operand called `name` when its group holds exactly one value (a single operand, or
    /// an optional one that is present).
    pub fn operand_named(&self, ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<Value> {
        match self.operands_named(ctx, ir, op, name)?.as_slice() {
            [v] => Some(*v),
            _ => None,
        }
    }

    /// The values of result group `index` (segment aware).
    pub fn result_group(&self, ctx: &Context, ir: &Ir, op: OpId, index: usize) -> Option<Vec<Value>> {
        let range = self.decl?.group_ranges(ctx, ir, op, ValueList::Results).ok()?.get(index)?.clone();
        Some(ir.results(op).get(range)?.to_vec())
    }

    /// The result called `name` when its group holds exactly one value.
    pub fn result_named(&self, ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<Value> {
        let index = self.decl?.results.iter().position(|d| d.name == name)?;
        match self.result_group(ctx, ir, op, index)?.as_slice() {
            [v] => Some(*v),
            _ => None,
        }
    }

    /// The inherent attribute (property or attribute) called `name`.
    pub fn attr_named(&self, ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<Attr> {
        inherent_attr(ctx, ir, op, name)
    }
}
