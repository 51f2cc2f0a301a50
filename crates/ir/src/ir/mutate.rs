//! Creating, attaching, moving and erasing operations, blocks, regions and values.

use super::*;

/// Slot index of a handle, for bare-index links.
#[inline]
fn ix<T>(id: crate::arena::Id<T>) -> u32 {
    id.index() as u32
}

impl Ir {
    /// Creates a detached operation from `state`; its regions become owned by it.
    pub fn create_op(&mut self, state: OperationState) -> OpId {
        let OperationState { name, operands, result_types, successors, regions, attrs, props, loc } = state;
        for &v in &operands {
            assert!(self.values.contains(v), "create_op: an operand is a stale value handle");
        }
        let op = self.ops.alloc(OpData {
            name,
            attrs,
            loc,
            parent: NIL,
            prev: NIL,
            next: NIL,
            props: props.unwrap_or(NO_PROPS),
            operands: operands
                .iter()
                .map(|&v| Operand { value: ix(v), prev_use: Link::NONE, next_use: Link::NONE })
                .collect(),
            results: SmallVec::new(),
            extra: (!successors.is_empty() || !regions.is_empty())
                .then(|| Box::new(OpExtra { successors: successors.into_iter().collect(), regions: SmallVec::new() })),
        });
        for i in 0..operands.len() {
            self.link_use(Link { op: ix(op), index: i as u32 });
        }
        let results: SmallVec<[Value; 1]> = result_types
            .iter()
            .enumerate()
            .map(|(i, &ty)| {
                self.values.alloc(ValueData {
                    ty,
                    def: PackedDef::result(op, i as u32),
                    first_use: Link::NONE,
                    loc: None,
                })
            })
            .collect();
        self.ops[op].results = results;
        for r in regions {
            self.attach_region(op, r);
        }
        for i in 0..self.ops[op].successors().len() {
            let b = self.ops[op].successors()[i];
            self.count_branch_use(b, true);
        }
        op
    }

    /// Counts one more (`add`) or one fewer successor slot naming `b` (a freed block is skipped).
    fn count_branch_use(&mut self, b: BlockId, add: bool) {
        if let Some(data) = self.blocks.get_mut(b) {
            data.branch_uses = if add { data.branch_uses + 1 } else { data.branch_uses.saturating_sub(1) };
        }
    }

    /// Gives a detached region to `op` as its last region.
    pub fn attach_region(&mut self, op: OpId, r: RegionId) {
        assert!(self.regions[r].parent == NIL, "region already has a parent op");
        self.regions[r].parent = ix(op);
        self.ops[op].extra_mut().regions.push(r);
    }

    /// Creates an empty detached region.
    pub fn create_region(&mut self) -> RegionId {
        self.regions.alloc(RegionData::default())
    }

    /// Creates a detached block with arguments of the given types.
    pub fn create_block(&mut self, arg_types: &[Type]) -> BlockId {
        let b = self.blocks.alloc(BlockData::default());
        for &t in arg_types {
            self.add_block_arg(b, t, None);
        }
        b
    }

    /// Appends an argument to a block.
    pub fn add_block_arg(&mut self, b: BlockId, ty: Type, loc: Option<Attr>) -> Value {
        let index = self.blocks[b].args.len() as u32;
        let v = self.values.alloc(ValueData { ty, def: PackedDef::block_arg(b, index), first_use: Link::NONE, loc });
        self.blocks[b].args.push(v);
        v
    }

    /// Removes an unused block argument, renumbering the later ones.
    pub fn erase_block_arg(&mut self, b: BlockId, i: usize) {
        let v = self.blocks[b].args[i];
        assert!(!self.has_uses(v), "erasing a block argument that still has uses");
        self.blocks[b].args.remove(i);
        self.values.free(v);
        for j in i..self.blocks[b].args.len() {
            let a = self.blocks[b].args[j];
            self.values[a].def = PackedDef::block_arg(b, j as u32);
        }
    }

    /// Creates a forward-reference value of type `ty` (used by the parser; replace its uses
    /// and erase it with [`erase_value`](Self::erase_value) once the definition is known).
    pub fn create_placeholder(&mut self, ty: Type) -> Value {
        self.values.alloc(ValueData { ty, def: PackedDef::PLACEHOLDER, first_use: Link::NONE, loc: None })
    }

    /// Frees a placeholder value that has no uses left.
    pub fn erase_value(&mut self, v: Value) {
        assert!(self.values[v].def.is_placeholder(), "only placeholders can be erased directly");
        assert!(!self.has_uses(v), "erasing a placeholder with uses");
        self.values.free(v);
    }

