//! Evaluation of a fused region's graph on dense row-major values (the cpu backend's fused
//! loops): the rows of the domain are cut into chunks evaluated in parallel (rayon); within a
//! chunk every node is computed over the chunk's rows only, so no node is ever materialized
//! for the whole domain. Values are `f64`; every node's result is rounded to its element type
//! (`dtype::round_to`), the float functions are `numerics::float_elementwise`'s, a reduction
//! accumulates in `f64` in row order, and dropout draws `ops::lookup::dropout_keeps` at the
//! element's global index, so a fused region computes what its unfused ops compute, up to the
//! rounding of the expanded norms and softmax (computed in the compute type, rounded once).

use super::graph::{FusedGraph, Kind, NodeOp, ReduceOp};
use crate::dtype::{DType, round_to};
use crate::numerics::{float_elementwise, fmax, fmin};
use crate::ops::Dense;
use crate::ops::lookup::{dropout_keeps, dropout_scale};
use rayon::prelude::*;

/// Rows per parallel chunk: about this many elements.
const CHUNK_ELEMENTS: usize = 1 << 14;

/// The values of a node over a chunk of rows: `Full` is rows x cols, `Row` rows, `Col` cols,
/// `Scalar` one value.
struct Chunk {
    rows: usize,
    cols: usize,
}

impl Chunk {
    fn len(&self, kind: Kind) -> usize {
        match kind {
            Kind::Full => self.rows * self.cols,
            Kind::Row => self.rows,
            Kind::Col => self.cols,
            Kind::Scalar => 1,
        }
    }

    /// The position in a value of `kind` of element (`r`, `c`) of the chunk.
    #[inline]
    fn at(&self, kind: Kind, r: usize, c: usize) -> usize {
        match kind {
            Kind::Full => r * self.cols + c,
            Kind::Row => r,
            Kind::Col => c,
            Kind::Scalar => 0,
        }
    }
}

/// Evaluates `graph` on `inputs` (dense, in the graph's input order, shaped by their kinds);
/// `origin`: the global coordinates of the domain's first element (dropout). Returns the
/// outputs, dense and rounded to their nodes' types.
pub fn evaluate(graph: &FusedGraph, inputs: &[Dense], origin: &[usize]) -> Result<Vec<Vec<f64>>, String> {
    graph.validate()?;
    if inputs.len() != graph.inputs.len() {
        return Err(format!("{} inputs for a region of {}", inputs.len(), graph.inputs.len()));
    }
    for (i, (d, want)) in inputs.iter().zip(&graph.inputs).enumerate() {
        if d.shape != graph.shape_of(want.kind) {
            return Err(format!(
                "input {i} has shape {:?}, the region expects {:?}",
                d.shape,
                graph.shape_of(want.kind)
            ));
        }
    }
    let has_dropout = graph.nodes.iter().any(|n| matches!(n.op, NodeOp::Dropout { .. }));
    if has_dropout && origin.len() != graph.domain.len() {
        return Err(format!("a region with dropout needs an origin of rank {}", graph.domain.len()));
    }
    let (rows, cols) = graph.rows_cols();
    let values: Vec<Vec<f64>> = inputs.iter().map(|d| d.floats()).collect();
    let ints: Vec<Option<Vec<i64>>> =
        inputs.iter().map(|d| if d.dtype.is_int() { Some(d.ints()) } else { None }).collect();
    let per_chunk = (CHUNK_ELEMENTS / cols.max(1)).max(1);
    let starts: Vec<usize> = (0..rows).step_by(per_chunk).collect();
    let pieces: Vec<Vec<Vec<f64>>> = starts
        .par_iter()
        .map(|&r0| {
            let r1 = (r0 + per_chunk).min(rows);
            eval_chunk(graph, &values, &ints, r0, r1, cols, origin)
        })
        .collect::<Result<_, String>>()?;
    let mut outs: Vec<Vec<f64>> = graph
        .outputs
        .iter()
        .map(|&o| Vec::with_capacity(graph.shape_of(graph.nodes[o].kind).iter().product()))
        .collect();
    for piece in pieces {
        for (out, p) in outs.iter_mut().zip(piece) {
            out.extend(p);
        }
    }
    Ok(outs)
}

