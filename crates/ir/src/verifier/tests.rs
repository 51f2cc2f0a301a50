//! Unit tests of the verifier on hand-built IR, with the messages mlir-opt-19 gives for the
//! same situations.

use super::*;
use crate::ir::{OperationState, Value};
use crate::registry::{DialectDef, Registry};

static T_MODULE: OpDef = OpDef::new(
    "t.module",
    Traits(
        Traits::NO_TERMINATOR.0
            | Traits::SYMBOL_TABLE.0
            | Traits::ISOLATED_FROM_ABOVE.0
            | Traits::GRAPH_REGIONS.0
            | Traits::SINGLE_BLOCK.0,
    ),
);
static T_FUNC: OpDef = OpDef::new("t.func", Traits(Traits::ISOLATED_FROM_ABOVE.0 | Traits::SYMBOL.0));
static T_RET: OpDef = OpDef::new("t.ret", Traits(Traits::TERMINATOR.0 | Traits::PURE.0));
static T_BR: OpDef = OpDef::new("t.br", Traits::TERMINATOR);
static T_ADD: OpDef =
    OpDef::new("t.add", Traits(Traits::PURE.0 | Traits::SAME_OPERANDS_AND_RESULT_TYPE.0 | Traits::COMMUTATIVE.0));
static T_SRC: OpDef = OpDef::new("t.src", Traits::NONE);
static T_DIALECT: DialectDef = DialectDef {
    namespace: "t",
    summary: "",
    description: "",
    ops: &[&T_MODULE, &T_FUNC, &T_RET, &T_BR, &T_ADD, &T_SRC],
    types: &[],
    attrs: &[],
    opaque_attrs: false,
    materialize_constant: None,
};

pub(crate) struct Builder {
    pub ctx: Context,
    pub ir: Ir,
}

impl Builder {
    pub fn new() -> Self {
        let mut reg = Registry::new();
        reg.register(&T_DIALECT);
        let ctx = Context::new(reg);
        ctx.set_allow_unregistered(true);
        Builder { ctx, ir: Ir::new() }
    }
    pub fn i32(&self) -> Type {
        self.ctx.integer_type(32)
    }
    /// Creates a detached op at `t.mlir:line:1`.
    pub fn op(&mut self, name: &str, operands: &[Value], results: &[Type], regions: Vec<RegionId>, line: u32) -> OpId {
        let st = OperationState {
            name: self.ctx.op_name(name),
            operands: operands.to_vec(),
            result_types: results.to_vec(),
            successors: vec![],
            regions,
            attrs: self.ctx.empty_dict(),
            props: None,
            loc: self.ctx.file_loc("t.mlir", line, 1),
        };
        self.ir.create_op(st)
    }
    /// Appends a new op to `b` and returns it.
    pub fn add(&mut self, b: BlockId, name: &str, operands: &[Value], results: &[Type], line: u32) -> OpId {
        let o = self.op(name, operands, results, vec![], line);
        self.ir.append_op(b, o);
        o
    }
    /// A region with `n` blocks (the first with `args`).
    pub fn region(&mut self, n: usize, args: &[Type]) -> (RegionId, Vec<BlockId>) {
        let r = self.ir.create_region();
        let mut blocks = Vec::new();
        for i in 0..n {
            let b = self.ir.create_block(if i == 0 { args } else { &[] });
            self.ir.append_block(r, b);
            blocks.push(b);
        }
        (r, blocks)
    }
    /// `t.module` with one block; returns (module, body).
    pub fn module(&mut self) -> (OpId, BlockId) {
        let (r, bs) = self.region(1, &[]);
        let m = self.op("t.module", &[], &[], vec![r], 0);
        (m, bs[0])
    }
    /// A `t.func` named `name` in `parent` with `nblocks` blocks.
    pub fn func(
        &mut self,
        parent: BlockId,
        name: &str,
        nblocks: usize,
        args: &[Type],
        line: u32,
    ) -> (OpId, Vec<BlockId>) {
        let (r, bs) = self.region(nblocks, args);
        let f = self.op("t.func", &[], &[], vec![r], line);
        self.set_attr(f, "sym_name", self.ctx.string_attr(name));
        self.ir.append_op(parent, f);
        (f, bs)
    }
    pub fn set_attr(&mut self, op: OpId, key: &str, value: crate::attrs::Attr) {
        let d = self.ctx.dict_set(self.ir.attrs(op), key, Some(value));
        self.ir.set_attrs(op, d);
    }
    pub fn br(&mut self, from: BlockId, to: BlockId, line: u32) -> OpId {
        let st = OperationState {
            name: self.ctx.op_name("t.br"),
            operands: vec![],
            result_types: vec![],
            successors: vec![to],
            regions: vec![],
            attrs: self.ctx.empty_dict(),
            props: None,
            loc: self.ctx.file_loc("t.mlir", line, 1),
        };
        let o = self.ir.create_op(st);
        self.ir.append_op(from, o);
        o
    }
    pub fn verify(&self, op: OpId) -> Result<(), Vec<Diagnostic>> {
        verify(&self.ctx, &self.ir, op)
    }
    /// The single error as `line: message | note-line: note ...`.
    pub fn error(&self, op: OpId) -> String {
        let errs = self.verify(op).expect_err("expected a verification error");
        assert_eq!(errs.len(), 1);
        let line = |d: &Diagnostic| match self.ctx.attr_kind(d.loc) {
            AttrKind::FileLineColLoc { line, .. } => line.to_string(),
            _ => "?".to_string(),
        };
        let mut s = format!("{}: {}", line(&errs[0]), errs[0].message);
        for n in &errs[0].notes {
            if n.message.starts_with("see current operation") {
                continue;
            }
            s += &format!(" | {}: {}", line(n), n.message);
        }
        s
    }
}

