//! Tests of the greedy driver with a tiny test dialect: `c.const` (constant), `c.add`
//! (commutative, folds constants and `x + 0`), `c.neg` (pattern `neg(neg x) -> x`), `c.func`
//! (isolated container), `c.ret` (terminator); unregistered `u.*` ops act as opaque users.

use super::*;
use crate::attrs::{Attr, AttrKind};
use crate::context::Context;
use crate::ir::{BlockId, OperationState, RegionId, Value};
use crate::registry::{DialectDef, FoldResult, OpDef, PatternDef, Registry, Traits};
use crate::rewrite_api::Rewriter;
use crate::types::Type;

fn fold_const(ctx: &Context, ir: &Ir, op: OpId, _: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    ctx.dict_get(ir.attrs(op), "value").map(|a| vec![FoldResult::Attr(a)])
}

fn fold_add(ctx: &Context, ir: &Ir, op: OpId, c: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let ty = ir.value_type(ir.result(op, 0));
    match (c[0].and_then(|a| ctx.attr_i64(a)), c[1].and_then(|a| ctx.attr_i64(a))) {
        (Some(x), Some(y)) => Some(vec![FoldResult::Attr(ctx.int_attr(ty, x + y))]),
        (_, Some(0)) => Some(vec![FoldResult::Value(ir.operand(op, 0))]),
        _ => None,
    }
}

fn double_neg(rw: &mut dyn Rewriter, op: OpId) -> bool {
    let ir = rw.ir();
    let inner = ir.operand(op, 0);
    let Some(d) = ir.defining_op(inner) else { return false };
    if ir.op_name(d) != ir.op_name(op) {
        return false;
    }
    let x = ir.operand(d, 0);
    rw.replace_op(op, &[x]);
    true
}

fn materialize(rw: &mut dyn Rewriter, value: Attr, ty: Type, loc: Attr) -> Option<OpId> {
    let ctx = rw.ctx();
    let attrs = ctx.dictionary(vec![(ctx.ident("value"), value)]);
    let st = OperationState {
        name: ctx.op_name("c.const"),
        operands: vec![],
        result_types: vec![ty],
        successors: vec![],
        regions: vec![],
        attrs,
        props: None,
        loc,
    };
    Some(rw.create_op(st))
}

static C_CONST: OpDef =
    OpDef { fold: Some(fold_const), ..OpDef::new("c.const", Traits(Traits::CONSTANT_LIKE.0 | Traits::PURE.0)) };
static C_ADD: OpDef =
    OpDef { fold: Some(fold_add), ..OpDef::new("c.add", Traits(Traits::PURE.0 | Traits::COMMUTATIVE.0)) };
static C_NEG: OpDef = OpDef {
    canonicalize: &[PatternDef { name: "double-neg", apply: double_neg }],
    ..OpDef::new("c.neg", Traits::PURE)
};
static C_FUNC: OpDef = OpDef::new("c.func", Traits::ISOLATED_FROM_ABOVE);
static C_RET: OpDef = OpDef::new("c.ret", Traits::TERMINATOR);
static C_BR: OpDef = OpDef::new("c.br", Traits::TERMINATOR);
static C_DIALECT: DialectDef = DialectDef {
    namespace: "c",
    summary: "",
    description: "",
    ops: &[&C_CONST, &C_ADD, &C_NEG, &C_FUNC, &C_RET, &C_BR],
    types: &[],
    attrs: &[],
    opaque_attrs: false,
    materialize_constant: Some(materialize),
};

struct T {
    ctx: Context,
    ir: Ir,
}