fn eval_chunk(
    graph: &FusedGraph,
    inputs: &[Vec<f64>],
    ints: &[Option<Vec<i64>>],
    r0: usize,
    r1: usize,
    cols: usize,
    origin: &[usize],
) -> Result<Vec<Vec<f64>>, String> {
    let ch = Chunk { rows: r1 - r0, cols };
    let mut vals: Vec<Vec<f64>> = Vec::with_capacity(graph.nodes.len());
    for n in &graph.nodes {
        let len = ch.len(n.kind);
        let arg = |i: usize| (&vals[n.args[i]], graph.nodes[n.args[i]].kind);
        let v: Vec<f64> = match n.op {
            NodeOp::Input(i) => {
                let src = &inputs[i];
                match n.kind {
                    Kind::Full => src[r0 * cols..r1 * cols].to_vec(),
                    Kind::Row => src[r0..r1].to_vec(),
                    Kind::Col | Kind::Scalar => src.clone(),
                }
            }
            NodeOp::Const(c) => vec![round_to(n.dtype, c)],
            NodeOp::Elementwise(kind) => {
                let args: Vec<(&Vec<f64>, Kind)> = (0..n.args.len()).map(arg).collect();
                let get = |a: usize, r: usize, c: usize| args.get(a).map_or(0.0, |(v, k)| v[ch.at(*k, r, c)]);
                let mut out = Vec::with_capacity(len);
                let (nr, nc) = match n.kind {
                    Kind::Full => (ch.rows, cols),
                    Kind::Row => (ch.rows, 1),
                    Kind::Col => (1, cols),
                    Kind::Scalar => (1, 1),
                };
                for r in 0..nr {
                    for c in 0..nc {
                        let y = float_elementwise(kind, get(0, r, c), get(1, r, c), get(2, r, c));
                        out.push(store(n.dtype, y));
                    }
                }
                out
            }
            NodeOp::Broadcast => {
                let (v, k) = arg(0);
                let (nr, nc) = if n.kind == Kind::Full { (ch.rows, cols) } else { (ch.rows, 1) };
                (0..nr).flat_map(|r| (0..nc).map(move |c| (r, c))).map(|(r, c)| v[ch.at(k, r, c)]).collect()
            }
            NodeOp::Reduce(op) => {
                let (x, _) = arg(0);
                x.chunks(cols.max(1))
                    .take(ch.rows)
                    .map(|row| {
                        let r = match op {
                            ReduceOp::Sum => row.iter().sum(),
                            ReduceOp::Max => row.iter().copied().fold(f64::NEG_INFINITY, fmax),
                            ReduceOp::Min => row.iter().copied().fold(f64::INFINITY, fmin),
                        };
                        round_to(n.dtype, r)
                    })
                    .collect()
            }
            NodeOp::Dropout { p } => {
                let (x, _) = arg(0);
                let scalar_int = |a: usize| -> i64 {
                    match graph.nodes[n.args[a]].op {
                        NodeOp::Input(i) => ints[i].as_ref().map_or(vals[n.args[a]][0] as i64, |v| v[0]),
                        _ => vals[n.args[a]][0] as i64,
                    }
                };
                let (seed, offset) = (scalar_int(1), scalar_int(2));
                let scale = dropout_scale(p);
                let first = r0 * cols;
                x.iter()
                    .enumerate()
                    .map(|(e, &v)| {
                        let g = global_index(first + e, &graph.domain, origin, &graph.global_shape);
                        round_to(n.dtype, if dropout_keeps(seed, offset, g, p) { v * scale } else { 0.0 })
                    })
                    .collect()
            }
        };
        debug_assert_eq!(v.len(), len);
        vals.push(v);
    }
    Ok(graph
        .outputs
        .iter()
        .map(|&o| {
            if graph.nodes[o].kind == Kind::Full || graph.nodes[o].kind == Kind::Row {
                vals[o].clone()
            } else {
                Vec::new()
            }
        })
        .collect())
}

/// A node's value stored in its type: `i1` stores `x != 0` (NaN gives 1), floats round.
#[inline]
fn store(dtype: DType, v: f64) -> f64 {
    if dtype == DType::I1 { (v != 0.0) as u8 as f64 } else { round_to(dtype, v) }
}

