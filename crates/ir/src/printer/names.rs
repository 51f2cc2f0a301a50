//! SSA value and block names, computed once per print as mlir-opt's `SSANameState` does.
//!
//! Rules (all observed on mlir-opt-19):
//! - Numbering starts at the printed root op: its results first, then its regions. Regions are
//!   taken from a stack (last pushed first), so the regions of one op are numbered last-first;
//!   a region's own values are all numbered before any region nested in it.
//! - In the custom form each nested region restarts from the counters its parent region
//!   reached (siblings reuse numbers); in the generic form counters never restart, so every
//!   value of the printed tree gets a distinct number.
//! - Entry block arguments are `%argN` (their own counter); other block arguments and op
//!   results are `%N`. An op's results share one number: `%3:2` defines `%3#0` and `%3#1`.
//! - In the custom form, a registered op may suggest result names (`%c0`, `%true`); a name is
//!   sanitized and made unique within the enclosing regions by appending `_K`, with one
//!   conflict counter per naming context. Named results other than result 0 start new result
//!   groups (`%a, %b:2 = ...`).
//! - Blocks are `^bbN`, numbered per region in order.
//! - With `--mlir-print-value-users`, an op without results takes the next value number as
//!   its id (`%4`), so that the users comments can name it; ops with results are named by
//!   their results.
//! - `--mlir-print-unique-ssa-ids` numbers as the generic form does (counters never restart);
//!   the scopes of used names still end with their region, so a suggested name may repeat in
//!   sibling regions.
//!
//! Storage is dense (`Vec`s indexed by `Value::index()` and `BlockId::index()`) so the hot
//! printing path does no hashing for names.
//!
//! Layer: printer data: imports `op_names.rs` (result-name hooks come from op definitions) and
//! `text.rs`, never the `Printer` itself.

use super::op_names::OpNameCache;
use super::text::push_u64;
use crate::context::Context;
use crate::ir::{BlockId, Ir, OpId, RegionId, Value, ValueDef};
use rustc_hash::{FxHashMap, FxHashSet};

const UNSET: u32 = u32::MAX;
const NAMED: u32 = 1 << 31;

#[derive(Clone, Copy, Default)]
struct Counters {
    next_value: u32,
    next_arg: u32,
    next_conflict: u32,
}

/// Names of the values and blocks of one printed tree.
#[derive(Default)]
pub(crate) struct Names {
    /// Per value index: `UNSET`, a number, or `NAMED | index into strings`.
    values: Vec<u32>,
    strings: Vec<Box<str>>,
    /// Per block index: number + 1 (0 when the block is not numbered).
    blocks: Vec<u32>,
    /// Sorted result-group starts of ops with named results (only when more than one group).
    groups: FxHashMap<usize, Vec<u32>>,
    /// Predecessor blocks of each block (one entry per successor use), by block index.
    preds: FxHashMap<usize, Vec<BlockId>>,
    /// Ids of the ops without results, by op index (only with `number_ops`).
    op_ids: FxHashMap<usize, u32>,
}

/// Scoped set of used names (MLIR's `ScopedHashTable` of names).
#[derive(Default)]
struct UsedNames {
    set: FxHashSet<Box<str>>,
    log: Vec<Box<str>>,
    scope_starts: Vec<usize>,
}

impl UsedNames {
    fn depth(&self) -> usize {
        self.scope_starts.len()
    }
    fn push_scope(&mut self) {
        self.scope_starts.push(self.log.len());
    }
    fn pop_scope(&mut self) {
        if let Some(start) = self.scope_starts.pop() {
            for name in self.log.drain(start..) {
                self.set.remove(&name);
            }
        }
    }
    fn contains(&self, s: &str) -> bool {
        self.set.contains(s)
    }
    fn insert(&mut self, s: &str) {
        self.set.insert(s.into());
        self.log.push(s.into());
    }
}

/// The numbering walk.
struct Numberer<'a, 'n> {
    ctx: &'a Context,
    op_names: &'n mut OpNameCache,
    ir: &'a Ir,
    names: &'n mut Names,
    counters: Counters,
    used: UsedNames,
    /// Use result-name hooks (custom form only).
    custom: bool,
    /// Regions of the ops numbered since the last clear (to number after their parent region).
    nested: Vec<RegionId>,
    /// Give ops without results an id (`--mlir-print-value-users`).
    number_ops: bool,
}

/// What to number and how (from the print flags).
#[derive(Clone, Copy, Default)]
pub(crate) struct NameMode {
    /// Never restart counters in nested regions (generic form, `--mlir-print-unique-ssa-ids`).
    pub unique: bool,
    /// Ask registered ops for result names (custom form).
    pub custom: bool,
    /// Number ops without results too (`--mlir-print-value-users`).
    pub number_ops: bool,
}