#[test]
fn valid_function_passes() {
    let mut b = Builder::new();
    let (m, body) = b.module();
    let i32 = b.i32();
    let (_, bs) = b.func(body, "f", 1, &[i32], 1);
    let a = b.ir.block_args(bs[0])[0];
    let x = b.add(bs[0], "t.add", &[a, a], &[i32], 2);
    let xv = b.ir.result(x, 0);
    b.add(bs[0], "t.ret", &[xv], &[], 3);
    assert!(b.verify(m).is_ok());
}

#[test]
fn terminator_must_be_last() {
    let mut b = Builder::new();
    let (m, body) = b.module();
    let (_, bs) = b.func(body, "f", 1, &[], 1);
    b.add(bs[0], "t.ret", &[], &[], 2);
    b.add(bs[0], "u.x", &[], &[], 3);
    assert_eq!(b.error(m), "2: 't.ret' op must be the last operation in the parent block");
}

#[test]
fn missing_terminator_and_empty_block() {
    let mut b = Builder::new();
    let (m, body) = b.module();
    let i32 = b.i32();
    let (_, bs) = b.func(body, "f", 1, &[i32], 1);
    let a = b.ir.block_args(bs[0])[0];
    b.add(bs[0], "t.add", &[a, a], &[i32], 2);
    assert!(b.error(m).starts_with("2: block with no terminator, has "));

    let mut b = Builder::new();
    let (m, body) = b.module();
    b.func(body, "f", 1, &[], 7);
    assert_eq!(b.error(m), "7: empty block: expect at least a terminator");
    assert!(b.verify(m).unwrap_err()[0].notes.is_empty(), "no current-op note on this one");
}

#[test]
fn unregistered_single_block_region_needs_no_terminator_but_multi_block_does() {
    let mut b = Builder::new();
    let (m, body) = b.module();
    let i32 = b.i32();
    let (_, fb) = b.func(body, "f", 1, &[i32], 1);
    let a = b.ir.block_args(fb[0])[0];
    let (r, rb) = b.region(1, &[]);
    b.add(rb[0], "t.add", &[a, a], &[i32], 3);
    let holder = b.op("u.r", &[], &[], vec![r], 2);
    b.ir.append_op(fb[0], holder);
    b.add(fb[0], "t.ret", &[], &[], 4);
    assert!(b.verify(m).is_ok());
    // A second block makes terminators mandatory, even under an unregistered op.
    let (r2, rb2) = b.region(2, &[]);
    b.br(rb2[0], rb2[1], 6);
    b.add(rb2[1], "t.add", &[a, a], &[i32], 7);
    let holder2 = b.op("u.r", &[], &[], vec![r2], 5);
    b.ir.insert_op_before(b.ir.last_op(fb[0]).unwrap(), holder2);
    assert!(b.error(m).starts_with("7: block with no terminator"));
}