/// The row-major index in `global` of the element at row-major position `local` of a piece of
/// shape `domain` whose first element is at `origin`.
pub fn global_index(local: usize, domain: &[usize], origin: &[usize], global: &[usize]) -> u64 {
    let mut rest = local;
    let mut coords = vec![0usize; domain.len()];
    for d in (0..domain.len()).rev() {
        let n = domain[d].max(1);
        coords[d] = rest % n;
        rest /= n;
    }
    let mut g: u64 = 0;
    for d in 0..domain.len() {
        g = g * global[d] as u64 + (coords[d] + origin[d]) as u64;
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fused::graph::{Input, Node};
    use fuser_dialects::host::ElementwiseKind as E;

    fn node(op: NodeOp, args: &[usize], dtype: DType, kind: Kind) -> Node {
        Node { op, args: args.to_vec(), dtype, kind }
    }

    /// softmax over rows of 3, by hand: max, x - max, exp, sum, divide.
    #[test]
    fn a_softmax_graph_matches_the_formula() {
        let g = FusedGraph {
            domain: vec![2, 3],
            inner: 1,
            inputs: vec![Input { dtype: DType::F64, kind: Kind::Full }],
            nodes: vec![
                node(NodeOp::Input(0), &[], DType::F64, Kind::Full),
                node(NodeOp::Reduce(ReduceOp::Max), &[0], DType::F64, Kind::Row),
                node(NodeOp::Elementwise(E::Sub), &[0, 1], DType::F64, Kind::Full),
                node(NodeOp::Elementwise(E::Exp), &[2], DType::F64, Kind::Full),
                node(NodeOp::Reduce(ReduceOp::Sum), &[3], DType::F64, Kind::Row),
                node(NodeOp::Elementwise(E::Div), &[3, 4], DType::F64, Kind::Full),
            ],
            outputs: vec![5, 1],
            global_shape: vec![],
        };
        let x = Dense::from_f64(DType::F64, vec![2, 3], vec![1.0, 2.0, 3.0, 0.0, 0.0, f64::NEG_INFINITY]);
        let out = evaluate(&g, &[x], &[]).unwrap();
        let e: Vec<f64> = [-2.0f64, -1.0, 0.0].iter().map(|v| v.exp()).collect();
        let s: f64 = e.iter().sum();
        assert!((out[0][0] - e[0] / s).abs() < 1e-15 && (out[0][2] - e[2] / s).abs() < 1e-15);
        assert_eq!(&out[0][3..], &[0.5, 0.5, 0.0]);
        assert_eq!(out[1], vec![3.0, 0.0]);
    }

    /// Many rows (several parallel chunks), a column weight, bf16 rounding of every node.
    #[test]
    fn chunks_and_rounding_agree_with_a_direct_loop() {
        let (rows, cols) = (3000, 7);
        let g = FusedGraph {
            domain: vec![rows, cols],
            inner: 1,
            inputs: vec![Input { dtype: DType::BF16, kind: Kind::Full }, Input { dtype: DType::BF16, kind: Kind::Col }],
            nodes: vec![
                node(NodeOp::Input(0), &[], DType::BF16, Kind::Full),
                node(NodeOp::Input(1), &[], DType::BF16, Kind::Col),
                node(NodeOp::Elementwise(E::Mul), &[0, 1], DType::BF16, Kind::Full),
                node(NodeOp::Reduce(ReduceOp::Sum), &[2], DType::F32, Kind::Row),
            ],
            outputs: vec![2, 3],
            global_shape: vec![],
        };
        let xs: Vec<f64> = (0..rows * cols).map(|i| round_to(DType::BF16, (i % 97) as f64 * 0.37)).collect();
        let ws: Vec<f64> = (0..cols).map(|i| round_to(DType::BF16, 1.0 + i as f64 * 0.11)).collect();
        let out = evaluate(
            &g,
            &[
                Dense::from_f64(DType::BF16, vec![rows, cols], xs.clone()),
                Dense::from_f64(DType::BF16, vec![cols], ws.clone()),
            ],
            &[],
        )
        .unwrap();
        for r in [0, 1, 2345, rows - 1] {
            let prods: Vec<f64> = (0..cols).map(|c| round_to(DType::BF16, xs[r * cols + c] * ws[c])).collect();
            assert_eq!(&out[0][r * cols..(r + 1) * cols], &prods[..]);
            assert_eq!(out[1][r], round_to(DType::F32, prods.iter().sum()));
        }
    }

    #[test]
    fn dropout_uses_the_global_index() {
        assert_eq!(global_index(5, &[2, 3], &[1, 0], &[4, 3]), 8);
        let g = FusedGraph {
            domain: vec![2, 3],
            inner: 0,
            inputs: vec![
                Input { dtype: DType::F32, kind: Kind::Full },
                Input { dtype: DType::I64, kind: Kind::Scalar },
                Input { dtype: DType::I64, kind: Kind::Scalar },
            ],
            nodes: vec![
                node(NodeOp::Input(0), &[], DType::F32, Kind::Full),
                node(NodeOp::Input(1), &[], DType::I64, Kind::Scalar),
                node(NodeOp::Input(2), &[], DType::I64, Kind::Scalar),
                node(NodeOp::Dropout { p: 0.5 }, &[0, 1, 2], DType::F32, Kind::Full),
            ],
            outputs: vec![3],
            global_shape: vec![4, 3],
        };
        let x = Dense::from_f64(DType::F32, vec![2, 3], vec![1.0; 6]);
        let seed = Dense::from_i64(DType::I64, vec![], vec![7]);
        let off = Dense::from_i64(DType::I64, vec![], vec![3]);
        let out = evaluate(&g, &[x, seed, off], &[1, 0]).unwrap();
        for (e, &v) in out[0].iter().enumerate() {
            let keep = dropout_keeps(7, 3, 3 + e as u64, 0.5);
            assert_eq!(v, if keep { 2.0 } else { 0.0 });
        }
    }
}
