//! Unit tests of the comm dialect: attribute parse/print, team checks, builders (every
//! `*_state` builds a verified op that prints in the custom form), accessors, and the
//! team-of-one canonicalization into `host.copy` (with a stand-in `host.copy`, since the host
//! ops live elsewhere).

use super::*;
use crate::host::types::{BUF, STREAM, VIEW};
use crate::reduction::ReductionKind;
use fuser_ir::diag::SourceFile;
use fuser_ir::ir::{BlockId, OperationState, Value, WalkOrder};
use fuser_ir::parser::{parse_attr_str, parse_source, parse_type_str};
use fuser_ir::printer::{PrintOptions, print_attr, print_module};
use fuser_ir::registry::{Registry, Traits};
use fuser_ir::rewrite::{GreedyConfig, apply_patterns_greedily};
use std::sync::Arc;

fn ctx() -> Context {
    Context::new(crate::registry())
}

fn parse(ctx: &Context, ir: &mut Ir, text: &str) -> OpId {
    let src = SourceFile::new("t.mlir", Arc::from(text));
    let module = parse_source(ctx, ir, &src).unwrap_or_else(|d| panic!("{}", d.message));
    fuser_ir::verifier::verify(ctx, ir, module).unwrap_or_else(|d| panic!("{}", d[0].message));
    module
}

fn print(ctx: &Context, ir: &Ir, module: OpId) -> String {
    print_module(ctx, ir, module, &PrintOptions::default())
}

/// The ops of `module` named `name`, in order.
fn ops_named(ctx: &Context, ir: &Ir, module: OpId, name: &str) -> Vec<OpId> {
    ir.collect_ops(module, WalkOrder::PreOrder)
        .into_iter()
        .filter(|&o| ctx.op_name_str(ir.op_name(o)) == name)
        .collect()
}

#[test]
fn attributes_parse_print_and_decode() {
    let ctx = ctx();
    for (text, printed) in [
        ("#comm.reduction<sum>", "#comm.reduction<sum>"),
        ("#comm.reduction< max >", "#comm.reduction<max>"),
        ("#comm.backend<cuda_ipc>", "#comm.backend<cuda_ipc>"),
        ("#comm.protocol<put>", "#comm.protocol<put>"),
    ] {
        let a = parse_attr_str(&ctx, text).unwrap();
        assert_eq!(print_attr(&ctx, a), printed);
    }
    for k in ReductionKind::ALL {
        let a = reduction_attr(&ctx, k);
        assert_eq!(reduction_of(&ctx, a), Some(k));
        assert_eq!(parse_attr_str(&ctx, &print_attr(&ctx, a)).unwrap(), a);
    }
    for b in Backend::ALL {
        assert_eq!(backend_of(&ctx, backend_attr(&ctx, b)), Some(b));
    }
    for p in Protocol::ALL {
        assert_eq!(protocol_of(&ctx, protocol_attr(&ctx, p)), Some(p));
    }
    assert_eq!(backend_of(&ctx, protocol_attr(&ctx, Protocol::Get)), None);
    assert_eq!(reduction_of(&ctx, ctx.unit_attr()), None);
    let team = team_attr(&ctx, &[3, 1]);
    assert_eq!(print_attr(&ctx, team), "array<i64: 3, 1>");
    assert_eq!(team_of(&ctx, team), Some(&[3i64, 1][..]));
    assert_eq!(team_of(&ctx, parse_attr_str(&ctx, "array<i32: 1>").unwrap()), None);
}

#[test]
fn bad_attributes_are_diagnosed() {
    let ctx = ctx();
    let err = parse_attr_str(&ctx, "#comm.reduction<avg>").unwrap_err();
    assert!(err.contains("unknown reduction kind 'avg' (expected sum, prod, min, max)"), "{err}");
    assert!(parse_attr_str(&ctx, "#comm.backend<>").is_err());
    assert!(parse_attr_str(&ctx, "#comm.protocol<get, put>").is_err());
    assert!(parse_attr_str(&ctx, "#comm.nope<get>").is_err());
    let err = ctx.dialect_attr("comm", "backend", vec![fuser_ir::attrs::DialectParam::Int(1)]).unwrap_err();
    assert_eq!(err, "expected one backend keyword");
    let err =
        ctx.dialect_attr("comm", "protocol", vec![fuser_ir::attrs::DialectParam::Keyword("x".into())]).unwrap_err();
    assert_eq!(err, "unknown protocol 'x'");
}

