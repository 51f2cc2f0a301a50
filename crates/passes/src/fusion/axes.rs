//! Axis maps of fusion ops: for each operand axis, the result axis it becomes, or `None` when
//! the op contracts or reduces it (docs/dev/lowering.md §2). Sharding propagation copies splits
//! along these maps; loop formation in `fusion-to-host` follows stream axes through them.
//!
//! Invariant: every function here is total on verified IR and returns `None` for ops it does
//! not know (non-fusion ops), never panics on malformed IR.

use fuser_dialects::fusion::clauses::{prop_int, prop_ints};
use fuser_dialects::fusion::norm::norm_operands;
use fuser_dialects::fusion::slicing::{slice_cuts_axis, slice_strides};
use fuser_dialects::fusion::syntax::{op_dims, op_keep_dims};
use fuser_dialects::fusion::{Sharding, Split};
use fuser_dialects::reduction::ReductionKind;
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId};
use fuser_ir::types::DYNAMIC;

/// For one operand: `map[a]` is the result axis operand axis `a` becomes.
pub type AxisMap = Vec<Option<usize>>;

/// How an op relates operand axes to result axes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpAxes {
    /// One map per operand.
    pub maps: Vec<AxisMap>,
    /// Per operand, the axes the op contracts or reduces (a device split on such an axis of every
    /// operand that has one makes the result `partial`).
    pub contracted: Vec<Vec<usize>>,
    /// Per operand, the axes the op reads across and is not linear in (a softmax axis, the
    /// normalized axes of a norm, the key sequence of attention): no device or stream split may
    /// stay on them (propagation does not copy splits along them, decomposition gathers them,
    /// `fusion-to-host` refuses what is left).
    pub whole: Vec<Vec<usize>>,
    /// The pending reduction a device split of a contracted axis leaves (`max` for a max
    /// reduction; `sum` for sums, matmuls and the vocab-parallel embedding).
    pub partial_kind: ReductionKind,
    /// Per operand, whether a `partial` value may pass through the op (it is linear in that
    /// operand: `neg(a + b) = neg(a) + neg(b)`); other ops refuse partial operands.
    pub linear: Vec<bool>,
    /// Result axes no operand axis maps to that the op computes under any device split of its
    /// own (its kernel receives the result's global origin: the rows of `embedding_grad`'s
    /// table, the classes of `one_hot`). Propagation leaves them replicated; an annotated
    /// device split there is kept by `fusion-decompose-resharding` (when its device axis is
    /// free) and accepted by `fusion-to-host`.
    pub free: Vec<usize>,
    /// How the secondary results (`secondary[j - 1]` for result `j >= 1`) are laid out from
    /// result 0's layout; an op with none listed gives them result 0's splits on their leading
    /// axes, never partial (the statistics of the norms, `sdpa`'s `lse`).
    pub secondary: Vec<SecondaryAxes>,
}

/// The layout of one secondary result, from result 0's: `sdpa_grad`'s `dk`, `dv` take `dq`'s
/// batch and head splits and sum over its query sequence (a split of it leaves them partial).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SecondaryAxes {
    /// For each axis of the secondary result, the result-0 axis whose splits it takes (`None`:
    /// unsplit).
    pub from: Vec<Option<usize>>,
    /// The result-0 axes the secondary result sums over: their device splits make it a pending
    /// sum; a stream split there is not supported (the plan refuses it).
    pub partial_over: Vec<usize>,
}

impl OpAxes {
    /// Maps and contracted axes, nothing read whole, sums, linear in no operand.
    pub fn new(maps: Vec<AxisMap>, contracted: Vec<Vec<usize>>) -> OpAxes {
        let n = maps.len();
        OpAxes {
            maps,
            contracted,
            whole: vec![Vec::new(); n],
            partial_kind: ReductionKind::Sum,
            linear: vec![false; n],
            free: Vec::new(),
            secondary: Vec::new(),
        }
    }

