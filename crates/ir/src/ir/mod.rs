//! The mutable IR storage: operations, blocks, regions and values in typed generational arenas,
//! named by small `Copy` handles ([`OpId`], [`BlockId`], [`RegionId`], [`Value`]).
//!
//! Structure:
//! - an operation has a name, operands (each a node of its value's use list), results,
//!   successor blocks, regions, a discardable-attribute dictionary, optional properties, and a
//!   location; it sits in at most one block, in an intrusive doubly linked list (O(1) insert and
//!   erase anywhere);
//! - a block has arguments and an op list, and sits in at most one region (regions keep their
//!   blocks in a `Vec`; blocks per region are few);
//! - a region belongs to at most one operation;
//! - a value is an op result, a block argument, or a parser placeholder (forward reference).
//!
//! Invariants (checked by `debug_assert`s and unit tests):
//! - every operand is on exactly one use list: that of the value it reads;
//! - an erased entity's handles are stale forever (generations), never silently reused;
//! - an op with live uses of its results cannot be erased (a programming error: panics).
//!
//! This module stores handles of types, attributes and names but never interprets them: it knows
//! nothing of the context, the registry, or any dialect.

mod clone;
mod mutate;
mod steps;
mod uses;
mod walk;

pub use clone::IrMapping;
pub use steps::traversal_steps;
pub use walk::{WalkOrder, WalkResult};

use crate::arena::{Arena, Id};
use crate::attrs::Attr;
use crate::types::Type;
use smallvec::SmallVec;

/// An operation name, uniqued in the context (`"arith.addi"`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct OpName(pub u32);

pub type OpId = Id<OpData>;
pub type BlockId = Id<BlockData>;
pub type RegionId = Id<RegionData>;
pub type Value = Id<ValueData>;

/// One operand slot of an operation: `(op, index)`. Also a node of a value's use list.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct OpOperand {
    pub op: OpId,
    pub index: u32,
}

/// "No entity" in a bare-index link.
pub(crate) const NIL: u32 = u32::MAX;

/// "No properties" in [`OpData::props`].
pub(crate) const NO_PROPS: Attr = Attr(u32::MAX);

/// A use-list link stored as bare indices: `(op slot, operand index)`, `op == NIL` for none.
/// Links only ever point at live ops (an op's operands leave every use list before it is
/// freed), so they need no generation; the public API turns them into checked handles.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Link {
    pub(crate) op: u32,
    pub(crate) index: u32,
}

impl Link {
    pub(crate) const NONE: Link = Link { op: NIL, index: 0 };
    #[inline]
    pub(crate) fn is_none(self) -> bool {
        self.op == NIL
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Operand {
    /// Slot index of the value read (always live).
    pub(crate) value: u32,
    pub(crate) prev_use: Link,
    pub(crate) next_use: Link,
}

/// Storage of an operation. Read it through [`Ir`]'s accessors. Links to the parent block and
/// sibling ops are bare slot indices (`NIL` for none): they always name live entities.
#[derive(Clone, Debug)]
pub struct OpData {
    pub(crate) name: OpName,
    /// A dictionary attribute (possibly empty) of discardable attributes.
    pub(crate) attrs: Attr,
    pub(crate) loc: Attr,
    pub(crate) parent: u32,
    pub(crate) prev: u32,
    pub(crate) next: u32,
    /// Properties (`<{...}>`), a dictionary attribute, or [`NO_PROPS`] (a bare number keeps
    /// the op record small).
    pub(crate) props: Attr,
    pub(crate) operands: SmallVec<[Operand; 2]>,
    pub(crate) results: SmallVec<[Value; 1]>,
    /// Successors and regions, boxed because most ops have neither (keeps `OpData` small).
    pub(crate) extra: Option<Box<OpExtra>>,
}

/// The rarely present parts of an op.
#[derive(Clone, Debug, Default)]
pub(crate) struct OpExtra {
    pub(crate) successors: SmallVec<[BlockId; 2]>,
    pub(crate) regions: SmallVec<[RegionId; 1]>,
}

impl OpData {
    #[inline]
    pub(crate) fn regions(&self) -> &[RegionId] {
        match &self.extra {
            Some(e) => &e.regions,
            None => &[],
        }
    }
    #[inline]
    pub(crate) fn successors(&self) -> &[BlockId] {
        match &self.extra {
            Some(e) => &e.successors,
            None => &[],
        }
    }
    pub(crate) fn extra_mut(&mut self) -> &mut OpExtra {
        self.extra.get_or_insert_with(Default::default)
    }
}

/// Storage of a block.
#[derive(Clone, Debug)]
pub struct BlockData {
    pub(crate) args: SmallVec<[Value; 2]>,
    pub(crate) first: u32,
    pub(crate) last: u32,
    pub(crate) parent: u32,
    /// How many successor slots of live ops name this block (MLIR's block use list, as a count).
    pub(crate) branch_uses: u32,
}

impl Default for BlockData {
    fn default() -> Self {
        BlockData { args: SmallVec::new(), first: NIL, last: NIL, parent: NIL, branch_uses: 0 }
    }
}

/// Storage of a region.
#[derive(Clone, Debug)]
pub struct RegionData {
    pub(crate) blocks: Vec<BlockId>,
    pub(crate) parent: u32,
}

impl Default for RegionData {
    fn default() -> Self {
        RegionData { blocks: Vec::new(), parent: NIL }
    }
}

/// Where a value comes from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ValueDef {
    OpResult {
        op: OpId,
        index: u32,
    },
    BlockArg {
        block: BlockId,
        index: u32,
    },
    /// A forward reference created by the parser, to be replaced by the real definition.
    Placeholder,
}

/// Packed form of [`ValueDef`]: owner slot (`NIL` for a placeholder) and the index, with the
/// top bit set for a block argument.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct PackedDef {
    owner: u32,
    index: u32,
}