#[test]
fn request_type_round_trips() {
    let ctx = ctx();
    let t = request_type(&ctx);
    assert_eq!(parse_type_str(&ctx, "!comm.request").unwrap(), t);
    assert_eq!(fuser_ir::printer::print_type(&ctx, t), "!comm.request");
    assert!(is_request(&ctx, t));
    assert!(!is_request(&ctx, ctx.index_type()));
    assert!(parse_type_str(&ctx, "!comm.request<1>").is_err());
}

#[test]
fn team_checks() {
    assert_eq!(check_team(&[0, 1, 2, 3]), Ok(()));
    assert_eq!(check_team(&[7]), Ok(()));
    assert_eq!(check_team(&[]), Err("requires a non-empty team".into()));
    assert_eq!(check_team(&[0, -1]), Err("requires non-negative device ids in the team, got -1".into()));
    assert_eq!(check_team(&[2, 0, 2]), Err("requires distinct device ids in the team, got 2 twice".into()));
}

/// A function body to build ops into, with buffer and index arguments.
struct Body {
    ctx: Context,
    ir: Ir,
    module: OpId,
    block: BlockId,
}

impl Body {
    fn new() -> Body {
        let ctx = ctx();
        let mut ir = Ir::new();
        let module = parse(
            &ctx,
            &mut ir,
            "func.func @f(%s: !host.buf<2x8xf32>, %f: !host.buf<8x8xf32>, %i: index) {\n  return\n}",
        );
        let func = ops_named(&ctx, &ir, module, "func.func")[0];
        let block = ir.region_entry(ir.region(func, 0)).unwrap();
        Body { ctx, ir, module, block }
    }
    fn args(&self) -> (Value, Value, Value) {
        let a = self.ir.block_args(self.block);
        (a[0], a[1], a[2])
    }
    /// Inserts the op before the `return`.
    fn add(&mut self, state: OperationState) -> OpId {
        let op = self.ir.create_op(state);
        let ret = self.ir.last_op(self.block).unwrap();
        self.ir.insert_op_before(ret, op);
        op
    }
}