    /// Maps only: nothing contracted or read whole, linear in no operand.
    pub fn plain(maps: Vec<AxisMap>) -> OpAxes {
        let n = maps.len();
        OpAxes::new(maps, vec![Vec::new(); n])
    }

    /// The same axes, linear in every operand.
    pub fn linear_in_all(mut self) -> OpAxes {
        self.linear = vec![true; self.maps.len()];
        self
    }

    /// The same axes, with operand `i`'s `axes` read whole.
    pub fn with_whole(mut self, i: usize, axes: Vec<usize>) -> OpAxes {
        if let Some(w) = self.whole.get_mut(i) {
            *w = axes;
        }
        self
    }

    /// The same axes, with result axes `free` computed under any device split of their own.
    pub fn with_free(mut self, free: Vec<usize>) -> OpAxes {
        self.free = free;
        self
    }

    /// The layout of secondary result `j >= 1` (of rank `rank`) when result 0 is laid out
    /// `first` (see [`OpAxes::secondary`]).
    pub fn secondary_layout(&self, j: usize, first: &Sharding, rank: usize) -> Sharding {
        let Some(s) = j.checked_sub(1).and_then(|i| self.secondary.get(i)) else {
            return Sharding {
                axes: first.axes.iter().take(rank).cloned().collect(),
                partial: Vec::new(),
                ..first.clone()
            };
        };
        let axes = (0..rank)
            .map(|a| s.from.get(a).copied().flatten().and_then(|r| first.axes.get(r)).cloned().unwrap_or_default())
            .collect();
        let mut partial = Vec::new();
        for split in s.partial_over.iter().filter_map(|&r| first.axes.get(r)).flatten() {
            if let Split::Device(d) = *split
                && !partial.contains(&d)
            {
                partial.push(d);
            }
        }
        Sharding { mesh: first.mesh.clone(), axes, partial, reduce: ReductionKind::Sum }
    }

    /// Whether secondary result `j >= 1` (of rank `rank`) is computed in the chunks of a loop
    /// streaming result 0 along axis `ax` (it has that axis; it does not sum over it).
    pub fn secondary_streams_with(&self, j: usize, ax: usize, rank: usize) -> bool {
        match j.checked_sub(1).and_then(|i| self.secondary.get(i)) {
            None => ax < rank,
            Some(s) => s.from.contains(&Some(ax)),
        }
    }

    /// Whether operand axis `a` of operand `i` is read whole.
    pub fn is_whole(&self, i: usize, a: usize) -> bool {
        self.whole.get(i).is_some_and(|w| w.contains(&a))
    }

    /// The operand axis of operand `i` that becomes result axis `r`.
    pub fn operand_axis(&self, i: usize, r: usize) -> Option<usize> {
        self.maps.get(i)?.iter().position(|&m| m == Some(r))
    }
}

fn shape(ctx: &Context, ir: &Ir, op: OpId, operand: usize) -> Option<Vec<i64>> {
    let v = *ir.operands(op).get(operand)?;
    ctx.type_kind(ir.value_type(v)).shape().map(<[i64]>::to_vec)
}

fn result_shape(ctx: &Context, ir: &Ir, op: OpId) -> Option<Vec<i64>> {
    let r = *ir.results(op).first()?;
    ctx.type_kind(ir.value_type(r)).shape().map(<[i64]>::to_vec)
}

fn identity(rank: usize) -> AxisMap {
    (0..rank).map(Some).collect()
}

