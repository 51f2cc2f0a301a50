//! Fused-region graphs the cuda code generator's tests share (on the host:
//! `cuda_fused_source_on_host.rs`; on a GPU: `cuda_fused_on_gpu.rs`), built by hand as the
//! decoder builds them: the memory-bound patterns of issue 24 (add, gelu_tanh(x + bias),
//! bias + dropout + residual, softmax, layer_norm, rms_norm), norms expanded into primitives.
#![allow(dead_code)]

use fuser_dialects::host::ElementwiseKind as E;
use fuser_runtime::dtype::DType;
use fuser_runtime::fused::{FusedGraph, Input, Kind, Node, NodeOp, ReduceOp};

pub fn node(op: NodeOp, args: &[usize], dtype: DType, kind: Kind) -> Node {
    Node { op, args: args.to_vec(), dtype, kind }
}

fn full(dtype: DType) -> Input {
    Input { dtype, kind: Kind::Full }
}

/// `x + y` over `shape`.
pub fn add(t: DType, shape: &[usize]) -> FusedGraph {
    FusedGraph {
        domain: shape.to_vec(),
        inner: 0,
        inputs: vec![full(t); 2],
        nodes: vec![
            node(NodeOp::Input(0), &[], t, Kind::Full),
            node(NodeOp::Input(1), &[], t, Kind::Full),
            node(NodeOp::Elementwise(E::Add), &[0, 1], t, Kind::Full),
        ],
        outputs: vec![2],
        global_shape: vec![],
    }
}

/// `gelu_tanh(x + bias)` over `[m, n]` (the bias a full input: an expanded view).
pub fn gelu_bias(t: DType, m: usize, n: usize) -> FusedGraph {
    FusedGraph {
        domain: vec![m, n],
        inner: 0,
        inputs: vec![full(t); 2],
        nodes: vec![
            node(NodeOp::Input(0), &[], t, Kind::Full),
            node(NodeOp::Input(1), &[], t, Kind::Full),
            node(NodeOp::Elementwise(E::Add), &[0, 1], t, Kind::Full),
            node(NodeOp::Elementwise(E::GeluTanh), &[2], t, Kind::Full),
        ],
        outputs: vec![3],
        global_shape: vec![],
    }
}

/// `dropout(x + bias) + residual` over `[m, n]`, a piece of a tensor of `global`; inputs x,
/// bias, residual, seed (i64), offset (i64); outputs the result and the dropout.
pub fn bias_dropout_residual(t: DType, m: usize, n: usize, p: f64, global: &[usize]) -> FusedGraph {
    FusedGraph {
        domain: vec![m, n],
        inner: 0,
        inputs: vec![
            full(t),
            full(t),
            full(t),
            Input { dtype: DType::I64, kind: Kind::Scalar },
            Input { dtype: DType::I64, kind: Kind::Scalar },
        ],
        nodes: vec![
            node(NodeOp::Input(0), &[], t, Kind::Full),
            node(NodeOp::Input(1), &[], t, Kind::Full),
            node(NodeOp::Input(2), &[], t, Kind::Full),
            node(NodeOp::Input(3), &[], DType::I64, Kind::Scalar),
            node(NodeOp::Input(4), &[], DType::I64, Kind::Scalar),
            node(NodeOp::Elementwise(E::Add), &[0, 1], t, Kind::Full),
            node(NodeOp::Dropout { p }, &[5, 3, 4], t, Kind::Full),
            node(NodeOp::Elementwise(E::Add), &[6, 2], t, Kind::Full),
        ],
        outputs: vec![7, 6],
        global_shape: global.to_vec(),
    }
}

/// softmax over the last axis of `[rows, cols]` (outputs: the softmax, the row max), with
/// `dropout`: then a dropout of p 0.5 (seed i64, offset i32 inputs; a third output), the
/// piece being rows `[rows, 2 rows)` of a `[2 rows, cols]` tensor.
pub fn softmax(t: DType, rows: usize, cols: usize, dropout: bool) -> FusedGraph {
    let mut g = FusedGraph {
        domain: vec![rows, cols],
        inner: 1,
        inputs: vec![full(t)],
        nodes: vec![
            node(NodeOp::Input(0), &[], t, Kind::Full),
            node(NodeOp::Reduce(ReduceOp::Max), &[0], DType::F32, Kind::Row),
            node(NodeOp::Elementwise(E::Sub), &[0, 1], DType::F32, Kind::Full),
            node(NodeOp::Elementwise(E::Exp), &[2], DType::F32, Kind::Full),
            node(NodeOp::Reduce(ReduceOp::Sum), &[3], DType::F32, Kind::Row),
            node(NodeOp::Elementwise(E::Div), &[3, 4], t, Kind::Full),
        ],
        outputs: vec![5, 1],
        global_shape: vec![],
    };
    if dropout {
        g.inputs.push(Input { dtype: DType::I64, kind: Kind::Scalar });
        g.inputs.push(Input { dtype: DType::I32, kind: Kind::Scalar });
        g.nodes.push(node(NodeOp::Input(1), &[], DType::I64, Kind::Scalar));
        g.nodes.push(node(NodeOp::Input(2), &[], DType::I32, Kind::Scalar));
        g.nodes.push(node(NodeOp::Dropout { p: 0.5 }, &[5, 6, 7], t, Kind::Full));
        g.outputs.push(8);
        g.global_shape = vec![rows * 2, cols];
    }
    g
}