#[test]
fn builders_make_verified_ops() {
    let mut b = Body::new();
    let (s, f, i) = b.args();
    let (ctx, loc) = (&b.ctx, b.ctx.unknown_loc());
    let team = [0, 1, 2, 3];
    let states = vec![
        allgather_state(ctx, s, f, &team, loc),
        allreduce_state(ctx, ReductionKind::Max, s, s, &team, loc),
        reduce_scatter_state(ctx, ReductionKind::Sum, f, s, &team, loc),
        broadcast_state(ctx, s, s, i, &team, loc),
        reduce_state(ctx, ReductionKind::Prod, s, s, i, &team, loc),
        gather_state(ctx, s, f, i, &team, loc),
        scatter_state(ctx, f, s, i, &team, loc),
        all_to_all_state(ctx, f, f, &team, loc),
        collective_permute_state(ctx, s, s, i, i, &team, loc),
        send_state(ctx, s, i, Backend::CudaIpc, Some(Protocol::Put), loc),
        recv_state(ctx, s, i, Backend::Nccl, None, loc),
        share_handles_state(ctx, &[(s, i)], &[(f, i), (s, i)], loc),
    ];
    let mut posts = Vec::new();
    for st in states {
        let op = b.add(st);
        if let Some(r) = request(&b.ctx, &b.ir, op) {
            posts.push(r);
        }
    }
    let (mut group, body) = group_state(&b.ctx, &mut b.ir, b.ctx.unknown_loc());
    group.attrs = b.ctx.empty_dict();
    let g = b.add(group);
    let inner = b.ir.create_op(send_state(&b.ctx, s, i, Backend::Nccl, None, b.ctx.unknown_loc()));
    b.ir.append_op(body, inner);
    posts.push(b.ir.result(g, 0));
    b.add(wait_state(&b.ctx, &posts, b.ctx.unknown_loc()));
    fuser_ir::verifier::verify(&b.ctx, &b.ir, b.module).unwrap_or_else(|d| panic!("{}", d[0].message));
    let text = print(&b.ctx, &b.ir, b.module);
    for line in [
        "comm.allgather %arg0 into %arg1 team = [0, 1, 2, 3] : !host.buf<2x8xf32>, !host.buf<8x8xf32>",
        "comm.reduce_scatter sum %arg1 into %arg0 team = [0, 1, 2, 3]",
        "comm.reduce prod %arg0 into %arg0 root %arg2 team = [0, 1, 2, 3]",
        "comm.collective_permute %arg0 into %arg0 send_to %arg2 recv_from %arg2 team = [0, 1, 2, 3]",
        "comm.send %arg0 to %arg2 backend = cuda_ipc protocol = put : !host.buf<2x8xf32>",
        "comm.recv %arg0 from %arg2 : !host.buf<2x8xf32>",
        "comm.share_handles send(%arg0 to %arg2) recv(%arg1 from %arg2, %arg0 from %arg2) backend = cuda_ipc : \
!host.buf<2x8xf32>, !host.buf<8x8xf32>, !host.buf<2x8xf32>",
        "= comm.group {",
    ] {
        assert!(text.contains(line), "missing `{line}` in\n{text}");
    }
    // The printed text parses back to the same text.
    let mut ir2 = Ir::new();
    let m2 = parse(&b.ctx, &mut ir2, &text);
    assert_eq!(print(&b.ctx, &ir2, m2), text);
}

#[test]
fn set_backend_overrides_the_default() {
    let b = Body::new();
    let (s, f, _) = b.args();
    let mut st = allgather_state(&b.ctx, s, f, &[0, 1, 2, 3], b.ctx.unknown_loc());
    set_backend(&b.ctx, &mut st, Backend::CudaIpc);
    let backend = b.ctx.dict_get(st.props.unwrap(), "backend").unwrap();
    assert_eq!(backend_of(&b.ctx, backend), Some(Backend::CudaIpc));
}

#[test]
fn accessors() {
    let ctx = ctx();
    let mut ir = Ir::new();
    let m = parse(
        &ctx,
        &mut ir,
        "func.func @f(%a: !host.buf<8xf32>, %i: index, %j: index) {
  %0 = comm.reduce min %a into %a root %i team = [4, 2] : !host.buf<8xf32>, !host.buf<8xf32>
  %1 = comm.send %a to %j backend = cuda_ipc : !host.buf<8xf32>
  %2 = comm.recv %a from %j backend = cuda_ipc protocol = put : !host.buf<8xf32>
  %3 = comm.collective_permute %a into %a send_to %i recv_from %j team = [0, 1] : !host.buf<8xf32>, !host.buf<8xf32>
  comm.share_handles send(%a to %i) recv(%a from %j) backend = cuda_ipc : !host.buf<8xf32>, !host.buf<8xf32>
  comm.wait %0, %1, %2, %3
  return
}",
    );
    let func = ops_named(&ctx, &ir, m, "func.func")[0];
    let entry = ir.region_entry(ir.region(func, 0)).unwrap();
    let (a, i, j) = (ir.block_args(entry)[0], ir.block_args(entry)[1], ir.block_args(entry)[2]);
    let ops: Vec<OpId> = ir.block_ops(entry).collect();
    let (reduce, send, recv, permute, share, wait) = (ops[0], ops[1], ops[2], ops[3], ops[4], ops[5]);
    assert_eq!(team(&ctx, &ir, reduce), Some(vec![4, 2]));
    assert_eq!(reduction_kind(&ctx, &ir, reduce), Some(ReductionKind::Min));
    assert_eq!(root(&ctx, &ir, reduce), Some(i));
    assert_eq!((input(&ctx, &ir, reduce), output(&ctx, &ir, reduce)), (Some(a), Some(a)));
    assert_eq!(backend(&ctx, &ir, reduce), Backend::Nccl);
    assert_eq!(protocol(&ctx, &ir, reduce), None);
    assert!(is_collective(&ctx, &ir, reduce) && !is_collective(&ctx, &ir, send));
    assert_eq!((buffer(&ctx, &ir, send), peer(&ctx, &ir, send)), (Some(a), Some(j)));
    assert_eq!(protocol(&ctx, &ir, send), Some(Protocol::Get));
    assert_eq!(protocol(&ctx, &ir, recv), Some(Protocol::Put));
    assert_eq!((send_to(&ctx, &ir, permute), recv_from(&ctx, &ir, permute)), (Some(i), Some(j)));
    assert_eq!(share_handles_sends(&ctx, &ir, share), vec![(a, i)]);
    assert_eq!(share_handles_recvs(&ctx, &ir, share), vec![(a, j)]);
    assert_eq!(request(&ctx, &ir, share), None);
    assert_eq!(request(&ctx, &ir, wait), None);
    assert_eq!(request(&ctx, &ir, permute), Some(ir.result(permute, 0)));
    assert_eq!(team(&ctx, &ir, send), None);
}