/// The axis maps of a fusion op; `None` for other ops.
pub fn op_axes(ctx: &Context, ir: &Ir, op: OpId) -> Option<OpAxes> {
    let name = ctx.op_name_str(ir.op_name(op));
    let mnemonic = name.strip_prefix("fusion.")?;
    let rank = |i: usize| shape(ctx, ir, op, i).map(|s| s.len());
    let n = ir.num_operands(op);
    // Layout ops and the linear elementwise ops pass a pending sum through.
    let plain = |maps: Vec<AxisMap>| Some(OpAxes::plain(maps).linear_in_all());
    match mnemonic {
        "add" | "sub" | "neg" | "cast" | "set" => plain((0..n).map(|i| rank(i).map(identity)).collect::<Option<_>>()?),
        // Not linear in any operand: a partial operand must be reduced first.
        "mul" | "div" | "exp" | "log" | "tanh" | "erf" | "sqrt" | "rsqrt" | "sigmoid" | "abs" | "reciprocal"
        | "silu" | "gelu" | "maximum" | "minimum" | "pow" | "compare" | "where" => {
            Some(OpAxes::plain((0..n).map(|i| rank(i).map(identity)).collect::<Option<_>>()?))
        }
        // No operands: the result's sharding is its own (annotated, or replicated).
        "full" => Some(OpAxes::plain(Vec::new())),
        "matmul" => matmul_axes(rank(0)?, rank(1)?),
        "linear" => linear_axes(rank(0)?, n == 3),
        "sum" | "max" | "min" | "mean" => {
            let dims = op_dims(ctx, ir, op)?;
            let map = reduce_map(rank(0)?, &dims, op_keep_dims(ctx, ir, op));
            let contracted = dims.iter().map(|&d| d as usize).collect();
            let axes = OpAxes::new(vec![map], vec![contracted]);
            // A split max leaves a pending max; sum and mean (a sum divided by the global
            // count) a pending sum, and they pass one through. A max of a pending sum is not
            // the sum of the maxima.
            Some(match mnemonic {
                "max" => OpAxes { partial_kind: ReductionKind::Max, ..axes },
                "min" => OpAxes { partial_kind: ReductionKind::Min, ..axes },
                _ => axes.linear_in_all(),
            })
        }
        // The variance is not linear: its reduced axes are read whole (gathered), not contracted.
        "var" => {
            let dims = op_dims(ctx, ir, op)?;
            let map = reduce_map(rank(0)?, &dims, op_keep_dims(ctx, ir, op));
            Some(OpAxes::plain(vec![map]).with_whole(0, dims.iter().map(|&d| d as usize).collect()))
        }
        "softmax" | "log_softmax" => {
            let dims = op_dims(ctx, ir, op)?;
            Some(OpAxes::plain(vec![identity(rank(0)?)]).with_whole(0, dims.iter().map(|&d| d as usize).collect()))
        }
        // logits [N, V] and labels [N] → [N]; the vocabulary is read whole (gathered when it is
        // split: the loss is logsumexp over it).
        "cross_entropy" => Some(OpAxes::plain(vec![vec![Some(0), None], vec![Some(0)]]).with_whole(0, vec![1])),
        // The vocab-parallel phases: the parts contract the vocabulary (a split of it leaves a
        // pending sum); the finish reads the two parts of a row.
        "cross_entropy_parts" => Some(OpAxes::new(
            vec![vec![Some(0), None], vec![Some(0)], vec![Some(0)]],
            vec![vec![1], Vec::new(), Vec::new()],
        )),
        "cross_entropy_finish" => {
            Some(OpAxes::plain(vec![vec![Some(0), None], vec![Some(0)], vec![Some(0)]]).with_whole(0, vec![1]))
        }
        "broadcast" => {
            let dims = op_dims(ctx, ir, op)?;
            let out_rank = result_shape(ctx, ir, op)?.len();
            let kept: Vec<usize> = (0..out_rank).filter(|r| !dims.contains(&(*r as i64))).collect();
            plain(vec![(0..rank(0)?).map(|a| kept.get(a).copied()).collect()])
        }
        "permute" => {
            let dims = op_dims(ctx, ir, op)?;
            let mut map = vec![None; rank(0)?];
            for (r, &a) in dims.iter().enumerate() {
                *map.get_mut(a as usize)? = Some(r);
            }
            plain(vec![map])
        }
        "reshape" => plain(vec![reshape_map(&shape(ctx, ir, op, 0)?, &result_shape(ctx, ir, op)?)]),
        "sdpa" => (rank(0)? == 4 && rank(1)? == 4 && rank(2)? == 4).then(sdpa_axes),
        "slice" => {
            // The axes cut to a proper window are read whole (docs/dev/ops.md).
            let (global, offsets, sizes) =
                (shape(ctx, ir, op, 0)?, prop_ints(ctx, ir, op, "offsets")?, prop_ints(ctx, ir, op, "sizes")?);
            let strides = slice_strides(prop_ints(ctx, ir, op, "strides").as_deref(), global.len());
            if offsets.len() != global.len() || sizes.len() != global.len() || strides.len() != global.len() {
                return None;
            }
            let cut: Vec<usize> =
                (0..global.len()).filter(|&a| slice_cuts_axis(global[a], offsets[a], sizes[a], strides[a])).collect();
            Some(OpAxes::plain(vec![identity(global.len())]).linear_in_all().with_whole(0, cut))
        }
        "concat" => {
            let dim = usize::try_from(prop_int(ctx, ir, op, "dim")?).ok()?;
            let mut axes = OpAxes::plain((0..n).map(|i| rank(i).map(identity)).collect::<Option<_>>()?).linear_in_all();
            axes.whole = vec![vec![dim]; n];
            Some(axes)
        }
        "embedding" => {
            // Table [V, E]: V contracted (a vocab-parallel table leaves a partial sum), E the
            // last result axis; ids axes the leading ones. Linear in the table only.
            let ids = rank(1)?;
            let mut axes = OpAxes::new(vec![vec![None, Some(ids)], identity(ids)], vec![vec![0], Vec::new()]);
            axes.linear = vec![true, false];
            Some(axes)
        }
        "sdpa_grad" => (n == 6 && rank(0)? == 4 && rank(1)? == 4 && rank(2)? == 4).then(sdpa_grad_axes),
        "embedding_grad" => embedding_grad_axes(rank(0)?, rank(1)?),
        "one_hot" => {
            // labels [N...] → [N..., V]: the class axis is free (each rank writes its columns).
            let r = rank(0)?;
            Some(OpAxes::plain(vec![identity(r)]).with_free(vec![r]))
        }
        "dropout" => {
            // Linear in x (the mask is fixed by seed, offset and the global index).
            let mut axes = OpAxes::plain(vec![identity(rank(0)?), Vec::new(), Vec::new()]);
            axes.linear = vec![true, false, false];
            Some(axes)
        }
        "layer_norm" | "rms_norm" => {
            let k = op_dims(ctx, ir, op)?.len();
            let (has_weight, has_bias) = norm_operands(ctx, ir, op)?;
            norm_axes(rank(0)?, k, 1 + has_weight as usize + has_bias as usize)
        }
        _ => None,
    }
}