const BLOCK_ARG_BIT: u32 = 1 << 31;

impl PackedDef {
    pub(crate) const PLACEHOLDER: PackedDef = PackedDef { owner: NIL, index: 0 };
    pub(crate) fn result(op: OpId, index: u32) -> PackedDef {
        PackedDef { owner: op.index() as u32, index }
    }
    pub(crate) fn block_arg(block: BlockId, index: u32) -> PackedDef {
        PackedDef { owner: block.index() as u32, index: index | BLOCK_ARG_BIT }
    }
    pub(crate) fn is_placeholder(self) -> bool {
        self.owner == NIL
    }
    /// The defining op's slot, for an op result.
    pub(crate) fn result_owner(self) -> Option<u32> {
        (self.owner != NIL && self.index & BLOCK_ARG_BIT == 0).then_some(self.owner)
    }
    pub(crate) fn arg_owner(self) -> Option<u32> {
        (self.owner != NIL && self.index & BLOCK_ARG_BIT != 0).then_some(self.owner)
    }
    pub(crate) fn position(self) -> u32 {
        self.index & !BLOCK_ARG_BIT
    }
}

/// Storage of a value.
#[derive(Clone, Debug)]
pub struct ValueData {
    pub(crate) ty: Type,
    pub(crate) def: PackedDef,
    pub(crate) first_use: Link,
    /// Location of a block argument (results use their op's location).
    pub(crate) loc: Option<Attr>,
}

/// Everything needed to create an operation (MLIR's `OperationState`).
#[derive(Clone, Debug)]
pub struct OperationState {
    pub name: OpName,
    pub operands: Vec<Value>,
    pub result_types: Vec<Type>,
    pub successors: Vec<BlockId>,
    /// Detached regions (created with [`Ir::create_region`]) that the op will own.
    pub regions: Vec<RegionId>,
    /// A dictionary attribute.
    pub attrs: Attr,
    pub props: Option<Attr>,
    pub loc: Attr,
}

/// The IR storage: arenas of operations, blocks, regions and values.
#[derive(Default)]
pub struct Ir {
    pub(crate) ops: Arena<OpData>,
    pub(crate) blocks: Arena<BlockData>,
    pub(crate) regions: Arena<RegionData>,
    pub(crate) values: Arena<ValueData>,
}

impl Ir {
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of live operations.
    pub fn num_ops(&self) -> usize {
        self.ops.len()
    }

    /// One past the largest op slot index (for dense side tables keyed by `OpId::index`).
    pub fn op_index_bound(&self) -> usize {
        self.ops.capacity_index()
    }
    /// One past the largest value slot index (for dense side tables keyed by `Value::index`).
    pub fn value_index_bound(&self) -> usize {
        self.values.capacity_index()
    }
    /// One past the largest block slot index.
    pub fn block_index_bound(&self) -> usize {
        self.blocks.capacity_index()
    }

    // ----- liveness -------------------------------------------------------------------------

