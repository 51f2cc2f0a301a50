//! Generation of the gradient ops: `sdpa_grad`, `embedding_grad` and `one_hot`.
//!
//! Each op gets the layouts its lowering supports as often as random ones, and now and then
//! one it must refuse with a diagnostic:
//! - `sdpa_grad`: heads split over `DIDx` (the tensor-parallel layout, streams on the heads
//!   too), the query sequence split over `DIDx` (context parallelism: partial `dk`/`dv`), the
//!   query sequence in stream chunks (refused: the chunks would overwrite `dk`/`dv`), or
//!   random shardings. `out` and `lse` mostly come from a `fusion.sdpa` of the same operands
//!   (an earlier one of the program, or one pushed just before), else they are fresh
//!   arguments (the op is defined for any inputs);
//! - `embedding_grad`: the table gradient's rows over `DIDx` (vocab-parallel), the tokens of the
//!   ids and the cotangent split alike (partial sums), or random shardings;
//! - `one_hot`: the class axis over `DIDx` (with stream chunks inside), or random.
//!
//! Ids and labels get input values in range ([`Program::bounds`](crate::program::Program));
//! overflow-prone programs add out-of-range ones (ignored ids, rows of zeros).

use super::Generator;
use crate::program::{DType, Did, Op, OpKind, Shard, Split, TensorTy, ValueRef};

/// The layouts of a fresh `sdpa_grad`'s inputs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum AttnLayout {
    /// Heads over `DIDx` (and maybe stream chunks of the heads) on every input.
    Heads,
    /// The query sequence of `q`/`dout` over `DIDx`; `k`, `v` heads-split or replicated.
    Sequence,
    /// The query sequence of `q` in stream chunks: a diagnostic.
    StreamedSequence,
    /// Random shardings.
    Random,
}