/// The map of a reduction of a rank-`r` operand over `dims`: reduced axes map to nothing, the
/// others to their place in the result (reduced axes kept as extents of 1 with `keep`).
fn reduce_map(r: usize, dims: &[i64], keep: bool) -> AxisMap {
    let mut map = Vec::with_capacity(r);
    let mut next = 0;
    for a in 0..r {
        if dims.contains(&(a as i64)) {
            map.push(None);
            if keep {
                next += 1;
            }
        } else {
            map.push(Some(next));
            next += 1;
        }
    }
    map
}

/// A norm over the `k` trailing axes of a rank-`r` input, with `params - 1` weight/bias
/// operands of rank `k`: every axis maps to the same result axis (the weight's and bias's to
/// the trailing ones); the normalized axes are read whole, in every operand. Not linear.
fn norm_axes(r: usize, k: usize, operands: usize) -> Option<OpAxes> {
    if k == 0 || k > r {
        return None;
    }
    let mut maps = vec![identity(r)];
    maps.extend((1..operands).map(|_| (r - k..r).map(Some).collect()));
    let mut axes = OpAxes::plain(maps).with_whole(0, (r - k..r).collect());
    for i in 1..operands {
        axes = axes.with_whole(i, (0..k).collect());
    }
    Some(axes)
}

