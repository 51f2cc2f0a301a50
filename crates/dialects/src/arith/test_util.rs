//! Hand-built IR for folder tests: a block of ops with function arguments as leaves.
use crate::support::empty_state;
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::ir::{BlockId, Ir, OpId, Value};
use fuser_ir::registry::FoldResult;
use fuser_ir::types::Type;

pub struct Bench {
    pub ctx: Context,
    pub ir: Ir,
    pub block: BlockId,
}

impl Bench {
    pub fn new() -> Bench {
        let ctx = Context::new(crate::registry());
        let mut ir = Ir::new();
        let block = ir.create_block(&[]);
        Bench { ctx, ir, block }
    }
    pub fn arg(&mut self, ty: Type) -> Value {
        self.ir.add_block_arg(self.block, ty, None)
    }
    /// Appends an op (state built by `make`) and returns it.
    pub fn op(&mut self, state: fuser_ir::ir::OperationState) -> OpId {
        let op = self.ir.create_op(state);
        self.ir.append_op(self.block, op);
        op
    }
    /// Appends the integer binary op `name` of `l` and `r` (result typed as `l`).
    pub fn binary(&mut self, name: &str, l: Value, r: Value) -> OpId {
        let ty = self.ir.value_type(l);
        let state = super::binary_state(&self.ctx, name, l, r, ty, self.ctx.unknown_loc());
        self.op(state)
    }
    /// An `arith.constant` result.
    pub fn constant(&mut self, value: Attr) -> Value {
        let state = super::constant_state(&self.ctx, value, self.ctx.unknown_loc()).unwrap();
        let op = self.op(state);
        self.ir.result(op, 0)
    }
    pub fn int(&mut self, ty: Type, v: i64) -> Value {
        let a = self.ctx.int_attr(ty, v);
        self.constant(a)
    }
    /// Runs the op's folder with the constant operands it can see.
    pub fn fold(&self, op: OpId) -> Option<Vec<FoldResult>> {
        let def = self.ctx.op_def(self.ir.op_name(op)).unwrap();
        let operands: Vec<Option<Attr>> = self
            .ir
            .operands(op)
            .iter()
            .map(|&v| {
                let d = self.ir.defining_op(v)?;
                let const_def = self.ctx.op_def(self.ir.op_name(d))?;
                const_def.fold?(&self.ctx, &self.ir, d, &[]).and_then(|r| match r.first() {
                    Some(FoldResult::Attr(a)) => Some(*a),
                    _ => None,
                })
            })
            .collect();
        def.fold.unwrap()(&self.ctx, &self.ir, op, &operands)
    }
    /// The folded constant as a signed number, if the fold produced a scalar constant.
    pub fn fold_int(&self, op: OpId) -> Option<i128> {
        match self.fold(op)?.as_slice() {
            [FoldResult::Attr(a)] => crate::support::int_const(&self.ctx, *a).and_then(|(c, _)| c.signed()),
            _ => None,
        }
    }
    pub fn fold_value(&self, op: OpId) -> Option<Value> {
        match self.fold(op)?.as_slice() {
            [FoldResult::Value(v)] => Some(*v),
            _ => None,
        }
    }
    pub fn verify(&self, op: OpId) -> Result<(), String> {
        let def = self.ctx.op_def(self.ir.op_name(op)).unwrap();
        let v = fuser_ir::registry::VerifyCtx { ctx: &self.ctx, ir: &self.ir };
        def.verify_structure_and_hook(&v, op).map_err(|d| d.message)
    }
    pub fn empty(&self, name: &str) -> fuser_ir::ir::OperationState {
        empty_state(&self.ctx, name, self.ctx.unknown_loc())
    }
}