impl Generator<'_> {
    /// `fusion.sdpa_grad` of a forward of the program (its operands, `out` and `lse`), of a
    /// forward pushed here on fresh inputs, or of fresh inputs alone.
    pub(super) fn sdpa_grad(&mut self) -> Option<Op> {
        let forwards: Vec<usize> = (0..self.program.ops.len())
            .filter(|&i| matches!(self.program.ops[i].kind, OpKind::Sdpa { lse: Some(_), .. }))
            .collect();
        if !forwards.is_empty() && self.rng.chance(50) {
            let i = forwards[self.rng.below(forwards.len())];
            let OpKind::Sdpa { causal, scale, .. } = self.program.ops[i].kind else { return None };
            let [q, k, v] = self.program.ops[i].operands[..] else { return None };
            let (out, lse) = (ValueRef::Op(i), ValueRef::Res(i, 1));
            let out_t = self.program.type_of(out).clone();
            let dout = self.cotangent(&out_t, q);
            return self.sdpa_grad_op(causal, scale, [q, k, v, out, lse, dout]);
        }
        let dx = self.shapes.did_size(Did::X).unwrap_or(1);
        let dtype = self.float_dtype();
        let b = *self.rng.pick(&[1usize, 2])?;
        let hkv = dx * *self.rng.pick(&[1usize, 1, 2])?;
        let h = hkv * *self.rng.pick(&[1usize, 2])?;
        let s = *self.rng.pick(&[4usize, 8, self.shapes.unit.min(16)])?;
        let skv = if self.rng.chance(70) { s } else { *self.rng.pick(&[4usize, 8])? };
        let d = *self.rng.pick(&[4usize, 8])?;
        let layout = [AttnLayout::Heads, AttnLayout::Sequence, AttnLayout::StreamedSequence, AttnLayout::Random]
            [self.rng.weighted(&[35, 25, 10, 30])];
        let kv_heads_split = self.rng.chance(50);
        let stream = *self.rng.pick(&self.shapes.streams.clone()).unwrap_or(&2);
        let heads_stream = self.rng.chance(25);
        let input = |g: &mut Self, shape: Vec<usize>, query_side: bool| -> ValueRef {
            let mut axes: Vec<Vec<Split>> = vec![Vec::new(); shape.len()];
            match layout {
                AttnLayout::Random => {
                    let partial = g.rng.chance(10);
                    return g.arg(shape, dtype, partial);
                }
                AttnLayout::Heads => {
                    axes[1].push(Split::Device(Did::X));
                    if heads_stream {
                        axes[1].insert(0, Split::Stream(stream));
                    }
                }
                AttnLayout::Sequence if query_side => axes[2].push(Split::Device(Did::X)),
                AttnLayout::StreamedSequence if query_side => {
                    axes[1].push(Split::Device(Did::X));
                    axes[2].push(Split::Stream(stream));
                }
                _ if kv_heads_split => axes[1].push(Split::Device(Did::X)),
                _ => {}
            }
            let shard = Shard { axes, partial: Vec::new(), reduce: Default::default() };
            g.program.args.push(TensorTy { shape, dtype, shard: Some(shard) });
            ValueRef::Arg(g.program.args.len() - 1)
        };
        let q = input(self, vec![b, h, s, d], true);
        let k = input(self, vec![b, hkv, skv, d], false);
        let v = input(self, vec![b, hkv, skv, d], false);
        let dout = input(self, vec![b, h, s, d], true);
        if [q, k, v, dout].iter().any(|&a| !self.shapes.shard_fits(self.program.type_of(a))) {
            return None;
        }
        let causal = self.rng.chance(50);
        let scale = self.rng.chance(30);
        let lse_type = if dtype == DType::F64 { DType::F64 } else { DType::F32 };
        if self.rng.chance(25) {
            // Inputs that no forward computed: any values of the right types.
            let out = self.arg(vec![b, h, s, d], dtype, false);
            let lse = self.arg(vec![b, h, s], lse_type, false);
            return self.sdpa_grad_op(causal, scale, [q, k, v, out, lse, dout]);
        }
        // The forward, pushed only once the gradient is known to fit (a dropped op would leave
        // the forward reading arguments that `op` removes); the gradient reads its results.
        let out_t = self.result_like(vec![b, h, s, d], dtype, 0, Some(q));
        let lse_t = self.like_prefix(q, vec![b, h, s], lse_type);
        let i = self.program.ops.len();
        let grad = self.sdpa_grad_op(causal, scale, [q, k, v, ValueRef::Op(i), ValueRef::Res(i, 1), dout])?;
        let fits = |g: &Self, t: &TensorTy| t.numel() <= g.cfg.max_numel && g.shapes.shard_fits(t);
        if ![&out_t, &lse_t, &grad.result].into_iter().all(|t| fits(self, t))
            || !self.program.args.iter().all(|t| t.numel() <= self.cfg.max_numel)
        {
            return None;
        }
        let forward =
            Op { kind: OpKind::Sdpa { causal, scale, lse: Some(lse_t) }, operands: vec![q, k, v], result: out_t };
        self.push(forward);
        Some(grad)
    }

    /// The gradient op on `[q, k, v, out, lse, dout]`: `dq` like `q` (or random), `dk` and `dv`
    /// like `k` and `v`, random, or `partial` over `DIDx` when `q`'s query sequence is split
    /// over it (what context parallelism makes).
    fn sdpa_grad_op(&mut self, causal: bool, scale: bool, operands: [ValueRef; 6]) -> Option<Op> {
        let [q, k, v, ..] = operands;
        let qt = self.program.type_of(q).clone();
        let result = match self.rng.weighted(&[60, 40]) {
            0 => TensorTy { shard: Some(Self::without_partial(qt.shard.clone(), qt.rank())), ..qt },
            _ => self.result(qt.shape.clone(), qt.dtype, 0),
        };
        // Declared `partial` only where the query sequence is split over DIDx (elsewhere the
        // full sums would have to be resharded into a partial value: refused, uninteresting).
        let seq_over_x = qt.shard.as_ref().is_some_and(|s| s.axes[2].contains(&Split::Device(Did::X)));
        let mut grads = Vec::new();
        for x in [k, v] {
            let t = self.program.type_of(x).clone();
            let shard = match self.rng.weighted(&[60, 10, 30]) {
                1 if seq_over_x => {
                    let mut s = Shard::replicated(t.rank());
                    s.partial.push(Did::X);
                    Some(s)
                }
                2 => Some(self.shapes.random_shard(self.rng, &t.shape, false)),
                _ => Some(Self::without_partial(t.shard.clone(), t.rank())),
            };
            let g = TensorTy { shape: t.shape, dtype: t.dtype, shard };
            if !self.shapes.shard_fits(&g) {
                return None;
            }
            grads.push(g);
        }
        Some(Op { kind: OpKind::SdpaGrad { causal, scale, grads }, operands: operands.to_vec(), result })
    }

    /// `s` without its `partial` (replicated when absent).
    fn without_partial(s: Option<Shard>, rank: usize) -> Shard {
        let mut s = s.unwrap_or_else(|| Shard::replicated(rank));
        s.partial.clear();
        s
    }

    /// A cotangent of type `like` (shape and element type): the value itself or another of the
    /// pool now and then, else a fresh argument sharded like `shard_of` or at random.
    fn cotangent(&mut self, like: &TensorTy, shard_of: ValueRef) -> ValueRef {
        let fits: Vec<ValueRef> = self
            .values()
            .into_iter()
            .filter(|&v| {
                let t = self.program.type_of(v);
                t.shape == like.shape && t.dtype == like.dtype
            })
            .collect();
        if !fits.is_empty() && self.rng.chance(20) {
            return fits[self.rng.below(fits.len())];
        }
        let from = self.program.type_of(shard_of).clone();
        if from.shape == like.shape && self.rng.chance(60) {
            let mut shard = from.shard.unwrap_or_else(|| Shard::replicated(like.rank()));
            shard.partial.clear();
            self.program.args.push(TensorTy { shape: like.shape.clone(), dtype: like.dtype, shard: Some(shard) });
            return ValueRef::Arg(self.program.args.len() - 1);
        }
        self.arg(like.shape.clone(), like.dtype, false)
    }

    /// A result type of `shape` (a prefix of `x`'s) sharded like `x` on those axes half the time,
    /// else at random; replicated when that does not divide.
    fn like_prefix(&mut self, x: ValueRef, shape: Vec<usize>, dtype: DType) -> TensorTy {
        let rank = shape.len();
        let shard = match self.program.type_of(x).shard.clone() {
            Some(s) if self.rng.chance(50) => {
                Shard { axes: s.axes[..rank].to_vec(), partial: Vec::new(), reduce: s.reduce }
            }
            _ => self.shapes.random_shard(self.rng, &shape, false),
        };
        let t = TensorTy { shape, dtype, shard: Some(shard) };
        if self.shapes.shard_fits(&t) { t } else { TensorTy { shard: Some(Shard::replicated(rank)), ..t } }
    }

    /// `fusion.embedding_grad ids, g num_rows = V`: `g` from the pool (a float value of rank 2
    /// or 3: the ids take its leading axes) or fresh; the ids split like `g`'s leading axes,
    /// at random or replicated; the result vocab-parallel half the time.
    pub(super) fn embedding_grad(&mut self) -> Option<Op> {
        let g = if self.rng.chance(40) {
            self.float_value(2)?
        } else {
            let rank = self.rng.range(2, 3);
            let shape = self.random_shape(rank);
            let dtype = self.float_dtype();
            let mut s = Shard::replicated(rank);
            if self.rng.chance(50) {
                // The tokens over DIDx (partial sums), in stream chunks now and then.
                s.axes[0].push(Split::Device(Did::X));
                if self.rng.chance(25) {
                    let n = *self.rng.pick(&self.shapes.streams.clone()).unwrap_or(&2);
                    s.axes[rank - 2].insert(0, Split::Stream(n));
                }
                let t = TensorTy { shape: shape.clone(), dtype, shard: Some(s) };
                if self.shapes.shard_fits(&t) {
                    self.program.args.push(t);
                    ValueRef::Arg(self.program.args.len() - 1)
                } else {
                    self.arg(shape, dtype, true)
                }
            } else {
                self.arg(shape, dtype, true)
            }
        };
        let gt = self.program.type_of(g).clone();
        if gt.dtype.is_int() || !(2..=3).contains(&gt.rank()) {
            return None;
        }
        let ids_shape = gt.shape[..gt.rank() - 1].to_vec();
        let ids_type = if self.rng.chance(70) { DType::I64 } else { DType::I32 };
        let ids = match self.rng.below(3) {
            0 => {
                let mut s = gt.shard.clone().unwrap_or_else(|| Shard::replicated(gt.rank()));
                s.axes.truncate(ids_shape.len());
                s.partial.clear();
                self.program.args.push(TensorTy { shape: ids_shape.clone(), dtype: ids_type, shard: Some(s) });
                ValueRef::Arg(self.program.args.len() - 1)
            }
            1 => self.arg(ids_shape.clone(), ids_type, false),
            _ => {
                let s = Shard::replicated(ids_shape.len());
                self.program.args.push(TensorTy { shape: ids_shape.clone(), dtype: ids_type, shard: Some(s) });
                ValueRef::Arg(self.program.args.len() - 1)
            }
        };
        let num_rows = self.shapes.extent(self.rng).max(2);
        self.bound(ids, num_rows);
        let e = *gt.shape.last()?;
        let shape = vec![num_rows, e];
        let result = if self.rng.chance(45) {
            let mut s = Shard::replicated(2);
            s.axes[0].push(Split::Device(Did::X));
            if self.rng.chance(20) {
                let n = *self.rng.pick(&self.shapes.streams.clone()).unwrap_or(&2);
                s.axes[0].push(Split::Stream(n));
            }
            TensorTy { shape, dtype: gt.dtype, shard: Some(s) }
        } else {
            self.result(shape, gt.dtype, 15)
        };
        Some(Op { kind: OpKind::EmbeddingGrad { num_rows }, operands: vec![ids, g], result })
    }

    /// `fusion.one_hot labels num_classes = V` of fresh labels (rank 1 or 2, sharded at random),
    /// the class axis over `DIDx` (stream chunks inside now and then) half the time.
    pub(super) fn one_hot(&mut self) -> Option<Op> {
        let rank = if self.rng.chance(65) { 1 } else { 2 };
        let labels_shape = self.random_shape(rank);
        let labels_type = if self.rng.chance(70) { DType::I64 } else { DType::I32 };
        let num_classes = self.shapes.extent(self.rng).max(2);
        let mut shape = labels_shape.clone();
        shape.push(num_classes);
        let dtype = self.float_dtype();
        let result = if self.rng.chance(50) {
            let mut s = Shard::replicated(shape.len());
            s.axes[rank].push(Split::Device(Did::X));
            if self.rng.chance(25) {
                let n = *self.rng.pick(&self.shapes.streams.clone()).unwrap_or(&2);
                s.axes[rank].push(Split::Stream(n));
            }
            TensorTy { shape, dtype, shard: Some(s) }
        } else {
            self.result(shape, dtype, 0)
        };
        // The labels split like the result's leading axes (local), replicated, or at random
        // (their splits then differ from the result's: gathered, or a diagnostic).
        let labels = match self.rng.weighted(&[45, 25, 30]) {
            0 => {
                let mut s = Self::without_partial(result.shard.clone(), rank + 1);
                s.axes.truncate(rank);
                self.program.args.push(TensorTy { shape: labels_shape, dtype: labels_type, shard: Some(s) });
                ValueRef::Arg(self.program.args.len() - 1)
            }
            1 => {
                let s = Some(Shard::replicated(rank));
                self.program.args.push(TensorTy { shape: labels_shape, dtype: labels_type, shard: s });
                ValueRef::Arg(self.program.args.len() - 1)
            }
            _ => self.arg(labels_shape, labels_type, false),
        };
        self.bound(labels, num_classes);
        Some(Op { kind: OpKind::OneHot { num_classes }, operands: vec![labels], result })
    }
}
