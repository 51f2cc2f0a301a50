//! Walking the ops nested in an op, iteratively (no recursion, so any nesting depth is safe).

use super::*;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum WalkOrder {
    /// Parents before the ops nested in them.
    PreOrder,
    /// Nested ops before their parent.
    PostOrder,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum WalkResult {
    Advance,
    /// Pre-order only: do not enter this op's regions.
    Skip,
    /// Stop the walk.
    Interrupt,
}

impl Ir {
    /// Calls `f` on `root` and every op nested in it, in the given order. Returns `false` if
    /// the walk was interrupted. The IR cannot change during the walk; to mutate, collect with
    /// [`collect_ops`](Self::collect_ops) first.
    pub fn walk(&self, root: OpId, order: WalkOrder, mut f: impl FnMut(OpId) -> WalkResult) -> bool {
        match order {
            WalkOrder::PreOrder => {
                let mut stack = vec![root];
                while let Some(op) = stack.pop() {
                    match f(op) {
                        WalkResult::Interrupt => return false,
                        WalkResult::Skip => continue,
                        WalkResult::Advance => {}
                    }
                    self.push_children_reversed(op, &mut stack);
                }
                true
            }
            WalkOrder::PostOrder => {
                let mut stack = vec![(root, false)];
                let mut children = Vec::new();
                while let Some((op, expanded)) = stack.pop() {
                    if expanded {
                        if f(op) == WalkResult::Interrupt {
                            return false;
                        }
                        continue;
                    }
                    stack.push((op, true));
                    children.clear();
                    self.push_children_reversed(op, &mut children);
                    stack.extend(children.iter().map(|&c| (c, false)));
                }
                true
            }
        }
    }

    /// Pushes the ops directly nested in `op` so that popping yields them in program order.
    fn push_children_reversed(&self, op: OpId, stack: &mut Vec<OpId>) {
        for &r in self.ops[op].regions().iter().rev() {
            for &b in self.regions[r].blocks.iter().rev() {
                let mut cur = self.last_op(b);
                while let Some(c) = cur {
                    stack.push(c);
                    cur = self.prev_op(c);
                }
            }
        }
    }

    /// `root` and all ops nested in it, in the given order.
    pub fn collect_ops(&self, root: OpId, order: WalkOrder) -> Vec<OpId> {
        let mut v = Vec::new();
        self.walk(root, order, |op| {
            v.push(op);
            WalkResult::Advance
        });
        v
    }

    /// The ops nested in `root` (not `root` itself) in pre-order.
    pub fn nested_ops(&self, root: OpId) -> Vec<OpId> {
        let mut v = self.collect_ops(root, WalkOrder::PreOrder);
        v.remove(0);
        v
    }

    /// Nesting depth of `op` (0 for a detached or top-level op).
    pub fn op_depth(&self, op: OpId) -> usize {
        let mut d = 0;
        let mut cur = self.parent_op(op);
        while let Some(c) = cur {
            d += 1;
            cur = self.parent_op(c);
        }
        d
    }
}
