//! Unit tests of the host ops built through their `*_state` builders: a whole host program
//! built by hand verifies and prints in the documented syntax; builders refuse parameters that
//! do not fit the source type; typed accessors see the declared groups.

use super::types::{MemoryKind, buf_type, view_type};
use super::*;
use crate::arith::constant_state;
use crate::builtin::module_state;
use crate::func::{func_state, return_state};
use fuser_ir::context::Context;
use fuser_ir::ir::{BlockId, Ir, OpId, OperationState, Value};
use fuser_ir::printer::{PrintOptions, print_module};
use fuser_ir::types::{DYNAMIC, FloatKind, Type};

struct Builder {
    ctx: Context,
    ir: Ir,
    module: OpId,
}

impl Builder {
    fn new() -> Builder {
        let ctx = Context::new(crate::registry());
        let mut ir = Ir::new();
        let state = module_state(&ctx, &mut ir, None, ctx.unknown_loc());
        let module = ir.create_op(state);
        Builder { ctx, ir, module }
    }
    fn f32(&self) -> Type {
        self.ctx.float_type(FloatKind::F32)
    }
    fn func(&mut self, name: &str, inputs: Vec<Type>) -> BlockId {
        let (state, entry) = func_state(&self.ctx, &mut self.ir, name, inputs, vec![], true, self.ctx.unknown_loc());
        let f = self.ir.create_op(state);
        let body = self.ir.region_entry(self.ir.region(self.module, 0)).unwrap();
        self.ir.append_op(body, f);
        entry.unwrap()
    }
    fn push(&mut self, block: BlockId, state: OperationState) -> OpId {
        let op = self.ir.create_op(state);
        self.ir.append_op(block, op);
        op
    }
    fn value(&mut self, block: BlockId, state: OperationState) -> Value {
        let op = self.push(block, state);
        self.ir.result(op, 0)
    }
    fn index(&mut self, block: BlockId, v: i64) -> Value {
        let state = constant_state(&self.ctx, self.ctx.int_attr(self.ctx.index_type(), v), self.ctx.unknown_loc());
        self.value(block, state.unwrap())
    }
    fn verify(&self) -> Result<(), String> {
        fuser_ir::verifier::verify(&self.ctx, &self.ir, self.module).map_err(|d| d[0].message.clone())
    }
    fn print(&self) -> String {
        print_module(&self.ctx, &self.ir, self.module, &PrintOptions::default())
    }
}

/// The stream-parallel matmul of test/Dialect/Host/ops.mlir, built with the builders.
#[test]
fn builders_make_a_verified_stream_loop() {
    let mut b = Builder::new();
    let f32t = b.f32();
    let a_ty = buf_type(&b.ctx, &[12, 16], f32t, MemoryKind::Device);
    let w_ty = buf_type(&b.ctx, &[16, 32], f32t, MemoryKind::Device);
    let out_ty = buf_type(&b.ctx, &[12, 32], f32t, MemoryKind::Device);
    let entry = b.func("mm", vec![a_ty, w_ty]);
    let (a, w) = (b.ir.block_args(entry)[0], b.ir.block_args(entry)[1]);
    let loc = b.ctx.unknown_loc();
    let (c0, c1, c3) = (b.index(entry, 0), b.index(entry, 1), b.index(entry, 3));
    let out = b.value(entry, alloc_state(&b.ctx, out_ty, &[], false, loc));
    let main = b.value(entry, current_stream_state(&b.ctx, loc));
    let (for_st, body, i) = for_state(&b.ctx, &mut b.ir, c0, c3, c1, loc);
    b.push(entry, for_st);
    let s = b.value(body, get_stream_state(&b.ctx, i, loc));
    b.push(body, set_stream_state(&b.ctx, s, loc));
    b.push(body, stream_wait_state(&b.ctx, main, loc));
    let a_i = shard_by_stream_state(&b.ctx, &b.ir, a, i, 0, 3, loc).unwrap();
    let a_i = b.value(body, a_i);
    let out_i = shard_by_stream_state(&b.ctx, &b.ir, out, i, 0, 3, loc).unwrap();
    let out_i = b.value(body, out_i);
    b.push(body, matmul_state(&b.ctx, a_i, w, out_i, false, loc));
    b.push(entry, set_stream_state(&b.ctx, main, loc));
    b.push(entry, synchronize_state(&b.ctx, main, loc));
    b.push(entry, dealloc_state(&b.ctx, out, loc));
    b.push(entry, return_state(&b.ctx, &[], loc));
    assert_eq!(b.verify(), Ok(()));
    let text = b.print();
    assert!(text.contains("host.for %arg2 = %c0 to %c3 step %c1 {"), "{text}");
    assert!(text.contains(
        "%3 = host.shard_by_stream %arg0[%arg2] axis = 0 chunks = 3 : !host.buf<12x16xf32> -> !host.view<4x16xf32, strides = [16, 1]>"
    ));
    assert!(text.contains("host.matmul %3, %arg1 into %4 : !host.view<4x16xf32, strides = [16, 1]>, !host.buf<16x32xf32>, !host.view<4x32xf32, strides = [32, 1]>"));
}