impl Names {
    /// Numbers every value and block under `root` (including `root`'s results), as `mode`
    /// says.
    pub fn compute(ctx: &Context, ir: &Ir, root: OpId, mode: NameMode, op_names: &mut OpNameCache) -> Names {
        let NameMode { unique, custom, number_ops } = mode;
        let mut names = Names {
            values: vec![UNSET; ir.value_index_bound()],
            blocks: vec![0; ir.block_index_bound()],
            ..Names::default()
        };
        let mut n = Numberer {
            ctx,
            op_names,
            ir,
            names: &mut names,
            counters: Counters::default(),
            used: UsedNames::default(),
            custom,
            nested: Vec::new(),
            number_ops,
        };
        n.used.push_scope();
        let mut stack: Vec<(RegionId, Counters, usize)> = Vec::new();
        for &r in ir.regions(root) {
            stack.push((r, n.counters, n.used.depth()));
        }
        n.number_op(root);
        while let Some((region, counters, parent_depth)) = stack.pop() {
            if !unique {
                n.counters = counters;
            }
            while n.used.depth() > parent_depth {
                n.used.pop_scope();
            }
            n.used.push_scope();
            n.nested.clear();
            n.number_region(region);
            let depth = n.used.depth();
            for &r in &n.nested {
                stack.push((r, n.counters, depth));
            }
        }
        names
    }

    fn code(&self, v: Value) -> u32 {
        self.values.get(v.index()).copied().unwrap_or(UNSET)
    }

    /// Appends `%name`, `%N` or `%N#k` for a use of `v` (MLIR's `printValueID`).
    pub fn push_value(&self, ir: &Ir, out: &mut String, v: Value, print_result_no: bool) {
        let (lookup, result_no) = self.lookup(ir, v);
        let code = self.code(lookup);
        if code == UNSET {
            out.push_str("<<UNKNOWN SSA VALUE>>");
            return;
        }
        out.push('%');
        if code & NAMED != 0 {
            out.push_str(&self.strings[(code & !NAMED) as usize]);
        } else {
            push_u64(out, code as u64);
        }
        if let (Some(k), true) = (result_no, print_result_no) {
            out.push('#');
            push_u64(out, k as u64);
        }
    }

    /// The value that carries the name of `v`'s result group, and `v`'s index in the group
    /// when the group has more than one result.
    fn lookup(&self, ir: &Ir, v: Value) -> (Value, Option<u32>) {
        if !ir.is_live_value(v) {
            return (v, None);
        }
        let ValueDef::OpResult { op, index } = ir.value_def(v) else {
            return (v, None);
        };
        let n = ir.num_results(op) as u32;
        if n == 1 {
            return (v, None);
        }
        let Some(groups) = self.groups.get(&op.index()) else {
            return (ir.result(op, 0), Some(index));
        };
        let pos = groups.partition_point(|&g| g <= index);
        let start = if pos == 0 { 0 } else { groups[pos - 1] };
        let size = if pos < groups.len() { groups[pos] - start } else { n - start };
        (ir.result(op, start as usize), (size != 1).then_some(index - start))
    }

    /// Appends `%N`, the id of an op without results (MLIR's `printOperationID`), or
    /// `<<UNKNOWN OPERATION>>` when it has none.
    pub fn push_op_id(&self, out: &mut String, op: OpId) {
        match self.op_ids.get(&op.index()) {
            Some(&n) => {
                out.push('%');
                push_u64(out, n as u64);
            }
            None => out.push_str("<<UNKNOWN OPERATION>>"),
        }
    }

    /// Result-group starts of `op` (empty when all results form one group).
    pub fn result_groups(&self, op: OpId) -> &[u32] {
        self.groups.get(&op.index()).map(|g| &g[..]).unwrap_or(&[])
    }

    /// Appends `^bbN` (or `INVALIDBLOCK` for a block outside the printed tree).
    pub fn push_block(&self, out: &mut String, b: BlockId) {
        match self.block_number(b) {
            Some(n) => {
                out.push_str("^bb");
                push_u64(out, n as u64);
            }
            None => out.push_str("INVALIDBLOCK"),
        }
    }

    pub fn block_number(&self, b: BlockId) -> Option<u32> {
        match self.blocks.get(b.index()).copied().unwrap_or(0) {
            0 => None,
            n => Some(n - 1),
        }
    }

    /// Predecessors of `b`, one per successor use.
    pub fn preds(&self, b: BlockId) -> &[BlockId] {
        self.preds.get(&b.index()).map(|p| &p[..]).unwrap_or(&[])
    }
}

impl Numberer<'_, '_> {
    fn number_region(&mut self, region: RegionId) {
        for (i, &b) in self.ir.region_blocks(region).iter().enumerate() {
            if let Some(slot) = self.names.blocks.get_mut(b.index()) {
                *slot = i as u32 + 1;
            }
            self.number_block(b, i == 0);
        }
    }