#[test]
fn successors_only_on_last_op() {
    let mut b = Builder::new();
    let (m, body) = b.module();
    let (_, bs) = b.func(body, "f", 2, &[], 1);
    b.br(bs[0], bs[1], 2);
    b.add(bs[0], "u.x", &[], &[], 3);
    b.add(bs[1], "t.ret", &[], &[], 4);
    assert_eq!(b.error(m), "2: operation with block successors must terminate its parent block");
}

#[test]
fn entry_block_may_not_have_predecessors() {
    let mut b = Builder::new();
    let (m, body) = b.module();
    let (r, rb) = b.region(1, &[]);
    b.br(rb[0], rb[0], 2);
    let u = b.op("u.y", &[], &[], vec![r], 1);
    b.ir.append_op(body, u);
    assert_eq!(b.error(m), "1: entry block of region may not have predecessors");
}

#[test]
fn isolated_from_above() {
    let mut b = Builder::new();
    let (m, body) = b.module();
    let i32 = b.i32();
    let outside = b.add(body, "u.x", &[], &[i32], 1);
    let ov = b.ir.result(outside, 0);
    let (_, bs) = b.func(body, "f", 1, &[], 2);
    b.add(bs[0], "t.add", &[ov, ov], &[i32], 3);
    b.add(bs[0], "t.ret", &[], &[], 4);
    assert_eq!(
        b.error(m),
        "3: 't.add' op using value defined outside the region | 2: required by region isolation constraints"
    );
}

#[test]
fn same_operands_and_result_type() {
    let mut b = Builder::new();
    let (m, body) = b.module();
    let i32 = b.i32();
    let i64 = b.ctx.i64_type();
    let (_, bs) = b.func(body, "f", 1, &[i32, i64], 1);
    let (x, y) = (b.ir.block_args(bs[0])[0], b.ir.block_args(bs[0])[1]);
    b.add(bs[0], "t.add", &[x, y], &[i32], 2);
    b.add(bs[0], "t.ret", &[], &[], 3);
    assert_eq!(b.error(m), "2: 't.add' op requires the same type for all operands and results");
}

#[test]
fn dynamic_shapes_are_compatible() {
    let mut b = Builder::new();
    let (m, body) = b.module();
    let f32 = b.ctx.float_type(crate::types::FloatKind::F32);
    let t4 = b.ctx.tensor_type(vec![4], f32, None);
    let tq = b.ctx.tensor_type(vec![DYNAMIC], f32, None);
    let (_, bs) = b.func(body, "f", 1, &[t4, tq], 1);
    let (x, y) = (b.ir.block_args(bs[0])[0], b.ir.block_args(bs[0])[1]);
    b.add(bs[0], "t.add", &[x, y], &[t4], 2);
    b.add(bs[0], "t.ret", &[], &[], 3);
    assert!(b.verify(m).is_ok());
}

#[test]
fn single_block_trait() {
    let mut b = Builder::new();
    let (r, _) = b.region(2, &[]);
    let m = b.op("t.module", &[], &[], vec![r], 1);
    assert_eq!(b.error(m), "1: 't.module' op expects region #0 to have 0 or 1 blocks");
}

#[test]
fn symbol_redefinition() {
    let mut b = Builder::new();
    let (m, body) = b.module();
    let (_, f1) = b.func(body, "dup", 1, &[], 1);
    b.add(f1[0], "t.ret", &[], &[], 2);
    let (_, f2) = b.func(body, "dup", 1, &[], 4);
    b.add(f2[0], "t.ret", &[], &[], 5);
    assert_eq!(b.error(m), "4: redefinition of symbol named 'dup' | 1: see existing symbol definition here");
}