/// `a[.., M, K] · b[K, N]` (or batched `b[.., K, N]`) → `[.., M, N]`.
fn matmul_axes(ra: usize, rb: usize) -> Option<OpAxes> {
    if ra < 2 || rb < 2 {
        return None;
    }
    let rr = ra.max(rb);
    let mut a: AxisMap = (0..ra).map(|i| Some(i + rr - ra)).collect();
    a[ra - 1] = None;
    let mut b: AxisMap = (0..rb).map(|i| Some(i + rr - rb)).collect();
    b[rb - 2] = None;
    b[rb - 1] = Some(rr - 1);
    Some(OpAxes::new(vec![a, b], vec![vec![ra - 1], vec![rb - 2]]).linear_in_all())
}

/// `q[B, H, S, D], k[B, Hkv, Skv, D], v[B, Hkv, Skv, Dv]` → `[B, H, S, Dv]` (and `lse[B, H,
/// S]`, result 0's leading axes). Batch and heads map to the result's (`Hkv` to `H`: heads split
/// over devices or streams split the query and the key/value heads alike, so a rank's query
/// heads read its own key/value heads); `S` maps to the result's; `Dv` to the result's last axis.
/// The head dimension `D` and the key sequence `Skv` are read whole (the softmax over keys is
/// not linear: no partial results), so nothing is contracted and no operand is linear.
fn sdpa_axes() -> OpAxes {
    let q = vec![Some(0), Some(1), Some(2), None];
    let k = vec![Some(0), Some(1), None, None];
    let v = vec![Some(0), Some(1), None, Some(3)];
    OpAxes::plain(vec![q, k, v]).with_whole(0, vec![3]).with_whole(1, vec![2, 3]).with_whole(2, vec![2])
}

/// `sdpa_grad(q, k, v, out, lse, dout)` → `(dq, dk, dv)`: batch and heads map as in
/// [`sdpa_axes`], and the query sequence `S` of `q`, `out`, `lse`, `dout` to `dq`'s. `dk`, `dv`
/// are secondary results taking `dq`'s batch and head splits (their `Hkv` heads split as `H`)
/// and summing over its query rows: a device split of `S` (each rank the gradient of its query
/// rows, the causal mask at their global indices) leaves them pending sums; a stream split of
/// `S` is refused by the plan (the chunks would overwrite them). The key sequence and the head
/// dimensions are read whole. Not linear in any operand (linear in `dout`, but a pending sum of
/// it would need `dq` partial too).
fn sdpa_grad_axes() -> OpAxes {
    let q = vec![Some(0), Some(1), Some(2), Some(3)];
    let kv = vec![Some(0), Some(1), None, None];
    let out = vec![Some(0), Some(1), Some(2), None];
    let lse = vec![Some(0), Some(1), Some(2)];
    let mut axes = OpAxes::plain(vec![q, kv.clone(), kv, out.clone(), lse, out])
        .with_whole(0, vec![3])
        .with_whole(1, vec![2, 3])
        .with_whole(2, vec![2, 3])
        .with_whole(3, vec![3])
        .with_whole(5, vec![3]);
    let kv_grad = SecondaryAxes { from: vec![Some(0), Some(1), None, None], partial_over: vec![2] };
    axes.secondary = vec![kv_grad.clone(), kv_grad];
    axes
}

/// `embedding_grad(ids [N...], g [N..., E])` → `[V, E]`: the token axes of both are contracted
/// (split alike over devices, they leave a pending sum), `E` maps to the result's last axis and
/// the row axis `V` is free (a vocab-parallel table gradient: each rank adds its rows). Linear
/// in `g` only.
fn embedding_grad_axes(ids: usize, g: usize) -> Option<OpAxes> {
    if g != ids + 1 {
        return None;
    }
    let mut g_map: AxisMap = vec![None; ids];
    g_map.push(Some(1));
    let mut axes = OpAxes::new(vec![vec![None; ids], g_map], vec![(0..ids).collect(), (0..ids).collect()]);
    axes.linear = vec![false, true];
    Some(axes.with_free(vec![0]))
}