    pub fn is_live_op(&self, op: OpId) -> bool {
        self.ops.contains(op)
    }
    pub fn is_live_block(&self, b: BlockId) -> bool {
        self.blocks.contains(b)
    }
    pub fn is_live_value(&self, v: Value) -> bool {
        self.values.contains(v)
    }

    // ----- operation accessors --------------------------------------------------------------

    #[inline]
    pub fn op_name(&self, op: OpId) -> OpName {
        self.ops[op].name
    }
    #[inline]
    pub fn num_operands(&self, op: OpId) -> usize {
        self.ops[op].operands.len()
    }
    #[inline]
    pub fn operand(&self, op: OpId, i: usize) -> Value {
        self.values.id_at(self.ops[op].operands[i].value)
    }
    /// The operand values (allocates a small vector; use [`operand`](Self::operand) in loops).
    pub fn operands(&self, op: OpId) -> SmallVec<[Value; 4]> {
        self.ops[op].operands.iter().map(|o| self.values.id_at(o.value)).collect()
    }
    #[inline]
    pub fn results(&self, op: OpId) -> &[Value] {
        &self.ops[op].results
    }
    #[inline]
    pub fn result(&self, op: OpId, i: usize) -> Value {
        self.ops[op].results[i]
    }
    #[inline]
    pub fn num_results(&self, op: OpId) -> usize {
        self.ops[op].results.len()
    }
    #[inline]
    pub fn successors(&self, op: OpId) -> &[BlockId] {
        self.ops[op].successors()
    }

    /// How many successor slots of live ops name `b`: the number of predecessor edges when
    /// every op with successors is a terminator in `b`'s region (MLIR's `getPredecessors`
    /// count). O(1).
    pub fn num_branch_uses(&self, b: BlockId) -> usize {
        self.blocks[b].branch_uses as usize
    }
    #[inline]
    pub fn regions(&self, op: OpId) -> &[RegionId] {
        self.ops[op].regions()
    }
    #[inline]
    pub fn region(&self, op: OpId, i: usize) -> RegionId {
        self.ops[op].regions()[i]
    }
    /// The discardable attribute dictionary (a dictionary attribute, possibly empty).
    #[inline]
    pub fn attrs(&self, op: OpId) -> Attr {
        self.ops[op].attrs
    }
    #[inline]
    pub fn props(&self, op: OpId) -> Option<Attr> {
        let p = self.ops[op].props;
        (p != NO_PROPS).then_some(p)
    }
    #[inline]
    pub fn loc(&self, op: OpId) -> Attr {
        self.ops[op].loc
    }
    pub fn set_attrs(&mut self, op: OpId, dict: Attr) {
        self.ops[op].attrs = dict;
    }
    pub fn set_props(&mut self, op: OpId, props: Option<Attr>) {
        self.ops[op].props = props.unwrap_or(NO_PROPS);
    }
    pub fn set_loc(&mut self, op: OpId, loc: Attr) {
        self.ops[op].loc = loc;
    }
    pub fn set_op_name(&mut self, op: OpId, name: OpName) {
        self.ops[op].name = name;
    }
    /// The block holding `op`, if it is attached.
    #[inline]
    pub fn op_block(&self, op: OpId) -> Option<BlockId> {
        self.block_at(self.ops[op].parent)
    }
    /// The op owning the region that holds `op`'s block.
    pub fn parent_op(&self, op: OpId) -> Option<OpId> {
        steps::step();
        let b = self.ops[op].parent;
        if b == NIL {
            return None;
        }
        let r = self.blocks.by_index(b).parent;
        if r == NIL {
            return None;
        }
        self.op_at(self.regions.by_index(r).parent)
    }
    #[inline]
    pub fn next_op(&self, op: OpId) -> Option<OpId> {
        steps::step();
        self.op_at(self.ops[op].next)
    }
    #[inline]
    pub fn prev_op(&self, op: OpId) -> Option<OpId> {
        steps::step();
        self.op_at(self.ops[op].prev)
    }

    // ----- bare-index links to handles ------------------------------------------------------

    #[inline]
    pub(crate) fn op_at(&self, i: u32) -> Option<OpId> {
        (i != NIL).then(|| self.ops.id_at(i))
    }
    #[inline]
    pub(crate) fn block_at(&self, i: u32) -> Option<BlockId> {
        (i != NIL).then(|| self.blocks.id_at(i))
    }
    #[inline]
    pub(crate) fn region_at(&self, i: u32) -> Option<RegionId> {
        (i != NIL).then(|| self.regions.id_at(i))
    }