/// Every remaining builder gives an op that verifies in a realistic setting.
#[test]
fn other_builders_verify() {
    let mut b = Builder::new();
    let f32t = b.f32();
    let bf16 = b.ctx.float_type(FloatKind::BF16);
    let idx = b.ctx.index_type();
    let x_ty = buf_type(&b.ctx, &[4, 8], f32t, MemoryKind::Device);
    let w_ty = buf_type(&b.ctx, &[16, 8], f32t, MemoryKind::Device);
    let bias_ty = buf_type(&b.ctx, &[16], f32t, MemoryKind::Device);
    let y_ty = buf_type(&b.ctx, &[4, 16], f32t, MemoryKind::Device);
    let entry = b.func("misc", vec![x_ty, w_ty, bias_ty, y_ty, idx, b.ctx.i1_type()]);
    let args = b.ir.block_args(entry).to_vec();
    let (x, w, bias, y, n, cond) = (args[0], args[1], args[2], args[3], args[4], args[5]);
    let loc = b.ctx.unknown_loc();
    let dyn_ty = buf_type(&b.ctx, &[DYNAMIC, 8], bf16, MemoryKind::Ipc);
    let d = b.value(entry, alloc_state(&b.ctx, dyn_ty, &[n], true, loc));
    b.push(entry, linear_state(&b.ctx, x, w, Some(bias), y, loc));
    b.push(entry, linear_state(&b.ctx, x, w, None, y, loc));
    b.push(entry, elementwise_state(&b.ctx, ElementwiseKind::Add, &[x, x], x, loc));
    let row_ty = buf_type(&b.ctx, &[4], f32t, MemoryKind::Device);
    let row = b.value(entry, alloc_state(&b.ctx, row_ty, &[], false, loc));
    b.push(entry, sum_state(&b.ctx, x, row, &[1], loc));
    let sel = select_state(&b.ctx, &b.ir, x, n, 1, loc).unwrap();
    let col = b.value(entry, sel);
    b.push(entry, copy_state(&b.ctx, col, row, loc));
    let sl = slice_state(
        &b.ctx,
        &b.ir,
        d,
        &[Mixed::Dynamic(n), Mixed::Static(0)],
        &[Mixed::Static(2), Mixed::Static(4)],
        &[Mixed::Static(1), Mixed::Dynamic(n)],
        loc,
    )
    .unwrap();
    let slice = b.value(entry, sl);
    let expected = view_type(&b.ctx, &[2, 4], bf16, &[8, DYNAMIC], MemoryKind::Ipc);
    assert_eq!(b.ir.value_type(slice), expected);
    let rank = b.value(entry, rank_state(&b.ctx, loc));
    let size = b.value(entry, world_size_state(&b.ctx, loc));
    b.push(entry, launch_state(&b.ctx, "kernel", &[slice, rank, size], loc));
    let (if_st, then_block, else_block) = if_state(&b.ctx, &mut b.ir, cond, true, loc);
    b.push(entry, if_st);
    b.push(then_block, elementwise_state(&b.ctx, ElementwiseKind::Neg, &[row], row, loc));
    let s = b.value(else_block.unwrap(), get_stream_state(&b.ctx, rank, loc));
    b.push(else_block.unwrap(), synchronize_state(&b.ctx, s, loc));
    b.push(entry, dealloc_state(&b.ctx, d, loc));
    let residual = b.value(entry, alloc_state(&b.ctx, y_ty, &[], false, loc));
    b.push(entry, linear_epilogue_state(&b.ctx, x, w, Some(bias), Some(residual), y, None, loc));
    b.push(entry, linear_epilogue_state(&b.ctx, x, w, None, None, y, Some(LinearEpilogue::GeluTanh), loc));
    b.push(entry, return_state(&b.ctx, &[], loc));
    assert_eq!(b.verify(), Ok(()));
    let slice_op = b.ir.defining_op(slice).unwrap();
    assert_eq!(SLICE.operands_named(&b.ctx, &b.ir, slice_op, "offsets"), Some(vec![n]));
    assert_eq!(SLICE.operands_named(&b.ctx, &b.ir, slice_op, "sizes"), Some(vec![]));
    assert_eq!(SLICE.operands_named(&b.ctx, &b.ir, slice_op, "strides"), Some(vec![n]));
    let text = b.print();
    assert!(text.contains("host.slice %0[%arg4, 0] [2, 4] [1, %arg4] : !host.buf<?x8xbf16, ipc> -> !host.view<2x4xbf16, strides = [8, ?], ipc>"), "{text}");
    assert!(text.contains("host.launch @kernel(%3, %rank, %world_size)"), "{text}");
    assert!(
        text.contains("host.linear %arg0, %arg1, %arg2 into %arg3 residual %4 : !host.buf<4x8xf32>, !host.buf<16x8xf32>, !host.buf<16xf32>, !host.buf<4x16xf32>, !host.buf<4x16xf32>"),
        "{text}"
    );
    assert!(text.contains("host.linear %arg0, %arg1 into %arg3 epilogue = gelu_tanh : "), "{text}");
}