    /// Appends a detached block to a region.
    pub fn append_block(&mut self, r: RegionId, b: BlockId) {
        assert!(self.blocks[b].parent == NIL, "block already in a region");
        self.blocks[b].parent = ix(r);
        self.regions[r].blocks.push(b);
    }

    /// Inserts a detached block at position `pos` of a region.
    pub fn insert_block(&mut self, r: RegionId, pos: usize, b: BlockId) {
        assert!(self.blocks[b].parent == NIL, "block already in a region");
        self.blocks[b].parent = ix(r);
        self.regions[r].blocks.insert(pos, b);
    }

    /// Takes a block out of its region (it keeps its ops).
    pub fn detach_block(&mut self, b: BlockId) {
        let r = std::mem::replace(&mut self.blocks[b].parent, NIL);
        if r != NIL {
            self.regions.by_index_mut(r).blocks.retain(|&x| x != b);
        }
    }

    /// Appends a detached op at the end of a block.
    pub fn append_op(&mut self, b: BlockId, op: OpId) {
        assert!(self.ops[op].parent == NIL, "op already in a block");
        let last = self.blocks[b].last;
        {
            let d = &mut self.ops[op];
            d.parent = ix(b);
            d.prev = last;
            d.next = NIL;
        }
        if last == NIL {
            self.blocks[b].first = ix(op);
        } else {
            self.ops.by_index_mut(last).next = ix(op);
        }
        self.blocks[b].last = ix(op);
    }

    /// Inserts a detached op at the start of a block.
    pub fn prepend_op(&mut self, b: BlockId, op: OpId) {
        match self.first_op(b) {
            Some(f) => self.insert_op_before(f, op),
            None => self.append_op(b, op),
        }
    }

    /// Inserts a detached op right before `anchor`.
    pub fn insert_op_before(&mut self, anchor: OpId, op: OpId) {
        assert!(self.ops[op].parent == NIL, "op already in a block");
        let b = self.ops[anchor].parent;
        assert!(b != NIL, "anchor op is not in a block");
        let prev = self.ops[anchor].prev;
        {
            let d = &mut self.ops[op];
            d.parent = b;
            d.prev = prev;
            d.next = ix(anchor);
        }
        self.ops[anchor].prev = ix(op);
        if prev == NIL {
            self.blocks.by_index_mut(b).first = ix(op);
        } else {
            self.ops.by_index_mut(prev).next = ix(op);
        }
    }

    /// Inserts a detached op right after `anchor`.
    pub fn insert_op_after(&mut self, anchor: OpId, op: OpId) {
        match self.next_op(anchor) {
            Some(n) => self.insert_op_before(n, op),
            None => {
                let b = self.op_block(anchor).expect("anchor op is not in a block");
                self.append_op(b, op)
            }
        }
    }

    /// Unlinks an op from its block; it stays alive (detached) with its uses intact.
    pub fn detach_op(&mut self, op: OpId) {
        let b = std::mem::replace(&mut self.ops[op].parent, NIL);
        if b == NIL {
            return;
        }
        let prev = std::mem::replace(&mut self.ops[op].prev, NIL);
        let next = std::mem::replace(&mut self.ops[op].next, NIL);
        if prev == NIL {
            self.blocks.by_index_mut(b).first = next;
        } else {
            self.ops.by_index_mut(prev).next = next;
        }
        if next == NIL {
            self.blocks.by_index_mut(b).last = prev;
        } else {
            self.ops.by_index_mut(next).prev = prev;
        }
    }

    /// Moves `op` right before `anchor` (possibly into another block).
    pub fn move_op_before(&mut self, op: OpId, anchor: OpId) {
        self.detach_op(op);
        self.insert_op_before(anchor, op);
    }

    /// Moves `op` to the end of block `b`.
    pub fn move_op_to_end(&mut self, op: OpId, b: BlockId) {
        self.detach_op(op);
        self.append_op(b, op);
    }

    /// Moves all ops of `from` to the end of `to` (O(ops moved)).
    pub fn splice_block_ops(&mut self, from: BlockId, to: BlockId) {
        while let Some(op) = self.first_op(from) {
            self.detach_op(op);
            self.append_op(to, op);
        }
    }