// ----- team of one with a stand-in host.copy ----------------------------------------------------

static STUB_COPY: fuser_ir::registry::OpDef = fuser_ir::registry::OpDef::new("host.copy", Traits::NONE);
static STUB_HOST: DialectDef = DialectDef {
    namespace: "host",
    summary: "",
    description: "",
    ops: &[&STUB_COPY],
    materialize_constant: None,
    types: &[&BUF, &VIEW, &STREAM],
    attrs: &[],
    opaque_attrs: false,
};

fn canonicalize(ctx: &Context, text: &str) -> String {
    let mut ir = Ir::new();
    let m = parse(ctx, &mut ir, text);
    apply_patterns_greedily(ctx, &mut ir, m, &GreedyConfig::default()).unwrap();
    print(ctx, &ir, m)
}

#[test]
fn team_of_one_becomes_a_copy() {
    let mut r: Registry = crate::registry();
    r.register(&STUB_HOST);
    let ctx = Context::new(r);
    let out = canonicalize(
        &ctx,
        "func.func @f(%a: !host.buf<8xf32>, %b: !host.buf<8xf32>, %c: !host.buf<1x8xf32>, %d: !host.buf<8xf32>) {
  %0 = comm.allgather %a into %b team = [3] : !host.buf<8xf32>, !host.buf<8xf32>
  %1 = comm.allgather %a into %c team = [3] : !host.buf<8xf32>, !host.buf<1x8xf32>
  %2 = comm.allreduce sum %d into %d team = [0, 1] : !host.buf<8xf32>, !host.buf<8xf32>
  comm.wait %0, %1, %2
  return
}",
    );
    assert!(out.contains("\"host.copy\"(%arg0, %arg1) : (!host.buf<8xf32>, !host.buf<8xf32>) -> ()"), "{out}");
    // Another shape is not a plain copy: left alone.
    assert!(out.contains("%0 = comm.allgather %arg0 into %arg2 team = [3]"), "{out}");
    assert!(out.contains("comm.wait %0, %1\n"), "{out}");
}

#[test]
fn team_of_one_broadcast_becomes_a_host_copy() {
    let ctx = ctx();
    let out = canonicalize(
        &ctx,
        "func.func @f(%a: !host.buf<8xf32>, %b: !host.buf<8xf32>) {
  %c = arith.constant 0 : index
  %0 = comm.broadcast %a into %b root %c team = [3] : !host.buf<8xf32>, !host.buf<8xf32>
  comm.wait %0
  return
}",
    );
    assert!(out.contains("host.copy %arg0, %arg1 : !host.buf<8xf32>, !host.buf<8xf32>"), "{out}");
    assert!(!out.contains("comm.broadcast") && !out.contains("comm.wait"), "{out}");
}