    fn number_block(&mut self, b: BlockId, is_entry: bool) {
        let ir = self.ir;
        for &arg in ir.block_args(b) {
            if self.names.code(arg) != UNSET {
                continue;
            }
            if is_entry {
                let mut name = String::from("arg");
                push_u64(&mut name, self.counters.next_arg as u64);
                self.counters.next_arg += 1;
                self.set_name(arg, &name);
            } else {
                self.set_number(arg);
            }
        }
        for op in ir.block_ops(b) {
            self.number_op(op);
        }
    }

    fn number_op(&mut self, op: OpId) {
        let ir = self.ir;
        self.nested.extend_from_slice(ir.regions(op));
        for &succ in ir.successors(op) {
            if let Some(pred) = ir.op_block(op) {
                self.names.preds.entry(succ.index()).or_default().push(pred);
            }
        }
        let mut groups: smallvec::SmallVec<[u32; 2]> = smallvec::smallvec![0];
        let hook =
            if self.custom { self.op_names.def(self.ctx, ir.op_name(op)).and_then(|d| d.result_names) } else { None };
        if let Some(hook) = hook {
            let mut suggested: Vec<(Value, String)> = Vec::new();
            hook(self.ctx, ir, op, &mut |v, name| suggested.push((v, name)));
            for (v, name) in suggested {
                let ValueDef::OpResult { op: owner, index } = ir.value_def(v) else {
                    continue;
                };
                if owner != op || self.names.code(v) != UNSET {
                    continue;
                }
                if name.is_empty() {
                    self.set_number(v);
                } else {
                    self.set_name(v, &name);
                }
                if index != 0 {
                    groups.push(index);
                }
            }
        }
        let results = ir.results(op);
        let Some(&first) = results.first() else {
            if self.number_ops && !self.names.op_ids.contains_key(&op.index()) {
                self.names.op_ids.insert(op.index(), self.counters.next_value);
                self.counters.next_value += 1;
            }
            return;
        };
        if self.names.code(first) == UNSET {
            self.set_number(first);
        }
        if groups.len() != 1 {
            groups.sort_unstable();
            self.names.groups.insert(op.index(), groups.into_vec());
        }
    }

    fn set_number(&mut self, v: Value) {
        if let Some(slot) = self.names.values.get_mut(v.index()) {
            *slot = self.counters.next_value;
        }
        self.counters.next_value += 1;
    }

    fn set_name(&mut self, v: Value, name: &str) {
        let unique = self.unique_name(name);
        let idx = self.names.strings.len() as u32;
        self.names.strings.push(unique.into());
        if let Some(slot) = self.names.values.get_mut(v.index()) {
            *slot = NAMED | idx;
        }
    }

    /// Sanitizes `name` and appends `_K` until it is not used in an enclosing scope.
    fn unique_name(&mut self, name: &str) -> String {
        let name = sanitize_identifier(name, "$._-", true);
        if !self.used.contains(&name) {
            self.used.insert(&name);
            return name;
        }
        let mut probe = name.clone();
        probe.push('_');
        loop {
            probe.truncate(name.len() + 1);
            push_u64(&mut probe, self.counters.next_conflict as u64);
            self.counters.next_conflict += 1;
            if !self.used.contains(&probe) {
                self.used.insert(&probe);
                return probe;
            }
        }
    }
}

/// MLIR's `sanitizeIdentifier`: keep alphanumerics and `allowed` punctuation, spaces become
/// `_`, other bytes their upper-case hex; a leading digit gets a `_` prefix; a trailing digit
/// gets a `_` suffix unless `allow_trailing_digit`.
pub(crate) fn sanitize_identifier(name: &str, allowed: &str, allow_trailing_digit: bool) -> String {
    let valid = |c: u8| c.is_ascii_alphanumeric() || allowed.as_bytes().contains(&c);
    let copy = |out: &mut String| {
        for &c in name.as_bytes() {
            if valid(c) {
                out.push(c as char);
            } else if c == b' ' {
                out.push('_');
            } else {
                out.push_str(&format!("{c:X}"));
            }
        }
    };
    let mut out = String::with_capacity(name.len() + 1);
    let bytes = name.as_bytes();
    if bytes.first().is_some_and(|c| c.is_ascii_digit()) {
        out.push('_');
        copy(&mut out);
        return out;
    }
    if !allow_trailing_digit && bytes.last().is_some_and(|c| c.is_ascii_digit()) {
        copy(&mut out);
        out.push('_');
        return out;
    }
    if bytes.iter().all(|&c| valid(c)) {
        return name.to_string();
    }
    copy(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitizes_like_mlir() {
        assert_eq!(sanitize_identifier("c0", "$._-", true), "c0");
        assert_eq!(sanitize_identifier("0x", "$._-", true), "_0x");
        assert_eq!(sanitize_identifier("a b", "$._-", true), "a_b");
        assert_eq!(sanitize_identifier("a/b", "$._-", true), "a2Fb");
        assert_eq!(sanitize_identifier("map1", "$_-", false), "map1_");
    }
}