#[test]
fn view_builders_refuse_bad_parameters() {
    let mut b = Builder::new();
    let t = buf_type(&b.ctx, &[5, 6], b.f32(), MemoryKind::Device);
    let entry = b.func("bad", vec![t, b.ctx.index_type()]);
    let (src, i) = (b.ir.block_args(entry)[0], b.ir.block_args(entry)[1]);
    let loc = b.ctx.unknown_loc();
    assert!(shard_by_stream_state(&b.ctx, &b.ir, src, i, 0, 3, loc).unwrap_err().contains("not divisible"));
    assert!(shard_by_stream_state(&b.ctx, &b.ir, i, i, 0, 1, loc).unwrap_err().contains("not a buffer"));
    assert!(select_state(&b.ctx, &b.ir, src, i, 2, loc).unwrap_err().contains("out of range"));
    let s = [Mixed::Static(1)];
    assert!(slice_state(&b.ctx, &b.ir, src, &s, &s, &s, loc).unwrap_err().contains("expected 2 offset values"));
}

/// A verifier error of a builder-made op names the op, as mlir-opt does.
#[test]
fn matmul_shape_errors_are_reported() {
    let mut b = Builder::new();
    let f32t = b.f32();
    let a = buf_type(&b.ctx, &[4, 8], f32t, MemoryKind::Device);
    let entry = b.func("bad", vec![a]);
    let x = b.ir.block_args(entry)[0];
    let loc = b.ctx.unknown_loc();
    b.push(entry, matmul_state(&b.ctx, x, x, x, true, loc));
    b.push(entry, return_state(&b.ctx, &[], loc));
    assert_eq!(b.verify(), Err("'host.matmul' op contracting extents differ: 8 in 'a', 4 in 'b'".into()));
}