impl T {
    fn new() -> Self {
        let mut reg = Registry::new();
        reg.register(&C_DIALECT);
        let ctx = Context::new(reg);
        ctx.set_allow_unregistered(true);
        T { ctx, ir: Ir::new() }
    }
    fn i32(&self) -> Type {
        self.ctx.integer_type(32)
    }
    fn op(&mut self, b: BlockId, name: &str, operands: &[Value], results: usize) -> OpId {
        let st = OperationState {
            name: self.ctx.op_name(name),
            operands: operands.to_vec(),
            result_types: vec![self.i32(); results],
            successors: vec![],
            regions: vec![],
            attrs: self.ctx.empty_dict(),
            props: None,
            loc: self.ctx.file_loc("x", 1, 1),
        };
        let o = self.ir.create_op(st);
        self.ir.append_op(b, o);
        o
    }
    fn val(&mut self, b: BlockId, name: &str, operands: &[Value]) -> Value {
        let o = self.op(b, name, operands, 1);
        self.ir.result(o, 0)
    }
    fn cst(&mut self, b: BlockId, v: i64) -> Value {
        let o = self.op(b, "c.const", &[], 1);
        let a = self.ctx.int_attr(self.i32(), v);
        let d = self.ctx.dictionary(vec![(self.ctx.ident("value"), a)]);
        self.ir.set_attrs(o, d);
        self.ir.result(o, 0)
    }
    fn region_op(&mut self, b: BlockId, name: &str, nblocks: usize) -> (OpId, RegionId, Vec<BlockId>) {
        let r = self.ir.create_region();
        let mut blocks = vec![];
        for _ in 0..nblocks {
            let nb = self.ir.create_block(&[]);
            self.ir.append_block(r, nb);
            blocks.push(nb);
        }
        let o = self.op(b, name, &[], 0);
        self.ir.attach_region(o, r);
        (o, r, blocks)
    }
    /// A root (`c.func`, isolated) with one block.
    fn root(&mut self) -> (OpId, BlockId) {
        let top = self.ir.create_block(&[]);
        let (f, _, bs) = self.region_op(top, "c.func", 1);
        (f, bs[0])
    }
    /// One line per op of `b`: `name operands [value]`, values numbered in order of definition.
    fn dump(&self, b: BlockId) -> Vec<String> {
        let mut names: Vec<Value> = Vec::new();
        let mut out = Vec::new();
        for op in self.ir.block_ops(b) {
            let mut s = self.ctx.op_name_str(self.ir.op_name(op)).to_string();
            for v in self.ir.operands(op) {
                let i = names.iter().position(|&n| n == v).map(|i| i.to_string()).unwrap_or("?".into());
                s += &format!(" %{i}");
            }
            if let Some(a) = self.ctx.dict_get(self.ir.attrs(op), "value")
                && let AttrKind::Integer { .. } = self.ctx.attr_kind(a)
            {
                s += &format!(" ={}", self.ctx.attr_i64(a).unwrap());
            }
            names.extend(self.ir.results(op).iter().copied());
            out.push(s);
        }
        out
    }
    fn run(&mut self, root: OpId, cfg: &GreedyConfig) -> bool {
        apply_patterns_greedily(&self.ctx, &mut self.ir, root, cfg).unwrap()
    }
}

#[test]
fn folds_constants_hoists_and_dedupes() {
    // The t4 example: two "1"s, an add of them, and a sink; expect `2` at the top.
    let mut t = T::new();
    let (f, b) = t.root();
    let x = t.val(b, "u.src", &[]);
    let c1 = t.cst(b, 1);
    let c1b = t.cst(b, 1);
    let s = t.val(b, "c.add", &[c1, c1b]);
    t.op(b, "u.sink", &[x, s], 0);
    assert!(t.run(f, &GreedyConfig::default()));
    assert_eq!(t.dump(b), ["c.const =2", "u.src", "u.sink %1 %0"]);
    assert_eq!(t.ir.loc(t.ir.first_op(b).unwrap()), t.ctx.unknown_loc());
}

#[test]
fn one_iteration_leaves_folded_constant_in_place() {
    let mut t = T::new();
    let (f, b) = t.root();
    let x = t.val(b, "u.src", &[]);
    let c1 = t.cst(b, 1);
    let s = t.val(b, "c.add", &[c1, c1]);
    t.op(b, "u.sink", &[x, s], 0);
    let cfg = GreedyConfig { max_iterations: 1, ..GreedyConfig::default() };
    assert!(t.run(f, &cfg));
    assert_eq!(t.dump(b), ["u.src", "c.const =2", "u.sink %0 %1"]);
    let strict = GreedyConfig { test_convergence: true, ..cfg };
    let (f2, b2) = t.root();
    let c = t.cst(b2, 3);
    let s = t.val(b2, "c.add", &[c, c]);
    t.op(b2, "u.sink", &[s], 0);
    assert!(apply_patterns_greedily(&t.ctx, &mut t.ir, f2, &strict).is_err());
}