    // ----- block accessors ------------------------------------------------------------------

    #[inline]
    pub fn block_args(&self, b: BlockId) -> &[Value] {
        &self.blocks[b].args
    }
    #[inline]
    pub fn first_op(&self, b: BlockId) -> Option<OpId> {
        self.op_at(self.blocks[b].first)
    }
    #[inline]
    pub fn last_op(&self, b: BlockId) -> Option<OpId> {
        self.op_at(self.blocks[b].last)
    }
    #[inline]
    pub fn block_region(&self, b: BlockId) -> Option<RegionId> {
        self.region_at(self.blocks[b].parent)
    }
    /// The op owning the region of `b`.
    pub fn block_parent_op(&self, b: BlockId) -> Option<OpId> {
        let r = self.blocks[b].parent;
        if r == NIL {
            return None;
        }
        self.op_at(self.regions.by_index(r).parent)
    }
    /// The ops of a block, in order. The iterator reads `next` links lazily: do not erase the
    /// op it is about to visit next while iterating (collect first, or use `next_op` by hand).
    pub fn block_ops(&self, b: BlockId) -> BlockOps<'_> {
        BlockOps { ir: self, cur: self.blocks[b].first }
    }
    pub fn block_is_empty(&self, b: BlockId) -> bool {
        self.blocks[b].first == NIL
    }
    /// Position of the block in its region.
    pub fn block_index(&self, b: BlockId) -> Option<usize> {
        let r = self.block_region(b)?;
        self.regions[r].blocks.iter().position(|&x| x == b)
    }

    // ----- region accessors -----------------------------------------------------------------

    #[inline]
    pub fn region_blocks(&self, r: RegionId) -> &[BlockId] {
        &self.regions[r].blocks
    }
    #[inline]
    pub fn region_parent(&self, r: RegionId) -> Option<OpId> {
        self.op_at(self.regions[r].parent)
    }
    pub fn region_entry(&self, r: RegionId) -> Option<BlockId> {
        self.regions[r].blocks.first().copied()
    }
    /// Index of the region among its parent's regions.
    pub fn region_index(&self, r: RegionId) -> Option<usize> {
        let p = self.region_parent(r)?;
        self.ops[p].regions().iter().position(|&x| x == r)
    }

    // ----- value accessors ------------------------------------------------------------------

    #[inline]
    pub fn value_type(&self, v: Value) -> Type {
        self.values[v].ty
    }
    pub fn set_value_type(&mut self, v: Value, ty: Type) {
        self.values[v].ty = ty;
    }
    #[inline]
    pub fn value_def(&self, v: Value) -> ValueDef {
        let d = self.values[v].def;
        if let Some(op) = d.result_owner() {
            ValueDef::OpResult { op: self.ops.id_at(op), index: d.position() }
        } else if let Some(block) = d.arg_owner() {
            ValueDef::BlockArg { block: self.blocks.id_at(block), index: d.position() }
        } else {
            ValueDef::Placeholder
        }
    }
    /// The op defining `v`, for an op result.
    pub fn defining_op(&self, v: Value) -> Option<OpId> {
        self.values[v].def.result_owner().map(|op| self.ops.id_at(op))
    }
    /// The block in which `v` is defined (the block of its op, or its block for an argument).
    pub fn value_block(&self, v: Value) -> Option<BlockId> {
        let d = self.values[v].def;
        if let Some(op) = d.result_owner() {
            self.block_at(self.ops.by_index(op).parent)
        } else {
            d.arg_owner().map(|b| self.blocks.id_at(b))
        }
    }
    pub fn value_loc(&self, v: Value) -> Option<Attr> {
        self.values[v].loc
    }
    pub fn set_value_loc(&mut self, v: Value, loc: Option<Attr>) {
        self.values[v].loc = loc;
    }
}

/// Iterator over the ops of a block.
pub struct BlockOps<'a> {
    ir: &'a Ir,
    cur: u32,
}

impl Iterator for BlockOps<'_> {
    type Item = OpId;
    fn next(&mut self) -> Option<OpId> {
        if self.cur == NIL {
            return None;
        }
        steps::step();
        let op = self.ir.ops.id_at(self.cur);
        self.cur = self.ir.ops.by_index(self.cur).next;
        Some(op)
    }
}