/// layer_norm over the last axis expanded into primitives: inputs x, weight, bias (columns);
/// outputs y, mean, rstd.
pub fn layer_norm(t: DType, rows: usize, cols: usize) -> FusedGraph {
    let f = DType::F32;
    FusedGraph {
        domain: vec![rows, cols],
        inner: 1,
        inputs: vec![full(t), Input { dtype: t, kind: Kind::Col }, Input { dtype: t, kind: Kind::Col }],
        nodes: vec![
            node(NodeOp::Input(0), &[], t, Kind::Full),                   // 0 x
            node(NodeOp::Input(1), &[], t, Kind::Col),                    // 1 w
            node(NodeOp::Input(2), &[], t, Kind::Col),                    // 2 b
            node(NodeOp::Reduce(ReduceOp::Sum), &[0], f, Kind::Row),      // 3
            node(NodeOp::Const(1.0 / cols as f64), &[], f, Kind::Scalar), // 4
            node(NodeOp::Elementwise(E::Mul), &[3, 4], f, Kind::Row),     // 5 mean
            node(NodeOp::Elementwise(E::Sub), &[0, 5], f, Kind::Full),    // 6 d
            node(NodeOp::Elementwise(E::Mul), &[6, 6], f, Kind::Full),    // 7
            node(NodeOp::Reduce(ReduceOp::Sum), &[7], f, Kind::Row),      // 8
            node(NodeOp::Elementwise(E::Mul), &[8, 4], f, Kind::Row),     // 9 var
            node(NodeOp::Const(1e-5), &[], f, Kind::Scalar),              // 10 eps
            node(NodeOp::Elementwise(E::Add), &[9, 10], f, Kind::Row),    // 11
            node(NodeOp::Elementwise(E::Rsqrt), &[11], f, Kind::Row),     // 12 rstd
            node(NodeOp::Elementwise(E::Mul), &[6, 12], f, Kind::Full),   // 13
            node(NodeOp::Elementwise(E::Mul), &[13, 1], f, Kind::Full),   // 14
            node(NodeOp::Elementwise(E::Add), &[14, 2], t, Kind::Full),   // 15 y
        ],
        outputs: vec![15, 5, 12],
        global_shape: vec![],
    }
}

/// rms_norm with a broadcast node: `y = x * broadcast(rsqrt(sum(x*x)/n + eps)) * w`; inputs
/// x, weight (columns); outputs y, rstd.
pub fn rms_norm(t: DType, rows: usize, cols: usize) -> FusedGraph {
    let f = DType::F32;
    FusedGraph {
        domain: vec![rows, cols],
        inner: 1,
        inputs: vec![full(t), Input { dtype: t, kind: Kind::Col }],
        nodes: vec![
            node(NodeOp::Input(0), &[], t, Kind::Full),
            node(NodeOp::Input(1), &[], t, Kind::Col),
            node(NodeOp::Elementwise(E::Mul), &[0, 0], f, Kind::Full),
            node(NodeOp::Reduce(ReduceOp::Sum), &[2], f, Kind::Row),
            node(NodeOp::Const(1.0 / cols as f64), &[], f, Kind::Scalar),
            node(NodeOp::Elementwise(E::Mul), &[3, 4], f, Kind::Row),
            node(NodeOp::Const(1e-6), &[], f, Kind::Scalar),
            node(NodeOp::Elementwise(E::Add), &[5, 6], f, Kind::Row),
            node(NodeOp::Elementwise(E::Rsqrt), &[7], f, Kind::Row),
            node(NodeOp::Broadcast, &[8], f, Kind::Full),
            node(NodeOp::Elementwise(E::Mul), &[0, 9], f, Kind::Full),
            node(NodeOp::Elementwise(E::Mul), &[10, 1], t, Kind::Full),
        ],
        outputs: vec![11, 8],
        global_shape: vec![],
    }
}

/// Every elementwise kind over `[m, n]` in type `t`: inputs x, y (full) and s (a scalar);
/// one output per kind (a unary kind of x, a binary one of x and y, comparisons in `i1`,
/// `where(x < y, x, y)`, `cast` to f32 or, from f32, to bf16), then `x * s` and `x + 0.5`.
pub fn every_elementwise(t: DType, m: usize, n: usize) -> FusedGraph {
    let mut nodes = vec![
        node(NodeOp::Input(0), &[], t, Kind::Full),
        node(NodeOp::Input(1), &[], t, Kind::Full),
        node(NodeOp::Input(2), &[], t, Kind::Scalar),
        node(NodeOp::Elementwise(E::Lt), &[0, 1], DType::I1, Kind::Full),
    ];
    let mut outputs = vec![];
    for k in E::ALL {
        let (args, dtype): (Vec<usize>, DType) = match k.arity() {
            1 if k == E::Cast => (vec![0], if t == DType::F32 { DType::BF16 } else { DType::F32 }),
            1 => (vec![0], t),
            2 if matches!(k, E::Eq | E::Ne | E::Lt | E::Le | E::Gt | E::Ge) => (vec![0, 1], DType::I1),
            2 => (vec![0, 1], t),
            _ => (vec![3, 0, 1], t),
        };
        outputs.push(nodes.len());
        nodes.push(node(NodeOp::Elementwise(k), &args, dtype, Kind::Full));
    }
    outputs.push(nodes.len());
    nodes.push(node(NodeOp::Elementwise(E::Mul), &[0, 2], t, Kind::Full));
    nodes.push(node(NodeOp::Const(0.5), &[], t, Kind::Scalar));
    outputs.push(nodes.len());
    nodes.push(node(NodeOp::Elementwise(E::Add), &[0, nodes.len() - 1], t, Kind::Full));
    FusedGraph {
        domain: vec![m, n],
        inner: 0,
        inputs: vec![full(t), full(t), Input { dtype: t, kind: Kind::Scalar }],
        nodes,
        outputs,
        global_shape: vec![],
    }
}
