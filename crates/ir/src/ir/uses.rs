//! Use lists: every operand is a node in the doubly linked list of uses of the value it reads.
//! Linking, unlinking and retargeting one use is O(1); replacing all uses is O(uses).

use super::{Ir, OpId, OpOperand, Value};

impl Ir {
    #[inline]
    pub(crate) fn operand_node(&self, u: OpOperand) -> &super::Operand {
        &self.ops[u.op].operands[u.index as usize]
    }
    #[inline]
    fn operand_node_mut(&mut self, u: OpOperand) -> &mut super::Operand {
        &mut self.ops[u.op].operands[u.index as usize]
    }

    /// Puts the operand `u` (whose `value` field is already set) at the head of its value's
    /// use list.
    pub(crate) fn link_use(&mut self, u: OpOperand) {
        let v = self.operand_node(u).value;
        let head = self.values[v].first_use;
        {
            let node = self.operand_node_mut(u);
            node.prev_use = None;
            node.next_use = head;
        }
        if let Some(h) = head {
            self.operand_node_mut(h).prev_use = Some(u);
        }
        self.values[v].first_use = Some(u);
    }

    /// Takes the operand `u` off its value's use list (its `value` field is left as is).
    pub(crate) fn unlink_use(&mut self, u: OpOperand) {
        let (v, prev, next) = {
            let n = self.operand_node(u);
            (n.value, n.prev_use, n.next_use)
        };
        match prev {
            Some(p) => self.operand_node_mut(p).next_use = next,
            None => self.values[v].first_use = next,
        }
        if let Some(n) = next {
            self.operand_node_mut(n).prev_use = prev;
        }
        let node = self.operand_node_mut(u);
        node.prev_use = None;
        node.next_use = None;
    }

    /// Rewrites the links of neighbours that point at `(op, from)` to point at `(op, to)`.
    /// Used when operand slots shift.
    pub(crate) fn retarget_use_links(&mut self, op: OpId, from: u32, to: u32) {
        let old = OpOperand { op, index: from };
        let new = OpOperand { op, index: to };
        let (v, prev, next) = {
            let n = self.operand_node(new);
            (n.value, n.prev_use, n.next_use)
        };
        match prev {
            Some(p) => self.operand_node_mut(p).next_use = Some(new),
            None => {
                debug_assert_eq!(self.values[v].first_use, Some(old));
                self.values[v].first_use = Some(new);
            }
        }
        if let Some(n) = next {
            self.operand_node_mut(n).prev_use = Some(new);
        }
    }

    /// Sets operand `i` of `op` to `v`. O(1).
    pub fn set_operand(&mut self, op: OpId, i: usize, v: Value) {
        let u = OpOperand { op, index: i as u32 };
        if self.operand_node(u).value == v {
            return;
        }
        self.unlink_use(u);
        self.operand_node_mut(u).value = v;
        self.link_use(u);
    }

    /// Replaces the whole operand list of `op`. O(old + new).
    pub fn set_operands(&mut self, op: OpId, values: &[Value]) {
        let n = self.ops[op].operands.len();
        for i in 0..n {
            self.unlink_use(OpOperand { op, index: i as u32 });
        }
        self.ops[op].operands.clear();
        for &v in values {
            self.ops[op].operands.push(super::Operand { value: v, prev_use: None, next_use: None });
        }
        for i in 0..values.len() {
            self.link_use(OpOperand { op, index: i as u32 });
        }
    }

    /// Inserts `v` as operand number `i` (shifting later operands up).
    pub fn insert_operand(&mut self, op: OpId, i: usize, v: Value) {
        let n = self.ops[op].operands.len();
        assert!(i <= n, "operand index {i} out of range (op has {n})");
        self.ops[op].operands.insert(i, super::Operand { value: v, prev_use: None, next_use: None });
        for j in (i + 1..=n).rev() {
            self.retarget_use_links(op, j as u32 - 1, j as u32);
        }
        self.link_use(OpOperand { op, index: i as u32 });
    }

    /// Removes operand number `i` (shifting later operands down).
    pub fn erase_operand(&mut self, op: OpId, i: usize) {
        self.unlink_use(OpOperand { op, index: i as u32 });
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
        self.values[v].first_use.is_some()
    }

    pub fn has_one_use(&self, v: Value) -> bool {
        match self.values[v].first_use {
            Some(u) => self.operand_node(u).next_use.is_none(),
            None => false,
        }
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
        while let Some(u) = self.values[from].first_use {
            self.unlink_use(u);
            self.operand_node_mut(u).value = to;
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
    cur: Option<OpOperand>,
}

impl Iterator for Uses<'_> {
    type Item = OpOperand;
    fn next(&mut self) -> Option<OpOperand> {
        let u = self.cur?;
        self.cur = self.ir.operand_node(u).next_use;
        Some(u)
    }
}
