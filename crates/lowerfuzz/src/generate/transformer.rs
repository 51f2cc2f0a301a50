//! Generation of the transformer ops of issue 23: the reductions `max`/`min`/`mean`/`var`,
//! `softmax`/`log_softmax`, `layer_norm`/`rms_norm` (with their statistics results), `sdpa`,
//! `slice`/`concat`, `embedding`, `dropout` and `cross_entropy`.
//!
//! Operands come from the pool or are fresh arguments with random shardings, so device and
//! stream splits land on the axes these ops read across (a softmax axis, a norm's trailing
//! axes, a slice window, `sdpa`'s sequence or head dim) as often as on the free ones: the
//! fusion passes must either lower them (gathering, partial max/min/sum resolved) or refuse
//! them with a diagnostic; a wrong result or a panic is a finding. Integer ids and labels get
//! given input values in range ([`Program::bounds`](crate::program::Program)).

use super::Generator;
use crate::program::{DType, Did, Op, OpKind, Shard, Split, TensorTy, ValueRef};

impl Generator<'_> {
    /// A float value of rank `min_rank` or more from the pool, or a fresh argument.
    pub(super) fn float_value(&mut self, min_rank: usize) -> Option<ValueRef> {
        let fits: Vec<ValueRef> = self
            .values()
            .into_iter()
            .filter(|&v| {
                let t = self.program.type_of(v);
                !t.dtype.is_int() && t.rank() >= min_rank && !self.centered(v)
            })
            .collect();
        if let Some(&last) = fits.last()
            && last.op().is_some_and(|i| i + 1 == self.program.ops.len())
            && self.rng.chance(55)
        {
            return Some(last);
        }
        if !fits.is_empty() && self.rng.chance(70) {
            return Some(fits[self.rng.below(fits.len())]);
        }
        let rank = self.rng.range(min_rank.max(1), 3);
        let shape = self.random_shape(rank);
        let dtype = self.float_dtype();
        Some(self.arg(shape, dtype, true))
    }

    /// The program's element type if it is a float, else f32.
    pub(super) fn float_dtype(&self) -> DType {
        if self.dtype.is_int() { DType::F32 } else { self.dtype }
    }

    /// A fresh argument of `shape` and `dtype`, sharded at random (`partial` when allowed).
    pub(super) fn arg(&mut self, shape: Vec<usize>, dtype: DType, partial: bool) -> ValueRef {
        let shard = Some(self.shapes.random_shard(self.rng, &shape, partial));
        self.program.args.push(TensorTy { shape, dtype, shard });
        ValueRef::Arg(self.program.args.len() - 1)
    }

    /// A non-empty random subset of `0..rank`, sorted.
    fn some_dims(&mut self, rank: usize) -> Vec<usize> {
        let mut dims: Vec<usize> = (0..rank).filter(|_| self.rng.chance(40)).collect();
        if dims.is_empty() {
            dims.push(self.rng.below(rank));
        }
        dims
    }

    /// `fusion.max`/`min` (any element type), `mean`/`var` (floats) over some axes.
    ///
    /// With overflow-prone inputs a float max/min reads only [`Generator::exact`] values: their
    /// short periods make many elements equal in exact arithmetic (the rows of a matmul of
    /// periodic inputs), which an accumulation leaves equal or a last bit apart depending on its
    /// order. The value of the max does not care, but its gradient splits the cotangent among
    /// the elements equal to the max (torch's `amax`), so the run and the reference, rounding
    /// differently, split it among different elements (fuser-lowerfuzz seed 301668: 6 to 20 tied
    /// rows per column, rel err 0.18 in f32 and in f64); no tolerance separates that from a bug.
    pub(super) fn reduction(&mut self) -> Option<Op> {
        let name = *self.rng.pick(&["max", "min", "mean", "var"])?;
        let x = if matches!(name, "mean" | "var") { self.float_value(1)? } else { self.any_value() };
        let t = self.program.type_of(x).clone();
        if t.rank() == 0 {
            return None;
        }
        if matches!(name, "max" | "min") && !t.dtype.is_int() && self.program.big_values && !self.exact(x) {
            return None;
        }
        let dims = self.some_dims(t.rank());
        let keep_dims = self.rng.chance(40);
        let correction = if name == "var" { *self.rng.pick(&[None, Some(0), Some(1)])? } else { None };
        let shape = reduced(&t.shape, &dims, keep_dims);
        let result = self.result(shape, t.dtype, 0);
        Some(Op { kind: OpKind::Reduce { name, dims, keep_dims, correction }, operands: vec![x], result })
    }

    pub(super) fn softmax(&mut self) -> Option<Op> {
        let x = self.float_value(1)?;
        let t = self.program.type_of(x).clone();
        let dims = self.some_dims(t.rank());
        let log = self.rng.chance(40);
        let result = self.result_like(t.shape, t.dtype, 0, Some(x));
        Some(Op { kind: OpKind::Softmax { log, dims }, operands: vec![x], result })
    }

    /// `layer_norm`/`rms_norm` over the trailing one or two axes, with or without weight and
    /// bias (fresh arguments of the normalized shape), returning the statistics half the time.
    pub(super) fn norm(&mut self) -> Option<Op> {
        let x = self.float_value(1)?;
        let t = self.program.type_of(x).clone();
        let k = self.rng.range(1, t.rank().min(2));
        let rank = t.rank();
        let dims: Vec<usize> = (rank - k..rank).collect();
        let rms = self.rng.chance(40);
        let weight = self.rng.chance(60);
        let bias = !rms && self.rng.chance(50);
        let normalized = t.shape[rank - k..].to_vec();
        let mut operands = vec![x];
        if weight {
            operands.push(self.arg(normalized.clone(), t.dtype, false));
        }
        if bias {
            operands.push(self.arg(normalized.clone(), t.dtype, false));
        }
        let stat_shape = t.shape[..rank - k].to_vec();
        let stat_type = if t.dtype == DType::F64 { DType::F64 } else { DType::F32 };
        let mut stats = Vec::new();
        if self.rng.chance(50) {
            for _ in 0..if rms { 1 } else { 2 } {
                let s = self.stat_result(stat_shape.clone(), stat_type)?;
                stats.push(s);
            }
        }
        let result = self.result_like(t.shape, t.dtype, 0, Some(x));
        let epsilon = self.rng.chance(30);
        Some(Op { kind: OpKind::Norm { rms, weight, bias, dims, epsilon, stats }, operands, result })
    }

    /// A secondary result type (annotated, so it may be returned), or `None` if its sharding
    /// does not divide.
    fn stat_result(&mut self, shape: Vec<usize>, dtype: DType) -> Option<TensorTy> {
        let shard = Some(self.shapes.random_shard(self.rng, &shape, false));
        let t = TensorTy { shape, dtype, shard };
        self.shapes.shard_fits(&t).then_some(t)
    }

    /// Attention `q [B, H, S, D]`, `k`/`v [B, Hkv, Skv, D]` (grouped when `Hkv < H`), mostly
    /// with the heads split over `DIDx` (the tensor-parallel layout), else sharded at random.
    pub(super) fn sdpa(&mut self) -> Option<Op> {
        let dx = self.shapes.did_size(Did::X).unwrap_or(1);
        let dtype = self.float_dtype();
        let b = *self.rng.pick(&[1usize, 2])?;
        let hkv = dx * *self.rng.pick(&[1usize, 1, 2])?;
        let h = hkv * *self.rng.pick(&[1usize, 2])?;
        let s = *self.rng.pick(&[4usize, 8, self.shapes.unit.min(16)])?;
        let skv = if self.rng.chance(70) { s } else { *self.rng.pick(&[4usize, 8])? };
        let d = *self.rng.pick(&[4usize, 8])?;
        let heads_split = self.rng.chance(60);
        let input = |g: &mut Self, shape: Vec<usize>| {
            if heads_split {
                let mut axes = vec![Vec::new(); 4];
                axes[1].push(Split::Device(Did::X));
                if g.rng.chance(25) {
                    let n = *g.rng.pick(&g.shapes.streams.clone()).unwrap_or(&2);
                    axes[2].push(Split::Stream(n));
                }
                g.program.args.push(TensorTy {
                    shape,
                    dtype,
                    shard: Some(Shard { axes, partial: Vec::new(), reduce: Default::default() }),
                });
                ValueRef::Arg(g.program.args.len() - 1)
            } else {
                let partial = g.rng.chance(10);
                g.arg(shape, dtype, partial)
            }
        };
        let q = input(self, vec![b, h, s, d]);
        let k = input(self, vec![b, hkv, skv, d]);
        let v = input(self, vec![b, hkv, skv, d]);
        for a in [q, k, v] {
            if !self.shapes.shard_fits(self.program.type_of(a)) {
                return None;
            }
        }
        let causal = self.rng.chance(50);
        let scale = self.rng.chance(30);
        let lse = if self.rng.chance(40) { Some(self.stat_result(vec![b, h, s], DType::F32)?) } else { None };
        let result = self.result_like(vec![b, h, s, d], dtype, 0, Some(q));
        Some(Op { kind: OpKind::Sdpa { causal, scale, lse }, operands: vec![q, k, v], result })
    }

    /// A strided window of any value: each axis whole or a random offset, size and stride.
    pub(super) fn slice(&mut self) -> Option<Op> {
        let x = self.any_value();
        let t = self.program.type_of(x).clone();
        if t.rank() == 0 {
            return None;
        }
        let (mut offsets, mut sizes, mut strides) = (Vec::new(), Vec::new(), Vec::new());
        for &e in &t.shape {
            if self.rng.chance(40) {
                offsets.push(0);
                sizes.push(e);
                strides.push(1);
                continue;
            }
            let stride = *self.rng.pick(&[1usize, 1, 2])?;
            let offset = self.rng.below(e);
            let room = (e - offset).div_ceil(stride);
            offsets.push(offset);
            sizes.push(self.rng.range(1, room));
            strides.push(stride);
        }
        let strides = strides.iter().any(|&s| s != 1).then_some(strides);
        let result = self.result(sizes.clone(), t.dtype, 0);
        Some(Op { kind: OpKind::Slice { offsets, sizes, strides }, operands: vec![x], result })
    }

    /// Two or three values joined along one axis (the others fresh arguments whose extent there
    /// differs, or the same value twice).
    pub(super) fn concat(&mut self) -> Option<Op> {
        let x = self.any_value();
        let t = self.program.type_of(x).clone();
        if t.rank() == 0 {
            return None;
        }
        let dim = self.rng.below(t.rank());
        let mut operands = vec![x];
        let mut extent = t.shape[dim];
        for _ in 0..self.rng.range(1, 2) {
            if self.rng.chance(25) {
                operands.push(x);
                extent += t.shape[dim];
            } else {
                let mut shape = t.shape.clone();
                shape[dim] = self.shapes.extent(self.rng);
                extent += shape[dim];
                operands.push(self.arg(shape, t.dtype, false));
            }
        }
        let mut shape = t.shape.clone();
        shape[dim] = extent;
        let result = self.result(shape, t.dtype, 0);
        Some(Op { kind: OpKind::Concat { dim }, operands, result })
    }

    /// A `[V, E]` table (vocab-parallel half the time) gathered by in-range ids of rank 1 or 2.
    pub(super) fn embedding(&mut self) -> Option<Op> {
        let v = self.shapes.extent(self.rng).max(2);
        let e = self.shapes.extent(self.rng);
        let table_shard = if self.rng.chance(50) {
            let mut s = Shard::replicated(2);
            s.axes[0].push(Split::Device(Did::X));
            Some(s)
        } else {
            Some(self.shapes.random_shard(self.rng, &[v, e], false))
        };
        let table_t = TensorTy { shape: vec![v, e], dtype: self.dtype, shard: table_shard };
        if !self.shapes.shard_fits(&table_t) {
            return None;
        }
        self.program.args.push(table_t);
        let table = ValueRef::Arg(self.program.args.len() - 1);
        let ids_rank = self.rng.range(1, 2);
        let ids_shape = self.random_shape(ids_rank);
        let ids_type = if self.rng.chance(70) { DType::I64 } else { DType::I32 };
        let ids = self.arg(ids_shape.clone(), ids_type, false);
        self.bound(ids, v);
        let mut shape = ids_shape;
        shape.push(e);
        let result = self.result(shape, self.dtype, 20);
        Some(Op { kind: OpKind::Embedding, operands: vec![table, ids], result })
    }

    /// Dropout of a float value under whatever sharding it has, seed and offset rank-0 `i64`.
    pub(super) fn dropout(&mut self) -> Option<Op> {
        let x = self.float_value(1)?;
        let t = self.program.type_of(x).clone();
        let seed = self.scalar_i64();
        let offset = self.scalar_i64();
        let percent = *self.rng.pick(&[0u8, 10, 25, 50, 90])?;
        let result = self.result_like(t.shape, t.dtype, 0, Some(x));
        Some(Op { kind: OpKind::Dropout { percent }, operands: vec![x, seed, offset], result })
    }

    fn scalar_i64(&mut self) -> ValueRef {
        self.program.args.push(TensorTy { shape: Vec::new(), dtype: DType::I64, shard: Some(Shard::replicated(0)) });
        ValueRef::Arg(self.program.args.len() - 1)
    }

    /// Records that argument `v` takes values in `[0, bound)`.
    pub(super) fn bound(&mut self, v: ValueRef, bound: usize) {
        if let ValueRef::Arg(i) = v {
            self.program.bounds.push((i, bound as i64));
        }
    }

    /// Cross-entropy of `[N, V]` float logits (vocab-parallel half the time) against in-range
    /// `i64` labels; the loss in the logits' type or f32.
    pub(super) fn cross_entropy(&mut self) -> Option<Op> {
        let dtype = self.float_dtype();
        let logits = if self.rng.chance(50) {
            self.operand(
                |t| t.rank() == 2 && !t.dtype.is_int(),
                |g| {
                    let n = g.shapes.extent(g.rng);
                    let v = g.shapes.extent(g.rng);
                    vec![n, v]
                },
            )
        } else {
            let n = self.shapes.extent(self.rng);
            let v = self.shapes.extent(self.rng).max(2);
            let mut s = Shard::replicated(2);
            s.axes[1].push(Split::Device(Did::X));
            if self.rng.chance(30) {
                let c = *self.rng.pick(&self.shapes.streams.clone()).unwrap_or(&2);
                s.axes[0].push(Split::Stream(c));
            }
            let t = TensorTy { shape: vec![n, v], dtype, shard: Some(s) };
            if !self.shapes.shard_fits(&t) {
                return None;
            }
            self.program.args.push(t);
            ValueRef::Arg(self.program.args.len() - 1)
        };
        let t = self.program.type_of(logits).clone();
        if t.dtype.is_int() || t.rank() != 2 {
            return None;
        }
        let labels = self.arg(vec![t.shape[0]], DType::I64, false);
        self.bound(labels, t.shape[1]);
        let ignore_index = if self.rng.chance(20) { Some(0) } else { None };
        let loss_type = if self.rng.chance(25) { DType::F32 } else { t.dtype };
        let result = self.result(vec![t.shape[0]], loss_type, 0);
        Some(Op { kind: OpKind::CrossEntropy { ignore_index }, operands: vec![logits, labels], result })
    }
}

/// `shape` reduced over `dims`.
fn reduced(shape: &[usize], dims: &[usize], keep_dims: bool) -> Vec<usize> {
    (0..shape.len())
        .filter_map(|a| match (dims.contains(&a), keep_dims) {
            (false, _) => Some(shape[a]),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect()
}