    /// Erases `op` and everything nested in it. Panics if a result still has a use outside
    /// the op (a programming error: replace the uses first).
    pub fn erase_op(&mut self, op: OpId) {
        for &r in self.ops[op].results.iter() {
            let u = self.values[r].first_use;
            if !u.is_none() && !self.is_ancestor(op, self.ops.id_at(u.op)) {
                panic!("erase_op: a result of the op still has uses; replace them first");
            }
        }
        self.detach_op(op);
        // Drop every operand reference in the subtree first, so that ops inside may refer to
        // each other in any order, then free storage.
        let mut subtree = Vec::new();
        self.collect_subtree(op, &mut subtree);
        self.unlink_all_operands(&subtree);
        for &o in &subtree {
            self.free_op_storage(o);
        }
    }

    fn unlink_all_operands(&mut self, ops: &[OpId]) {
        for &o in ops {
            for i in 0..self.ops[o].operands.len() {
                self.unlink_use(Link { op: ix(o), index: i as u32 });
            }
        }
    }

    /// Makes `b` successor number `i` of `op` (which must have more than `i` successors).
    pub fn set_successor(&mut self, op: OpId, i: usize, b: BlockId) {
        let old = std::mem::replace(&mut self.ops[op].extra_mut().successors[i], b);
        self.count_branch_use(old, false);
        self.count_branch_use(b, true);
    }

    /// Erases a block (detaching it first) and all ops in it. Its arguments must be unused
    /// outside the block.
    pub fn erase_block(&mut self, b: BlockId) {
        self.detach_block(b);
        let ops: Vec<OpId> = self.block_ops(b).collect();
        let mut subtree = Vec::new();
        for &o in &ops {
            self.collect_subtree(o, &mut subtree);
        }
        self.unlink_all_operands(&subtree);
        for &a in self.blocks[b].args.iter() {
            assert!(self.values[a].first_use.is_none(), "erase_block: a block argument still has uses");
        }
        for &o in &subtree {
            self.free_op_storage(o);
        }
        if let Some(data) = self.blocks.free(b) {
            for a in data.args {
                self.values.free(a);
            }
        }
    }

    /// Pushes `op` and every op nested in it (pre-order), iteratively (no recursion).
    fn collect_subtree(&self, op: OpId, out: &mut Vec<OpId>) {
        let mut stack = vec![op];
        while let Some(o) = stack.pop() {
            out.push(o);
            for &r in self.ops[o].regions().iter() {
                for &b in self.regions[r].blocks.iter() {
                    stack.extend(self.block_ops(b));
                }
            }
        }
    }

    /// Frees one op's own storage: results, regions, blocks, block args. Operands must have
    /// been unlinked already; nested ops are freed by the caller.
    fn free_op_storage(&mut self, op: OpId) {
        let Some(data) = self.ops.free(op) else { return };
        for r in data.results {
            self.values.free(r);
        }
        for &b in data.extra.as_ref().map(|e| e.successors.as_slice()).unwrap_or_default() {
            self.count_branch_use(b, false);
        }
        for r in data.extra.map(|e| e.regions).unwrap_or_default() {
            if let Some(rd) = self.regions.free(r) {
                for b in rd.blocks {
                    if let Some(bd) = self.blocks.free(b) {
                        for a in bd.args {
                            self.values.free(a);
                        }
                    }
                }
            }
        }
    }

    /// True if `anc` is `op` or (transitively) contains it.
    pub fn is_ancestor(&self, anc: OpId, op: OpId) -> bool {
        let mut cur = Some(op);
        while let Some(c) = cur {
            if c == anc {
                return true;
            }
            cur = self.parent_op(c);
        }
        false
    }

