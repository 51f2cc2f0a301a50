//! Test-only helpers: a tiny registered dialect `p` and an IR builder with a textual dump.

use fuser_ir::attrs::{Attr, AttrKind};
use fuser_ir::context::Context;
use fuser_ir::ir::{BlockId, Ir, OpId, OperationState, RegionId, Value};
use fuser_ir::registry::{DialectDef, FoldResult, OpDef, Registry, Traits};
use fuser_ir::rewrite_api::Rewriter;
use fuser_ir::types::Type;

fn fold_const(ctx: &Context, ir: &Ir, op: OpId, _: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    ctx.dict_get(ir.attrs(op), "value").map(|a| vec![FoldResult::Attr(a)])
}

fn fold_add(ctx: &Context, ir: &Ir, op: OpId, c: &[Option<Attr>]) -> Option<Vec<FoldResult>> {
    let ty = ir.value_type(ir.result(op, 0));
    let (x, y) = (c[0].and_then(|a| ctx.attr_i64(a))?, c[1].and_then(|a| ctx.attr_i64(a))?);
    Some(vec![FoldResult::Attr(ctx.int_attr(ty, x + y))])
}

fn materialize(rw: &mut dyn Rewriter, value: Attr, ty: Type, loc: Attr) -> Option<OpId> {
    let ctx = rw.ctx();
    let attrs = ctx.dictionary(vec![(ctx.ident("value"), value)]);
    let name = ctx.op_name("p.const");
    Some(rw.create_op(OperationState {
        name,
        operands: vec![],
        result_types: vec![ty],
        successors: vec![],
        regions: vec![],
        attrs,
        props: None,
        loc,
    }))
}

static P_CONST: OpDef =
    OpDef { fold: Some(fold_const), ..OpDef::new("p.const", Traits(Traits::CONSTANT_LIKE.0 | Traits::PURE.0)) };
static P_ADD: OpDef =
    OpDef { fold: Some(fold_add), ..OpDef::new("p.add", Traits(Traits::PURE.0 | Traits::COMMUTATIVE.0)) };
static P_RET: OpDef = OpDef::new("p.ret", Traits(Traits::TERMINATOR.0 | Traits::PURE.0));
static P_BR: OpDef = OpDef::new("p.br", Traits::TERMINATOR);
static P_WRAP: OpDef = OpDef::new("p.wrap", Traits::NO_TERMINATOR);
static P_PWRAP: OpDef = OpDef::new("p.pwrap", Traits::PURE);
static P_FUNC: OpDef = OpDef::new("p.func", Traits::ISOLATED_FROM_ABOVE);
static P_MODULE: OpDef = OpDef::new(
    "p.module",
    Traits(
        Traits::SYMBOL_TABLE.0
            | Traits::NO_TERMINATOR.0
            | Traits::ISOLATED_FROM_ABOVE.0
            | Traits::GRAPH_REGIONS.0
            | Traits::SINGLE_BLOCK.0
            | Traits::SYMBOL.0,
    ),
);
static P_FN: OpDef = OpDef::new("p.fn", Traits(Traits::SYMBOL.0 | Traits::ISOLATED_FROM_ABOVE.0));
static P_DIALECT: DialectDef = DialectDef {
    namespace: "p",
    summary: "",
    description: "",
    ops: &[&P_CONST, &P_ADD, &P_RET, &P_BR, &P_WRAP, &P_PWRAP, &P_FUNC, &P_MODULE, &P_FN],
    types: &[],
    attrs: &[],
    opaque_attrs: false,
    materialize_constant: Some(materialize),
};

pub(crate) struct T {
    pub ctx: Context,
    pub ir: Ir,
}