#[test]
fn pre_existing_constants_move_to_front_in_reverse_encounter_order() {
    // As mlir-opt-19: x; c1; y; c2; c3 -> c3 c2 c1 x y (each moved to the very front).
    let mut t = T::new();
    let (f, b) = t.root();
    let x = t.val(b, "u.x", &[]);
    let c1 = t.cst(b, 1);
    let y = t.val(b, "u.y", &[]);
    let c2 = t.cst(b, 2);
    let c3 = t.cst(b, 3);
    t.op(b, "u.sink", &[c1, c2, c3, x, y], 0);
    t.run(f, &GreedyConfig::default());
    assert_eq!(t.dump(b), ["c.const =3", "c.const =2", "c.const =1", "u.x", "u.y", "u.sink %2 %1 %0 %3 %4"]);
}

#[test]
fn constants_in_unregistered_regions_stay_there() {
    let mut t = T::new();
    let (f, b) = t.root();
    let c1 = t.cst(b, 1);
    t.op(b, "u.sink", &[c1], 0);
    let (_, _, rb) = t.region_op(b, "u.r", 1);
    let c4 = t.cst(rb[0], 4);
    let c1b = t.cst(rb[0], 1);
    t.op(rb[0], "u.sink", &[c4, c1b], 0);
    t.run(f, &GreedyConfig::default());
    assert_eq!(t.dump(rb[0]), ["c.const =4", "c.const =1", "u.sink %0 %1"]);
}

#[test]
fn fold_to_operand_and_commutative_reordering() {
    let mut t = T::new();
    let (f, b) = t.root();
    let x = t.val(b, "u.x", &[]);
    let zero = t.cst(b, 0);
    let five = t.cst(b, 5);
    let a = t.val(b, "c.add", &[x, zero]);
    let c = t.val(b, "c.add", &[five, x]);
    t.op(b, "u.sink", &[a, c], 0);
    t.run(f, &GreedyConfig::default());
    assert_eq!(t.dump(b), ["c.const =5", "u.x", "c.add %1 %0", "u.sink %1 %2"]);
}

#[test]
fn patterns_and_dead_code() {
    let mut t = T::new();
    let (f, b) = t.root();
    let x = t.val(b, "u.x", &[]);
    let n1 = t.val(b, "c.neg", &[x]);
    let n2 = t.val(b, "c.neg", &[n1]);
    t.val(b, "c.neg", &[x]); // dead
    t.op(b, "u.sink", &[n2], 0);
    assert!(t.run(f, &GreedyConfig::default()));
    assert_eq!(t.dump(b), ["u.x", "u.sink %0"]);
    assert!(!t.run(f, &GreedyConfig::default()), "second run changes nothing");
}

#[test]
fn unreachable_blocks_and_dead_cycles_are_erased() {
    let mut t = T::new();
    let (f, b) = t.root();
    let (_, r, rb) = t.region_op(b, "u.r", 3);
    // ^0: br ^2   ^1: (unreachable) br ^2   ^2: u.t
    for (from, to) in [(0usize, 2usize), (1, 2)] {
        let st = OperationState {
            name: t.ctx.op_name("c.br"),
            operands: vec![],
            result_types: vec![],
            successors: vec![rb[to]],
            regions: vec![],
            attrs: t.ctx.empty_dict(),
            props: None,
            loc: t.ctx.unknown_loc(),
        };
        let o = t.ir.create_op(st);
        t.ir.append_op(rb[from], o);
    }
    t.op(rb[2], "u.t", &[], 0);
    // A dead cycle of pure ops in the (graph-like) block of an unregistered op.
    let (_, _, gb) = t.region_op(b, "u.g", 1);
    let p = t.ir.create_placeholder(t.i32());
    let a1 = t.val(gb[0], "c.add", &[p, p]);
    let a2 = t.val(gb[0], "c.add", &[a1, a1]);
    t.ir.replace_all_uses(p, a2);
    t.ir.erase_value(p);
    t.run(f, &GreedyConfig::default());
    assert_eq!(t.ir.region_blocks(r).len(), 2);
    assert!(t.ir.block_is_empty(gb[0]));
}

#[test]
fn bottom_up_and_disabled_fold() {
    let mut t = T::new();
    let (f, b) = t.root();
    let c1 = t.cst(b, 1);
    let s = t.val(b, "c.add", &[c1, c1]);
    t.op(b, "u.sink", &[s], 0);
    let cfg = GreedyConfig { fold: false, top_down: false, ..GreedyConfig::default() };
    t.run(f, &cfg);
    assert_eq!(t.dump(b), ["c.const =1", "c.add %0 %0", "u.sink %1"]);
}