/// `x[.., K], w[N, K], bias[N]` → `[.., N]`.
fn linear_axes(rx: usize, has_bias: bool) -> Option<OpAxes> {
    if rx < 1 {
        return None;
    }
    let mut x: AxisMap = identity(rx);
    x[rx - 1] = None;
    let w = vec![Some(rx - 1), None];
    let mut maps = vec![x, w];
    let mut contracted = vec![vec![rx - 1], vec![1]];
    if has_bias {
        maps.push(vec![Some(rx - 1)]);
        contracted.push(Vec::new());
    }
    Some(OpAxes::new(maps, contracted).linear_in_all())
}

/// Reshape: groups of consecutive axes with equal products; the outermost input axis of a group
/// maps to the outermost output axis of that group (size-1 axes on one side only are skipped). Dynamic extents map one to one while both
/// sides are dynamic at the same point; anything after a mismatch maps to nothing.
pub fn reshape_map(input: &[i64], output: &[i64]) -> AxisMap {
    let mut map = vec![None; input.len()];
    let (mut i, mut j) = (0, 0);
    while i < input.len() && j < output.len() {
        if input[i] == DYNAMIC || output[j] == DYNAMIC {
            if input[i] == DYNAMIC && output[j] == DYNAMIC {
                map[i] = Some(j);
                i += 1;
                j += 1;
                continue;
            }
            break;
        }
        if input[i] == 1 && output[j] != 1 {
            i += 1;
            continue;
        }
        if output[j] == 1 && input[i] != 1 {
            j += 1;
            continue;
        }
        let (i0, j0) = (i, j);
        let (mut pi, mut pj) = (input[i], output[j]);
        while pi != pj {
            if pi < pj {
                i += 1;
                match input.get(i) {
                    Some(&d) if d != DYNAMIC => pi *= d,
                    _ => return map,
                }
            } else {
                j += 1;
                match output.get(j) {
                    Some(&d) if d != DYNAMIC => pj *= d,
                    _ => return map,
                }
            }
        }
        map[i0] = Some(j0);
        i += 1;
        j += 1;
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matmul_and_linear_maps() {
        let m = matmul_axes(2, 2).unwrap();
        assert_eq!(m.maps, vec![vec![Some(0), None], vec![None, Some(1)]]);
        assert_eq!(m.contracted, vec![vec![1], vec![0]]);
        let b = matmul_axes(3, 2).unwrap();
        assert_eq!(b.maps, vec![vec![Some(0), Some(1), None], vec![None, Some(2)]]);
        let l = linear_axes(2, true).unwrap();
        assert_eq!(l.maps, vec![vec![Some(0), None], vec![Some(1), None], vec![Some(1)]]);
        assert_eq!(l.operand_axis(1, 1), Some(0));
    }

    #[test]
    fn sdpa_maps() {
        let a = sdpa_axes();
        assert_eq!(a.operand_axis(1, 1), Some(1));
        assert_eq!(a.operand_axis(2, 3), Some(3));
        assert!(a.is_whole(0, 3) && a.is_whole(1, 2) && a.is_whole(1, 3) && a.is_whole(2, 2));
        assert!(!a.is_whole(0, 2) && !a.is_whole(2, 3));
        assert!(a.contracted.iter().all(Vec::is_empty) && a.linear.iter().all(|l| !l));
    }

    #[test]
    fn gradient_op_maps() {
        let a = sdpa_grad_axes();
        assert_eq!(a.maps.len(), 6);
        assert_eq!((a.operand_axis(1, 1), a.operand_axis(4, 2), a.operand_axis(5, 3)), (Some(1), Some(2), None));
        assert!(a.is_whole(1, 2) && a.is_whole(2, 2) && a.is_whole(0, 3) && a.is_whole(5, 3));
        assert!(!a.is_whole(0, 2) && !a.is_whole(4, 2) && !a.is_whole(0, 1) && !a.is_whole(1, 0));
        assert!(a.linear.iter().all(|l| !l) && a.free.is_empty());
        // dk, dv: dq's batch and head splits; a split of dq's query sequence leaves them partial.
        let x = Split::Device(fuser_dialects::fusion::DeviceAxis::X);
        let sh = |axes: Vec<Vec<Split>>| Sharding {
            mesh: "tp".into(),
            axes,
            partial: Vec::new(),
            reduce: ReductionKind::Sum,
        };
        let heads = sh(vec![vec![], vec![x], vec![Split::Stream(2)], vec![]]);
        assert_eq!(a.secondary_layout(1, &heads, 4), sh(vec![vec![], vec![x], vec![], vec![]]));
        let seq = a.secondary_layout(2, &sh(vec![vec![], vec![], vec![x], vec![]]), 4);
        assert_eq!((seq.axes, seq.partial), (vec![vec![]; 4], vec![fuser_dialects::fusion::DeviceAxis::X]));
        assert!(a.secondary_streams_with(1, 1, 4) && !a.secondary_streams_with(1, 2, 4));
        // Other ops: the leading axes, never partial.
        let n = norm_axes(3, 1, 1).unwrap();
        let first = sh(vec![vec![x], vec![Split::Stream(2)], vec![]]);
        assert_eq!(n.secondary_layout(1, &first, 2), sh(vec![vec![x], vec![Split::Stream(2)]]));
        assert!(n.secondary_streams_with(1, 1, 2) && !n.secondary_streams_with(1, 2, 2));
        // ids [4, 8], g [4, 8, 16] → [V, 16]: tokens contracted, V free, linear in g.
        let e = embedding_grad_axes(2, 3).unwrap();
        assert_eq!(e.maps, vec![vec![None, None], vec![None, None, Some(1)]]);
        assert_eq!(e.contracted, vec![vec![0, 1], vec![0, 1]]);
        assert_eq!((e.linear.clone(), e.free.clone()), (vec![false, true], vec![0]));
        assert!(embedding_grad_axes(2, 2).is_none());
    }

    #[test]
    fn norm_maps_and_whole_axes() {
        // x [B, S, H] normalized over H, with weight and bias [H].
        let n = norm_axes(3, 1, 3).unwrap();
        assert_eq!(n.maps, vec![vec![Some(0), Some(1), Some(2)], vec![Some(2)], vec![Some(2)]]);
        assert_eq!(n.whole, vec![vec![2], vec![0], vec![0]]);
        assert!(n.contracted.iter().all(Vec::is_empty) && n.linear.iter().all(|l| !l));
        assert!(!n.is_whole(0, 1), "the sequence axis may stay split");
        // Over the two trailing axes, no weight.
        let m = norm_axes(3, 2, 1).unwrap();
        assert_eq!((m.maps.len(), m.whole.clone()), (1, vec![vec![1, 2]]));
        assert!(norm_axes(2, 0, 1).is_none() && norm_axes(2, 3, 1).is_none());
    }

    #[test]
    fn reshape_groups() {
        assert_eq!(reshape_map(&[4, 6], &[24]), vec![Some(0), None]);
        assert_eq!(reshape_map(&[24], &[4, 6]), vec![Some(0)]);
        assert_eq!(reshape_map(&[2, 3, 4], &[6, 4]), vec![Some(0), None, Some(1)]);
        assert_eq!(reshape_map(&[DYNAMIC, 4], &[DYNAMIC, 2, 2]), vec![Some(0), Some(1)]);
        assert_eq!(reshape_map(&[1, 8], &[8]), vec![None, Some(0)]);
        assert_eq!(reshape_map(&[8], &[1, 8]), vec![Some(1)]);
    }
}