#[test]
fn symbol_parent_must_be_symbol_table() {
    let mut b = Builder::new();
    let (m, body) = b.module();
    let (_, f1) = b.func(body, "f", 1, &[], 1);
    let (_, inner) = b.func(f1[0], "g", 1, &[], 2);
    b.add(inner[0], "t.ret", &[], &[], 3);
    b.add(f1[0], "t.ret", &[], &[], 4);
    assert_eq!(b.error(m), "2: 't.func' op symbol's parent must have the SymbolTable trait");
}

#[test]
fn dominance_in_same_block() {
    let mut b = Builder::new();
    let (m, body) = b.module();
    let i32 = b.i32();
    let (_, bs) = b.func(body, "f", 1, &[i32], 1);
    let a = b.ir.block_args(bs[0])[0];
    let late = b.op("t.add", &[a, a], &[i32], vec![], 3);
    let lv = b.ir.result(late, 0);
    b.add(bs[0], "t.add", &[a, lv], &[i32], 2);
    b.ir.append_op(bs[0], late);
    b.add(bs[0], "t.ret", &[], &[], 4);
    assert_eq!(b.error(m), "2: operand #1 does not dominate this use | 3: operand defined here (op in the same block)");
}

#[test]
fn dominance_across_blocks_and_block_arguments() {
    // ^bb0: br ^bb2; ^bb1: %x = ...; br ^bb2; ^bb2: use %x
    let mut b = Builder::new();
    let (m, body) = b.module();
    let i32 = b.i32();
    let (_, bs) = b.func(body, "f", 3, &[i32], 1);
    let a = b.ir.block_args(bs[0])[0];
    b.br(bs[0], bs[2], 2);
    let x = b.add(bs[1], "t.add", &[a, a], &[i32], 3);
    let xv = b.ir.result(x, 0);
    b.br(bs[1], bs[2], 4);
    b.add(bs[2], "t.add", &[xv, xv], &[i32], 5);
    b.add(bs[2], "t.ret", &[], &[], 6);
    assert_eq!(
        b.error(m),
        "5: operand #0 does not dominate this use | 3: operand defined here (op in the same region)"
    );

    let mut b = Builder::new();
    let (m, body) = b.module();
    let i32 = b.i32();
    let (_, bs) = b.func(body, "f", 3, &[i32], 1);
    let arg = b.ir.add_block_arg(bs[1], i32, None);
    b.br(bs[0], bs[2], 2);
    b.br(bs[1], bs[2], 4);
    b.add(bs[2], "t.add", &[arg, arg], &[i32], 5);
    b.add(bs[2], "t.ret", &[], &[], 6);
    assert_eq!(
        b.error(m),
        "5: operand #0 does not dominate this use | 1: operand defined as a block argument (block #1 in the same region)"
    );
}

#[test]
fn unreachable_blocks_are_not_checked() {
    let mut b = Builder::new();
    let (m, body) = b.module();
    let i32 = b.i32();
    let (_, bs) = b.func(body, "f", 2, &[i32], 1);
    let a = b.ir.block_args(bs[0])[0];
    b.add(bs[0], "t.ret", &[], &[], 2);
    let late = b.op("t.add", &[a, a], &[i32], vec![], 4);
    let lv = b.ir.result(late, 0);
    b.add(bs[1], "t.add", &[lv, lv], &[i32], 3);
    b.ir.append_op(bs[1], late);
    b.add(bs[1], "t.ret", &[], &[], 5);
    assert!(b.verify(m).is_ok());
}

#[test]
fn use_in_nested_region_of_later_value() {
    let mut b = Builder::new();
    let (m, body) = b.module();
    let i32 = b.i32();
    let (_, bs) = b.func(body, "f", 1, &[i32], 1);
    let a = b.ir.block_args(bs[0])[0];
    let late = b.op("t.add", &[a, a], &[i32], vec![], 5);
    let lv = b.ir.result(late, 0);
    let (r, rb) = b.region(1, &[]);
    b.add(rb[0], "t.add", &[lv, lv], &[i32], 3);
    let holder = b.op("u.r", &[], &[], vec![r], 2);
    b.ir.append_op(bs[0], holder);
    b.ir.append_op(bs[0], late);
    b.add(bs[0], "t.ret", &[], &[], 6);
    assert_eq!(
        b.error(m),
        "3: operand #0 does not dominate this use | 5: operand defined here (op in a parent region)"
    );
}

