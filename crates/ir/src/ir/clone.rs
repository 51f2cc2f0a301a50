//! Cloning operations with a value/block mapping, within one [`Ir`] or from one into another
//! (the pass manager moves isolated ops into their own `Ir` to transform them in parallel).
//!
//! Cloning first takes a snapshot ("recipe") of the source subtree, then builds it in the
//! destination, then remaps every operand and successor through the mapping, so forward
//! references (graph regions, blocks that appear after their users) come out right.

use super::*;
use rustc_hash::FxHashMap;

/// Maps source values and blocks to their clones. Values absent from the map are used as is
/// (they are defined above the cloned op, in the same `Ir`).
#[derive(Default, Debug, Clone)]
pub struct IrMapping {
    pub values: FxHashMap<Value, Value>,
    pub blocks: FxHashMap<BlockId, BlockId>,
}

impl IrMapping {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn map_value(&mut self, from: Value, to: Value) {
        self.values.insert(from, to);
    }
    pub fn lookup_value(&self, v: Value) -> Value {
        self.values.get(&v).copied().unwrap_or(v)
    }
    pub fn lookup_block(&self, b: BlockId) -> BlockId {
        self.blocks.get(&b).copied().unwrap_or(b)
    }
}

struct OpRecipe {
    name: OpName,
    operands: Vec<Value>,
    results: Vec<(Value, Type)>,
    successors: Vec<BlockId>,
    attrs: Attr,
    props: Option<Attr>,
    loc: Attr,
    regions: Vec<Vec<BlockRecipe>>,
}

struct BlockRecipe {
    src: BlockId,
    args: Vec<(Value, Type, Option<Attr>)>,
    ops: Vec<OpRecipe>,
}

/// Placeholders get their real type when resolved; this is only a stand-in.
fn recipe_type_hint(_v: Value) -> Type {
    Type(0)
}

impl Ir {
    fn snapshot(&self, op: OpId) -> OpRecipe {
        let d = &self.ops[op];
        OpRecipe {
            name: d.name,
            operands: d.operands.iter().map(|o| self.values.id_at(o.value)).collect(),
            results: d.results.iter().map(|&r| (r, self.values[r].ty)).collect(),
            successors: d.successors().to_vec(),
            attrs: d.attrs,
            props: (d.props != NO_PROPS).then_some(d.props),
            loc: d.loc,
            regions: d
                .regions()
                .iter()
                .map(|&r| {
                    self.regions[r]
                        .blocks
                        .iter()
                        .map(|&b| BlockRecipe {
                            src: b,
                            args: self.blocks[b]
                                .args
                                .iter()
                                .map(|&a| (a, self.values[a].ty, self.values[a].loc))
                                .collect(),
                            ops: self.block_ops(b).map(|o| self.snapshot(o)).collect(),
                        })
                        .collect()
                })
                .collect(),
        }
    }

    fn instantiate(&mut self, recipe: &OpRecipe, map: &mut IrMapping, pending: &mut FxHashMap<Value, Value>) -> OpId {
        let mut regions = Vec::with_capacity(recipe.regions.len());
        // Create all blocks of all regions first so successors can be mapped.
        for blocks in &recipe.regions {
            let r = self.create_region();
            for br in blocks {
                let b = self.create_block(&[]);
                for &(src, ty, loc) in &br.args {
                    let a = self.add_block_arg(b, ty, loc);
                    map.values.insert(src, a);
                }
                map.blocks.insert(br.src, b);
                self.append_block(r, b);
            }
            regions.push(r);
        }
        // Operands not mapped yet (forward references, or values from above) get a
        // placeholder, resolved once the whole subtree exists.
        let operands: Vec<Value> = recipe
            .operands
            .iter()
            .map(|&v| match map.values.get(&v) {
                Some(&m) => m,
                None => *pending.entry(v).or_insert_with(|| self.create_placeholder(recipe_type_hint(v))),
            })
            .collect();
        let op = self.create_op(OperationState {
            name: recipe.name,
            operands,
            result_types: recipe.results.iter().map(|r| r.1).collect(),
            successors: recipe.successors.iter().map(|&b| map.lookup_block(b)).collect(),
            regions: regions.clone(),
            attrs: recipe.attrs,
            props: recipe.props,
            loc: recipe.loc,
        });
        for (i, &(src, _)) in recipe.results.iter().enumerate() {
            let r = self.ops[op].results[i];
            map.values.insert(src, r);
        }
        for (blocks, r) in recipe.regions.iter().zip(regions) {
            for (br, &b) in blocks.iter().zip(self.regions[r].blocks.clone().iter()) {
                for inner in &br.ops {
                    let o = self.instantiate(inner, map, pending);
                    self.append_op(b, o);
                }
            }
        }
        op
    }

