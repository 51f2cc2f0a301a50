//! Use lists: every operand is a node in the doubly linked list of uses of the value it reads.
//! Linking, unlinking and retargeting one use is O(1); replacing all uses is O(uses).
//!
//! Links are bare `(op slot, operand index)` pairs ([`Link`]); they always point at live ops.

use super::{Ir, Link, OpId, OpOperand, Operand, Value};

impl Ir {
    #[inline]
    pub(crate) fn node(&self, u: Link) -> &Operand {
        &self.ops.by_index(u.op).operands[u.index as usize]
    }
    #[inline]
    fn node_mut(&mut self, u: Link) -> &mut Operand {
        &mut self.ops.by_index_mut(u.op).operands[u.index as usize]
    }
    #[inline]
    fn to_operand(&self, u: Link) -> OpOperand {
        OpOperand { op: self.ops.id_at(u.op), index: u.index }
    }

    /// Puts the operand `u` (whose `value` field is already set) at the head of its value's
    /// use list.
    pub(crate) fn link_use(&mut self, u: Link) {
        let v = self.node(u).value;
        let head = self.values.by_index(v).first_use;
        {
            let node = self.node_mut(u);
            node.prev_use = Link::NONE;
            node.next_use = head;
        }
        if !head.is_none() {
            self.node_mut(head).prev_use = u;
        }
        self.values.by_index_mut(v).first_use = u;
    }

    /// Takes the operand `u` off its value's use list (its `value` field is left as is).
    pub(crate) fn unlink_use(&mut self, u: Link) {
        let (v, prev, next) = {
            let n = self.node(u);
            (n.value, n.prev_use, n.next_use)
        };
        if prev.is_none() {
            self.values.by_index_mut(v).first_use = next;
        } else {
            self.node_mut(prev).next_use = next;
        }
        if !next.is_none() {
            self.node_mut(next).prev_use = prev;
        }
        let node = self.node_mut(u);
        node.prev_use = Link::NONE;
        node.next_use = Link::NONE;
    }

    /// Rewrites the links of neighbours that point at `(op, from)` to point at `(op, to)`.
    /// Used when operand slots shift.
    fn retarget_use_links(&mut self, op: OpId, from: u32, to: u32) {
        let slot = op.index() as u32;
        let old = Link { op: slot, index: from };
        let new = Link { op: slot, index: to };
        let (v, prev, next) = {
            let n = self.node(new);
            (n.value, n.prev_use, n.next_use)
        };
        if prev.is_none() {
            debug_assert_eq!(self.values.by_index(v).first_use, old);
            self.values.by_index_mut(v).first_use = new;
        } else {
            self.node_mut(prev).next_use = new;
        }
        if !next.is_none() {
            self.node_mut(next).prev_use = new;
        }
    }

    #[inline]
    fn link(op: OpId, i: usize) -> Link {
        Link { op: op.index() as u32, index: i as u32 }
    }

    /// Sets operand `i` of `op` to `v`. O(1).
    pub fn set_operand(&mut self, op: OpId, i: usize, v: Value) {
        let vi = v.index() as u32;
        assert!(self.values.contains(v), "set_operand: stale value handle");
        let u = Self::link(op, i);
        if self.ops[op].operands[i].value == vi {
            return;
        }
        self.unlink_use(u);
        self.node_mut(u).value = vi;
        self.link_use(u);
    }

    fn new_operand(&self, v: Value) -> Operand {
        assert!(self.values.contains(v), "operand is a stale value handle");
        Operand { value: v.index() as u32, prev_use: Link::NONE, next_use: Link::NONE }
    }

    /// Replaces the whole operand list of `op`. O(old + new).
    pub fn set_operands(&mut self, op: OpId, values: &[Value]) {
        let n = self.ops[op].operands.len();
        for i in 0..n {
            self.unlink_use(Self::link(op, i));
        }
        let fresh: Vec<Operand> = values.iter().map(|&v| self.new_operand(v)).collect();
        self.ops[op].operands.clear();
        self.ops[op].operands.extend(fresh);
        for i in 0..values.len() {
            self.link_use(Self::link(op, i));
        }
    }

    /// Inserts `v` as operand number `i` (shifting later operands up).
    pub fn insert_operand(&mut self, op: OpId, i: usize, v: Value) {
        let n = self.ops[op].operands.len();
        assert!(i <= n, "operand index {i} out of range (op has {n})");
        let node = self.new_operand(v);
        self.ops[op].operands.insert(i, node);
        for j in (i + 1..=n).rev() {
            self.retarget_use_links(op, j as u32 - 1, j as u32);
        }
        self.link_use(Self::link(op, i));
    }

    /// Removes operand number `i` (shifting later operands down).
    pub fn erase_operand(&mut self, op: OpId, i: usize) {
        self.unlink_use(Self::link(op, i));
        self.ops[op].operands.remove(i);
        let n = self.ops[op].operands.len();
        for j in i..n {
            self.retarget_use_links(op, j as u32 + 1, j as u32);
        }
    }

    /// The uses of `v`, most recent first.
    pub fn uses(&self, v: Value) -> Uses<'_> {
        Uses { ir: self, cur: self.values[v].first_use }
    }

    pub fn has_uses(&self, v: Value) -> bool {
        !self.values[v].first_use.is_none()
    }

    pub fn has_one_use(&self, v: Value) -> bool {
        let u = self.values[v].first_use;
        !u.is_none() && self.node(u).next_use.is_none()
    }

    /// True if no result of `op` has a use.
    pub fn results_unused(&self, op: OpId) -> bool {
        self.ops[op].results.iter().all(|&r| self.values[r].first_use.is_none())
    }

    /// Makes every use of `from` read `to` instead. O(uses of `from`).
    pub fn replace_all_uses(&mut self, from: Value, to: Value) {
        if from == to {
            return;
        }
        assert!(self.values.contains(to), "replace_all_uses: stale replacement value");
        let to_index = to.index() as u32;
        loop {
            let u = self.values[from].first_use;
            if u.is_none() {
                break;
            }
            self.unlink_use(u);
            self.node_mut(u).value = to_index;
            self.link_use(u);
        }
    }

    /// Replaces the uses of `from` for which `pred` holds.
    pub fn replace_uses_where(&mut self, from: Value, to: Value, mut pred: impl FnMut(&Ir, OpOperand) -> bool) {
        let uses: Vec<OpOperand> = self.uses(from).collect();
        for u in uses {
            if pred(self, u) {
                self.set_operand(u.op, u.index as usize, to);
            }
        }
    }

    /// Replaces every use of each result of `op` with the matching value of `with`.
    pub fn replace_op_results(&mut self, op: OpId, with: &[Value]) {
        let results: Vec<Value> = self.ops[op].results.to_vec();
        assert_eq!(results.len(), with.len(), "replacement value count differs from result count");
        for (r, w) in results.into_iter().zip(with) {
            self.replace_all_uses(r, *w);
        }
    }
}

/// Iterator over the uses of a value.
pub struct Uses<'a> {
    ir: &'a Ir,
    cur: Link,
}

impl Iterator for Uses<'_> {
    type Item = OpOperand;
    fn next(&mut self) -> Option<OpOperand> {
        if self.cur.is_none() {
            return None;
        }
        super::steps::step();
        let u = self.cur;
        self.cur = self.ir.node(u).next_use;
        Some(self.ir.to_operand(u))
    }
}