#[test]
fn unregistered_regions_have_no_order_within_a_block_but_cfg_dominance_holds() {
    let mut b = Builder::new();
    let (m, body) = b.module();
    let i32 = b.i32();
    let (_, bs) = b.func(body, "f", 1, &[i32], 1);
    let a = b.ir.block_args(bs[0])[0];
    let (r, rb) = b.region(1, &[]);
    let late = b.op("t.add", &[a, a], &[i32], vec![], 4);
    let lv = b.ir.result(late, 0);
    b.add(rb[0], "t.add", &[lv, lv], &[i32], 3);
    b.ir.append_op(rb[0], late);
    let holder = b.op("u.r", &[], &[], vec![r], 2);
    b.ir.append_op(bs[0], holder);
    b.add(bs[0], "t.ret", &[], &[], 6);
    assert!(b.verify(m).is_ok());

    // Across blocks of an unregistered op's region, dominance is still required.
    let (r2, rb2) = b.region(3, &[]);
    b.br(rb2[0], rb2[2], 8);
    let x = b.add(rb2[1], "t.add", &[a, a], &[i32], 9);
    let xv = b.ir.result(x, 0);
    b.br(rb2[1], rb2[2], 10);
    b.add(rb2[2], "t.add", &[xv, xv], &[i32], 11);
    b.add(rb2[2], "u.t", &[], &[], 12);
    let holder2 = b.op("u.r", &[], &[], vec![r2], 7);
    b.ir.insert_op_before(b.ir.last_op(bs[0]).unwrap(), holder2);
    assert_eq!(
        b.error(m),
        "11: operand #0 does not dominate this use | 9: operand defined here (op in the same region)"
    );
}

#[test]
fn graph_regions_allow_use_before_def() {
    let mut b = Builder::new();
    let (m, body) = b.module();
    let i32 = b.i32();
    let late = b.op("u.b", &[], &[i32], vec![], 2);
    let lv = b.ir.result(late, 0);
    b.add(body, "u.a", &[lv], &[i32], 1);
    b.ir.append_op(body, late);
    assert!(b.verify(m).is_ok());
}

#[test]
fn non_isolated_errors_come_before_errors_inside_functions() {
    let mut b = Builder::new();
    let (m, body) = b.module();
    let i32 = b.i32();
    let i64 = b.ctx.i64_type();
    let (_, bs) = b.func(body, "f", 1, &[i32], 1);
    let a = b.ir.block_args(bs[0])[0];
    b.add(bs[0], "t.add", &[a, a], &[i64], 2);
    b.add(bs[0], "t.ret", &[], &[], 3);
    b.add(body, "t.ret", &[], &[], 5);
    b.add(body, "u.z", &[], &[], 6);
    assert_eq!(b.error(m), "5: 't.ret' op must be the last operation in the parent block");
}

#[test]
fn unregistered_ops() {
    let mut b = Builder::new();
    let (m, body) = b.module();
    b.add(body, "t.bogus", &[], &[], 1);
    assert_eq!(
        b.error(m),
        "1: unregistered operation 't.bogus' found in dialect ('t') that does not allow unknown operations"
    );
    let mut b = Builder::new();
    b.ctx.set_allow_unregistered(false);
    let (m, body) = b.module();
    b.add(body, "zz.op", &[], &[], 1);
    assert!(b.error(m).starts_with("1: 'zz.op' op created with unregistered dialect."));
}

#[test]
fn deep_nesting_does_not_overflow() {
    let mut b = Builder::new();
    let (m, body) = b.module();
    let i32 = b.i32();
    let top = b.add(body, "u.v", &[], &[i32], 1);
    let v = b.ir.result(top, 0);
    let mut block = body;
    for _ in 0..2000 {
        let (r, rb) = b.region(1, &[]);
        let o = b.op("u.n", &[], &[], vec![r], 2);
        b.ir.append_op(block, o);
        block = rb[0];
    }
    b.add(block, "u.use", &[v], &[], 3);
    let handle = std::thread::Builder::new().stack_size(1 << 20).spawn(move || b.verify(m).is_ok());
    assert!(handle.unwrap().join().unwrap());
}