impl T {
    pub fn new() -> Self {
        let mut reg = Registry::new();
        reg.register(&P_DIALECT);
        let ctx = Context::new(reg);
        ctx.set_allow_unregistered(true);
        T { ctx, ir: Ir::new() }
    }
    pub fn i32(&self) -> Type {
        self.ctx.integer_type(32)
    }
    fn state(&self, name: &str, operands: &[Value], results: usize) -> OperationState {
        OperationState {
            name: self.ctx.op_name(name),
            operands: operands.to_vec(),
            result_types: vec![self.i32(); results],
            successors: vec![],
            regions: vec![],
            attrs: self.ctx.empty_dict(),
            props: None,
            loc: self.ctx.file_loc("x", 1, 1),
        }
    }
    pub fn op(&mut self, b: BlockId, name: &str, operands: &[Value], results: usize) -> OpId {
        let o = self.ir.create_op(self.state(name, operands, results));
        self.ir.append_op(b, o);
        o
    }
    pub fn val(&mut self, b: BlockId, name: &str, operands: &[Value]) -> Value {
        let o = self.op(b, name, operands, 1);
        self.ir.result(o, 0)
    }
    pub fn cst(&mut self, b: BlockId, v: i64) -> Value {
        let o = self.op(b, "p.const", &[], 1);
        let a = self.ctx.int_attr(self.i32(), v);
        self.set_attr(o, "value", a);
        self.ir.result(o, 0)
    }
    pub fn set_attr(&mut self, op: OpId, key: &str, value: Attr) {
        let d = self.ctx.dict_set(self.ir.attrs(op), key, Some(value));
        self.ir.set_attrs(op, d);
    }
    pub fn br(&mut self, b: BlockId, succs: &[BlockId]) -> OpId {
        let mut st = self.state("p.br", &[], 0);
        st.successors = succs.to_vec();
        let o = self.ir.create_op(st);
        self.ir.append_op(b, o);
        o
    }
    fn new_region(&mut self, n: usize) -> (RegionId, Vec<BlockId>) {
        let r = self.ir.create_region();
        let mut bs = vec![];
        for _ in 0..n {
            let b = self.ir.create_block(&[]);
            self.ir.append_block(r, b);
            bs.push(b);
        }
        (r, bs)
    }
    /// An op `name` with one single-block region, appended to `b`.
    pub fn region_op(&mut self, b: BlockId, name: &str) -> (OpId, BlockId) {
        let (r, bs) = self.new_region(1);
        let mut st = self.state(name, &[], 0);
        st.regions = vec![r];
        let o = self.ir.create_op(st);
        self.ir.append_op(b, o);
        (o, bs[0])
    }
    pub fn region_op_with_result(&mut self, b: BlockId, name: &str) -> (OpId, BlockId) {
        let (r, bs) = self.new_region(1);
        let mut st = self.state(name, &[], 1);
        st.regions = vec![r];
        let o = self.ir.create_op(st);
        self.ir.append_op(b, o);
        (o, bs[0])
    }
    /// A detached `p.func` root with `n` blocks.
    pub fn root_with_blocks(&mut self, n: usize) -> (OpId, RegionId, Vec<BlockId>) {
        let (r, bs) = self.new_region(n);
        let mut st = self.state("p.func", &[], 0);
        st.regions = vec![r];
        let top = self.ir.create_block(&[]);
        let o = self.ir.create_op(st);
        self.ir.append_op(top, o);
        (o, r, bs)
    }
    pub fn root(&mut self) -> (OpId, BlockId) {
        let (o, _, bs) = self.root_with_blocks(1);
        (o, bs[0])
    }
    /// A detached `p.module` (the root of symbol tests).
    pub fn module(&mut self) -> (OpId, BlockId) {
        let (r, bs) = self.new_region(1);
        let mut st = self.state("p.module", &[], 0);
        st.regions = vec![r];
        (self.ir.create_op(st), bs[0])
    }
    /// A symbol op (`p.fn` or `p.module`) named `name` in `b`, optionally private.
    pub fn symbol(&mut self, b: BlockId, kind: &str, name: &str, private: bool) -> (OpId, BlockId) {
        let (o, inner) = self.region_op(b, kind);
        let s = self.ctx.string_attr(name);
        self.set_attr(o, "sym_name", s);
        if private {
            let p = self.ctx.string_attr("private");
            self.set_attr(o, "sym_visibility", p);
        }
        (o, inner)
    }
    /// Symbol names of the ops of `b`.
    pub fn symbols(&self, b: BlockId) -> Vec<String> {
        self.ir
            .block_ops(b)
            .filter_map(|o| self.ctx.dict_get(self.ir.attrs(o), "sym_name"))
            .filter_map(|a| self.ctx.attr_str(a).map(str::to_string))
            .collect()
    }
    /// One line per op of `b`: `name %operands... =const`, values numbered in definition order
    /// within the block (`%?` for values from elsewhere).
    pub fn dump(&self, b: BlockId) -> Vec<String> {
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
                s += &format!(" ={}", self.ctx.attr_i64(a).unwrap_or(0));
            }
            names.extend(self.ir.results(op).iter().copied());
            out.push(s);
        }
        out
    }
}