    /// Replaces each placeholder by the clone of its source value, or (same `Ir` only) by
    /// the source value itself when it is defined outside the cloned subtree.
    fn resolve_pending(&mut self, pending: FxHashMap<Value, Value>, map: &IrMapping, same_ir: bool) {
        for (src, placeholder) in pending {
            let target = match map.values.get(&src) {
                Some(&m) => m,
                None if same_ir => src,
                None => panic!("clone_op_into: the op reads a value defined outside it and not mapped"),
            };
            let ty = self.values[target].ty;
            self.values[placeholder].ty = ty;
            self.replace_all_uses(placeholder, target);
            self.erase_value(placeholder);
        }
    }

    /// Clones `op` and everything nested in it into a new detached op. Operands defined
    /// outside are looked up in `map` (and kept as is when absent); the clone's results and
    /// blocks are added to `map`.
    pub fn clone_op(&mut self, op: OpId, map: &mut IrMapping) -> OpId {
        let recipe = self.snapshot(op);
        let mut pending = FxHashMap::default();
        let new = self.instantiate(&recipe, map, &mut pending);
        self.resolve_pending(pending, map, true);
        new
    }

    /// Clones `op` (from this `Ir`) into `dst` as a detached op. Every value the subtree reads
    /// must be defined inside it (the op is isolated from above) or be mapped in `map`.
    pub fn clone_op_into(&self, op: OpId, dst: &mut Ir, map: &mut IrMapping) -> OpId {
        let recipe = self.snapshot(op);
        let mut pending = FxHashMap::default();
        let new = dst.instantiate(&recipe, map, &mut pending);
        dst.resolve_pending(pending, map, false);
        new
    }

    /// Clones the blocks of region `src` into the (detached or attached) region `dst`.
    pub fn clone_region_into(&mut self, src: RegionId, dst: RegionId, map: &mut IrMapping) {
        let blocks: Vec<BlockRecipe> = self.regions[src]
            .blocks
            .iter()
            .map(|&b| BlockRecipe {
                src: b,
                args: self.blocks[b].args.iter().map(|&a| (a, self.values[a].ty, self.values[a].loc)).collect(),
                ops: self.block_ops(b).map(|o| self.snapshot(o)).collect(),
            })
            .collect();
        let mut new_blocks = Vec::new();
        for br in &blocks {
            let b = self.create_block(&[]);
            for &(s, ty, loc) in &br.args {
                let a = self.add_block_arg(b, ty, loc);
                map.values.insert(s, a);
            }
            map.blocks.insert(br.src, b);
            self.append_block(dst, b);
            new_blocks.push(b);
        }
        let mut pending = FxHashMap::default();
        for (br, b) in blocks.iter().zip(new_blocks) {
            for inner in &br.ops {
                let o = self.instantiate(inner, map, &mut pending);
                self.append_op(b, o);
            }
        }
        self.resolve_pending(pending, map, true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn st(name: u32, operands: Vec<Value>, n: usize) -> OperationState {
        OperationState {
            name: OpName(name),
            operands,
            result_types: vec![Type(0); n],
            successors: vec![],
            regions: vec![],
            attrs: Attr(0),
            props: None,
            loc: Attr(0),
        }
    }

    #[test]
    fn clone_remaps_inner_values_and_forward_refs() {
        let mut ir = Ir::new();
        let top = ir.create_block(&[]);
        let outside = ir.create_op(st(0, vec![], 1));
        ir.append_op(top, outside);
        let ov = ir.result(outside, 0);
        let r = ir.create_region();
        let b = ir.create_block(&[Type(1)]);
        ir.append_block(r, b);
        // A use before the definition (graph-region style).
        let p = ir.create_placeholder(Type(0));
        let user = ir.create_op(st(1, vec![p, ov, ir.block_args(b)[0]], 0));
        ir.append_op(b, user);
        let def = ir.create_op(st(2, vec![], 1));
        ir.append_op(b, def);
        let dv = ir.result(def, 0);
        ir.replace_all_uses(p, dv);
        ir.erase_value(p);
        let mut s = st(3, vec![], 0);
        s.regions = vec![r];
        let holder = ir.create_op(s);
        ir.append_op(top, holder);

        let mut map = IrMapping::new();
        let copy = ir.clone_op(holder, &mut map);
        let cb = ir.region_blocks(ir.region(copy, 0))[0];
        let cops: Vec<_> = ir.block_ops(cb).collect();
        let cuser = cops[0];
        let cdef = cops[1];
        assert_eq!(ir.operand(cuser, 0), ir.result(cdef, 0));
        assert_eq!(ir.operand(cuser, 1), ov, "outside value kept");
        assert_eq!(ir.operand(cuser, 2), ir.block_args(cb)[0]);
        assert_eq!(ir.uses(ov).count(), 2);

        let mut other = Ir::new();
        let mut map2 = IrMapping::new();
        map2.map_value(ov, other.create_placeholder(Type(0)));
        let moved = ir.clone_op_into(holder, &mut other, &mut map2);
        assert_eq!(other.num_ops(), 3);
        assert_eq!(other.regions(moved).len(), 1);
    }
}
