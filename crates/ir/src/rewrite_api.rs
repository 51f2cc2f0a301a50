//! The interface patterns and constant materializers are written against: a [`Rewriter`] edits
//! the IR and tells the driver what changed, so a greedy pattern driver can keep its worklist
//! right. Implemented by the pattern driver in [`rewrite`](crate::rewrite).
//!
//! Layer: interfaces, above the context and the IR, below the op definitions whose patterns and
//! constant materializers take a `&mut dyn Rewriter`.

use crate::attrs::Attr;
use crate::context::Context;
use crate::ir::{Ir, OpId, OperationState, Value};

pub trait Rewriter {
    fn ctx(&self) -> &Context;
    fn ir(&self) -> &Ir;
    /// Direct mutable access. Changes made through it are not reported to the driver; prefer
    /// the methods below, or call [`notify_changed`](Self::notify_changed) afterwards.
    fn ir_mut(&mut self) -> &mut Ir;
    /// Creates an op from `state` and inserts it before the current insertion point.
    fn create_op(&mut self, state: OperationState) -> OpId;
    /// Sets the insertion point to just before `op`.
    fn set_insertion_point_before(&mut self, op: OpId);
    /// Replaces all uses of `op`'s results by `values` and erases `op`.
    fn replace_op(&mut self, op: OpId, values: &[Value]);
    /// Erases an op whose results are unused.
    fn erase_op(&mut self, op: OpId);
    /// Tells the driver that `op` was modified in place (operands, attributes).
    fn notify_changed(&mut self, op: OpId);
    /// Builds a constant of `ty` with `value` through the dialect of `op`, before `op`.
    fn materialize_constant(&mut self, near: OpId, value: Attr, ty: crate::types::Type) -> Option<Value>;
}
