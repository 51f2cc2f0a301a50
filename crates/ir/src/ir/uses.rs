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

    /// After the operands of `op` that were at slots `from..` moved by `delta` slots (an
    /// operand inserted or removed before them), rewrites every link that still names an old
    /// slot. Links between two operands of `op` itself (one value read twice) are fixed on
    /// both sides before any neighbour is followed, so no write lands in a slot that now holds
    /// another operand.
    fn relink_shifted(&mut self, op: OpId, from: u32, delta: i64) {
        let slot = op.index() as u32;
        let shift = |l: Link| {
            if !l.is_none() && l.op == slot && l.index >= from {
                Link { op: slot, index: (l.index as i64 + delta) as u32 }
            } else {
                l
            }
        };
        for node in self.ops[op].operands.iter_mut() {
            node.prev_use = shift(node.prev_use);
            node.next_use = shift(node.next_use);
        }
        let first_new = (from as i64 + delta) as usize;
        for k in first_new..self.ops[op].operands.len() {
            let new = Self::link(op, k);
            let (v, prev, next) = {
                let n = self.node(new);
                (n.value, n.prev_use, n.next_use)
            };
            if prev.is_none() {
                self.values.by_index_mut(v).first_use = new;
            } else if prev.op != slot {
                self.node_mut(prev).next_use = new;
            }
            if !next.is_none() && next.op != slot {
                self.node_mut(next).prev_use = new;
            }
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
        self.relink_shifted(op, i as u32, 1);
        self.link_use(Self::link(op, i));
    }

    /// Removes operand number `i` (shifting later operands down).
    pub fn erase_operand(&mut self, op: OpId, i: usize) {
        self.unlink_use(Self::link(op, i));
        self.ops[op].operands.remove(i);
        self.relink_shifted(op, i as u32 + 1, -1);
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

#[cfg(test)]
mod tests {
    use super::super::mutate::tests::state;
    use super::*;

    /// Walks `v`'s use list both ways and checks it holds exactly the operands reading `v`.
    fn check_use_list(ir: &Ir, v: Value, ops: &[OpId]) {
        let mut seen = Vec::new();
        let mut prev = Link::NONE;
        let mut cur = ir.values[v].first_use;
        while !cur.is_none() {
            let n = ir.node(cur);
            assert_eq!(n.value, v.index() as u32, "a use of another value is on the list");
            assert_eq!(n.prev_use, prev, "a broken back link");
            seen.push(ir.to_operand(cur));
            assert!(seen.len() <= 10_000, "a cycle in the use list");
            prev = cur;
            cur = n.next_use;
        }
        let mut want: Vec<OpOperand> = Vec::new();
        for &op in ops.iter().filter(|&&o| ir.is_live_op(o)) {
            for (i, &x) in ir.operands(op).iter().enumerate() {
                if x == v {
                    want.push(OpOperand { op, index: i as u32 });
                }
            }
        }
        let key = |u: &OpOperand| (u.op.index(), u.index);
        seen.sort_by_key(key);
        want.sort_by_key(key);
        assert_eq!(seen, want);
    }

    /// Random operand edits on ops reading few values (so one op often reads a value twice,
    /// in adjacent use-list nodes): the use lists stay exact after every step. Inserting or
    /// erasing an operand before two uses of one value once wrote a link into the wrong slot.
    #[test]
    fn use_lists_stay_exact_under_random_operand_edits() {
        let mut ir = Ir::new();
        let b = ir.create_block(&[]);
        let def = ir.create_op(state(0, vec![], 3));
        ir.append_op(b, def);
        let values: Vec<Value> = (0..3).map(|i| ir.result(def, i)).collect();
        let ops: Vec<OpId> = (0..4)
            .map(|k| {
                let o = ir.create_op(state(0, vec![values[k % 3]; k + 1], 0));
                ir.append_op(b, o);
                o
            })
            .collect();
        let mut rng = crate::test_rng::Rng(0x9E37_79B9_7F4A_7C15);
        let mut next = |n: usize| rng.below(n);
        for _ in 0..20_000 {
            let op = ops[next(ops.len())];
            let len = ir.num_operands(op);
            let v = values[next(values.len())];
            match next(4) {
                0 => ir.insert_operand(op, next(len + 1), v),
                1 if len > 0 => ir.erase_operand(op, next(len)),
                2 if len > 0 => ir.set_operand(op, next(len), v),
                _ if len > 8 => ir.set_operands(op, &[v, v]),
                _ => ir.insert_operand(op, len, v),
            }
            for &x in &values {
                check_use_list(&ir, x, &ops);
            }
        }
    }
}