    /// True if region `r` (transitively) contains `op`.
    pub fn region_contains(&self, r: RegionId, op: OpId) -> bool {
        let mut cur = op;
        loop {
            let Some(b) = self.op_block(cur) else { return false };
            let Some(pr) = self.block_region(b) else { return false };
            if pr == r {
                return true;
            }
            match self.region_parent(pr) {
                Some(p) => cur = p,
                None => return false,
            }
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::attrs::Attr;
    use crate::types::Type;

    /// A bare op state (name slot `name`, placeholder types and attributes) for IR tests.
    pub(in crate::ir) fn state(name: u32, operands: Vec<Value>, n_results: usize) -> OperationState {
        OperationState {
            name: OpName(name),
            operands,
            result_types: vec![Type(0); n_results],
            successors: vec![],
            regions: vec![],
            attrs: Attr(0),
            props: None,
            loc: Attr(0),
        }
    }

    #[test]
    fn use_lists_follow_edits() {
        let mut ir = Ir::new();
        let b = ir.create_block(&[]);
        let a = ir.create_op(state(0, vec![], 1));
        ir.append_op(b, a);
        let x = ir.result(a, 0);
        let u1 = ir.create_op(state(1, vec![x, x], 1));
        ir.append_op(b, u1);
        let y = ir.result(u1, 0);
        let u2 = ir.create_op(state(2, vec![y, x], 0));
        ir.append_op(b, u2);
        assert_eq!(ir.uses(x).count(), 3);
        ir.erase_operand(u1, 0);
        assert_eq!(ir.uses(x).count(), 2);
        assert_eq!(ir.operand(u1, 0), x);
        ir.insert_operand(u2, 0, x);
        assert_eq!(ir.operands(u2).as_slice(), &[x, y, x]);
        assert_eq!(ir.uses(x).count(), 3);
        for u in ir.uses(x).collect::<Vec<_>>() {
            assert_eq!(ir.operand(u.op, u.index as usize), x);
        }
        ir.replace_all_uses(x, y);
        assert!(!ir.has_uses(x));
        assert_eq!(ir.uses(y).count(), 4);
        ir.erase_op(u2);
        assert_eq!(ir.uses(y).count(), 1);
        assert!(!ir.is_live_op(u2));
        let ops: Vec<_> = ir.block_ops(b).collect();
        assert_eq!(ops, vec![a, u1]);
    }

    #[test]
    fn branch_uses_follow_successor_edits() {
        let mut ir = Ir::new();
        let r = ir.create_region();
        let blocks: Vec<BlockId> = (0..3).map(|_| ir.create_block(&[])).collect();
        for &b in &blocks {
            ir.append_block(r, b);
        }
        let br = |ir: &mut Ir, from: BlockId, to: Vec<BlockId>| {
            let op = ir.create_op(OperationState { successors: to, ..state(7, vec![], 0) });
            ir.append_op(from, op);
            op
        };
        let t0 = br(&mut ir, blocks[0], vec![blocks[1], blocks[2], blocks[2]]);
        let t1 = br(&mut ir, blocks[1], vec![blocks[2]]);
        let uses = |ir: &Ir| blocks.iter().map(|&b| ir.num_branch_uses(b)).collect::<Vec<_>>();
        assert_eq!(uses(&ir), [0, 1, 3]);
        ir.set_successor(t0, 1, blocks[1]);
        assert_eq!(uses(&ir), [0, 2, 2]);
        ir.erase_op(t1);
        assert_eq!(uses(&ir), [0, 2, 1]);
        ir.erase_block(blocks[0]);
        assert_eq!(ir.num_branch_uses(blocks[1]), 0);
        assert_eq!(ir.num_branch_uses(blocks[2]), 0);
    }

    #[test]
    fn erase_keeps_handles_stale_and_list_consistent() {
        let mut ir = Ir::new();
        let b = ir.create_block(&[]);
        let ops: Vec<OpId> = (0..5).map(|i| ir.create_op(state(i, vec![], 0))).collect();
        for &o in &ops {
            ir.append_op(b, o);
        }
        ir.erase_op(ops[2]);
        ir.erase_op(ops[0]);
        ir.erase_op(ops[4]);
        let left: Vec<_> = ir.block_ops(b).collect();
        assert_eq!(left, vec![ops[1], ops[3]]);
        let fresh = ir.create_op(state(9, vec![], 0));
        assert!(!ir.is_live_op(ops[2]) && ir.is_live_op(fresh));
        ir.insert_op_before(ops[3], fresh);
        assert_eq!(ir.block_ops(b).collect::<Vec<_>>(), vec![ops[1], fresh, ops[3]]);
        ir.move_op_to_end(ops[1], b);
        assert_eq!(ir.block_ops(b).collect::<Vec<_>>(), vec![fresh, ops[3], ops[1]]);
    }

    #[test]
    fn erase_nested_with_internal_uses() {
        let mut ir = Ir::new();
        let outer = ir.create_block(&[]);
        let r = ir.create_region();
        let inner = ir.create_block(&[Type(0)]);
        ir.append_block(r, inner);
        let arg = ir.block_args(inner)[0];
        let i1 = ir.create_op(state(1, vec![arg], 1));
        ir.append_op(inner, i1);
        let v = ir.result(i1, 0);
        let i2 = ir.create_op(state(2, vec![v, arg], 0));
        ir.append_op(inner, i2);
        let mut st = state(3, vec![], 0);
        st.regions = vec![r];
        let holder = ir.create_op(st);
        ir.append_op(outer, holder);
        ir.erase_op(holder);
        assert!(!ir.is_live_op(i1) && !ir.is_live_op(i2) && !ir.is_live_value(arg));
        assert!(ir.block_is_empty(outer));
        assert_eq!(ir.num_ops(), 0);
    }
}
