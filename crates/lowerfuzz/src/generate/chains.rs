//! Fusion exercises (issue 24): multi-op patterns that `host-fuse` turns into `host.fused`
//! regions, pushed as a whole ([`Generator::chain`]) so the ops stand next to each other:
//!
//! - chains of float elementwise ops (bf16, f16, f32, f64): unary math, binary ops with fresh
//!   arguments, `maximum` with a `full` (relu), casts to another float type and back, `compare`
//!   of arguments feeding `where`, bias vectors broadcast along the rows;
//! - hand-written softmax / log-softmax (`max`, broadcast, `sub`, `exp`, `sum`, broadcast,
//!   `div`) and layer / RMS norm (`mean`, `var` or the mean of squares, `rsqrt`, broadcasts,
//!   weight and bias vectors) over the trailing one or two axes;
//! - the named `layer_norm`/`rms_norm` with their statistics returned, `softmax`, followed by
//!   elementwise use; `dropout` plus a residual add; `linear`s in between;
//! - integer elementwise chains (which must stay unfused: host-fuse fuses no integer
//!   arithmetic), some ending in a cast to a float chain.
//!
//! The inputs are split on their row axes (`DIDx`, `Stream(n)`, both) most of the time and
//! anyhow the rest; intermediates are now and then returned too (a region with several
//! outputs, a value used inside and after a region: [`Generator::kept`]). Values centered by a
//! hand-written norm are marked ([`Generator::centered_ops`]) so no later sum cancels them.

use super::Generator;
use crate::program::{DType, Did, Op, OpKind, Shard, Split, TensorTy, ValueRef};

/// Float element types of a chain, with weights (f64 is never drawn elsewhere).
const FLOATS: [(DType, u32); 4] = [(DType::F32, 35), (DType::BF16, 25), (DType::F16, 20), (DType::F64, 20)];

impl Generator<'_> {
    /// Pushes one fusion pattern; pushes nothing when its values do not fit (size, splits).
    pub(super) fn chain(&mut self) {
        let (ops, args, kept, centered) =
            (self.program.ops.len(), self.program.args.len(), self.kept.len(), self.centered_ops.len());
        let made = match self.chain_pattern() {
            Some(last) => {
                // The chain's value annotated as propagation derives it (the program's last
                // value is returned; a random annotation would mostly conflict).
                if let ValueRef::Op(i) = last
                    && self.program.ops[i].result.shard.is_none()
                {
                    self.program.ops[i].result.shard = self.derived_shard(last);
                }
                true
            }
            None => false,
        };
        // Four times the usual size: a tenth of the chain inputs are large enough for the cpu
        // backend to cut a region's rows into several parallel chunks (16,384 elements each).
        let max = self.cfg.max_numel * 4;
        let fits = made
            && self.program.args[args..]
                .iter()
                .chain(self.program.ops[ops..].iter().flat_map(|o| std::iter::once(&o.result).chain(o.kind.extra())))
                .all(|t| self.shapes.shard_fits(t) && t.numel() <= max);
        if !fits {
            self.program.ops.truncate(ops);
            self.program.args.truncate(args);
            self.kept.truncate(kept);
            self.centered_ops.truncate(centered);
        }
    }

    fn chain_pattern(&mut self) -> Option<ValueRef> {
        match self.rng.weighted(&[5, 4, 4, 5, 3, 3, 2]) {
            0 => {
                let x = self.chain_input()?;
                self.elementwise_chain(x, 2, 5)
            }
            1 => {
                let x = self.chain_input()?;
                self.hand_softmax(x)
            }
            2 => {
                let x = self.chain_input()?;
                self.hand_norm_or_softmax(x)
            }
            3 => {
                let x = self.chain_input()?;
                self.named_norm_chain(x)
            }
            4 => {
                let x = self.chain_input()?;
                self.dropout_residual(x)
            }
            5 => {
                let x = self.chain_input()?;
                self.linear_chain(x)
            }
            _ => self.integer_chain(),
        }
    }

    /// A float element type for a chain: the program's (when a float) half the time.
    fn chain_dtype(&mut self) -> DType {
        if !self.dtype.is_int() && self.rng.chance(50) {
            return self.dtype;
        }
        let w: Vec<u32> = FLOATS.iter().map(|f| f.1).collect();
        FLOATS[self.rng.weighted(&w)].0
    }

    /// The chain's input: a float value of rank 2 or 3 from the pool (often the newest: a
    /// chain after a linear or a motif) or a fresh argument split on its rows.
    fn chain_input(&mut self) -> Option<ValueRef> {
        let pool: Vec<ValueRef> = self
            .values()
            .into_iter()
            .filter(|&v| {
                let t = self.program.type_of(v);
                !t.dtype.is_int() && (2..=3).contains(&t.rank()) && !self.centered(v)
            })
            .collect();
        if let Some(&last) = pool.last()
            && self.rng.chance(40)
        {
            return Some(last);
        }
        if self.rng.chance(10) {
            // Over 16,384 elements: several chunks of rows on the cpu backend.
            let cols = *self.rng.pick(&[64usize, 128, 256])?;
            let unit = self.shapes.unit;
            let rows = unit * (16_400 / (cols * unit) + 1).max(1);
            let dtype = self.chain_dtype();
            return Some(self.row_arg(vec![rows, cols], dtype));
        }
        let rank = if self.rng.chance(70) { 2 } else { 3 };
        let cols = *self.rng.pick(&[self.shapes.unit, 2 * self.shapes.unit, 8, 16, 3, 5])?;
        let mut shape = vec![self.shapes.unit * self.rng.range(1, 2)];
        if rank == 3 {
            shape.insert(0, self.small_batch());
        }
        shape.push(cols);
        let dtype = self.chain_dtype();
        let x = self.row_arg(shape, dtype);
        // A quarter of the matrices have square local pieces (each rank's, each stream chunk's
        // rows as many as the columns): a vector of the row length is then also one of the
        // column length, and only the data flow says along which axis a region reads it.
        if rank == 2
            && self.rng.chance(25)
            && let ValueRef::Arg(i) = x
        {
            let t = &self.program.args[i];
            let splits = t.shard.as_ref().map(|s| s.axes[0].clone()).unwrap_or_default();
            let parts: usize = splits
                .iter()
                .map(|s| match *s {
                    Split::Device(d) => self.shapes.did_size(d).unwrap_or(1),
                    Split::Stream(n) => self.shapes.chunk_override.unwrap_or(n),
                })
                .product();
            let local = t.shape[0] / parts.max(1);
            if local > 0 {
                self.program.args[i].shape[1] = local;
            }
        }
        Some(x)
    }

    /// A fresh argument split on its row axes (the first axis): `DIDx`, `Stream(n)`, both in
    /// either order, or replicated; sometimes any sharding ([`super::Shapes::random_shard`]).
    fn row_arg(&mut self, shape: Vec<usize>, dtype: DType) -> ValueRef {
        let shard = self.row_shard(&shape);
        self.program.args.push(TensorTy { shape, dtype, shard: Some(shard) });
        ValueRef::Arg(self.program.args.len() - 1)
    }

    fn row_shard(&mut self, shape: &[usize]) -> Shard {
        if shape.is_empty() {
            return Shard::replicated(0);
        }
        if self.rng.chance(15) {
            return self.shapes.random_shard(self.rng, shape, false);
        }
        let s = *self.shapes.streams.first().unwrap_or(&2);
        let x = Split::Device(Did::X);
        let row = match self.rng.below(5) {
            0 => vec![],
            1 => vec![x],
            2 => vec![Split::Stream(s)],
            3 => vec![Split::Stream(s), x],
            _ => vec![x, Split::Stream(s)],
        };
        let mut shard = Shard::replicated(shape.len());
        // A rank-3 value splits its second axis (the rows of each batch) as often as its first.
        let axis = if shape.len() == 3 && self.rng.chance(40) { 1 } else { 0 };
        if self.shapes.divides(shape[axis], &row) {
            shard.axes[axis] = row;
        }
        shard
    }

    /// The result sharding of a chain op: unannotated half the time (propagation decides),
    /// else the sharding propagation would give it ([`Generator::derived_shard`]: no
    /// resharding inside the chain), rarely any (a resharding the lowering refuses or lowers).
    fn chain_shard(&mut self, kind: &OpKind, operands: &[ValueRef], shape: &[usize]) -> Option<Shard> {
        match self.rng.weighted(&[50, 46, 4]) {
            0 => None,
            1 => self.derived_of(kind, operands, shape),
            _ => Some(self.shapes.random_shard(self.rng, shape, false)),
        }
    }

    /// The sharding of `v` as written, or as sharding propagation derives it along the chain
    /// (elementwise ops keep their operands', reductions over trailing axes drop those axes,
    /// row broadcasts add replicated trailing axes, a linear takes the rows of its input and
    /// the output features of its weight); `None` when nothing decides it.
    fn derived_shard(&self, v: ValueRef) -> Option<Shard> {
        let t = self.program.type_of(v);
        if let Some(s) = &t.shard {
            let mut s = s.clone();
            s.partial.clear();
            return Some(s);
        }
        let ValueRef::Op(i) = v else { return None };
        let op = &self.program.ops[i];
        self.derived_of(&op.kind, &op.operands, &op.result.shape)
    }

    fn derived_of(&self, kind: &OpKind, operands: &[ValueRef], shape: &[usize]) -> Option<Shard> {
        let rank = shape.len();
        match kind {
            OpKind::Sum { dims, keep_dims } | OpKind::Reduce { dims, keep_dims, .. } => {
                let s = self.derived_shard(operands[0])?;
                let axes = s.axes.iter().enumerate().filter_map(|(a, l)| match (dims.contains(&a), keep_dims) {
                    (false, _) => Some(l.clone()),
                    (true, true) => Some(Vec::new()),
                    (true, false) => None,
                });
                Some(Shard { axes: axes.collect(), partial: Vec::new(), reduce: Default::default() })
            }
            // The reshape of `reduce_rows`: trailing unit axes dropped.
            OpKind::Reshape => {
                let s = self.derived_shard(operands[0])?;
                let from = &self.program.type_of(operands[0]).shape;
                let unit_tail = from.len() >= rank && from[..rank] == *shape && from[rank..].iter().all(|&e| e == 1);
                unit_tail.then(|| Shard {
                    axes: s.axes[..rank].to_vec(),
                    partial: Vec::new(),
                    reduce: Default::default(),
                })
            }
            OpKind::Permute { dims } => {
                let s = self.derived_shard(operands[0])?;
                let axes = dims.iter().map(|&d| s.axes[d].clone()).collect();
                Some(Shard { axes, partial: Vec::new(), reduce: Default::default() })
            }
            OpKind::Broadcast { dims } => {
                let s = self.derived_shard(operands[0])?;
                // Only a row broadcast (new trailing axes) decides its result; a column
                // vector broadcast over the rows takes the sharding of what it is added to.
                if dims.first().is_none_or(|&d| d == 0) {
                    return None;
                }
                let mut axes = s.axes.clone();
                axes.extend(std::iter::repeat_n(Vec::new(), dims.len()));
                Some(Shard { axes, partial: Vec::new(), reduce: Default::default() })
            }
            OpKind::Linear => {
                let x = self.derived_shard(operands[0])?;
                let w = self.derived_shard(operands[1])?;
                let mut axes = x.axes[..x.axes.len() - 1].to_vec();
                axes.push(w.axes.first()?.clone());
                Some(Shard { axes, partial: Vec::new(), reduce: Default::default() })
            }
            OpKind::Full { .. } => None,
            OpKind::Dropout { .. } => self.derived_shard(operands[0]),
            _ => operands
                .iter()
                .filter(|&&o| self.program.type_of(o).rank() == rank)
                .find_map(|&o| self.derived_shard(o)),
        }
        .filter(|s| {
            // One split per device axis and one stream split at most (a linear whose rows and
            // output features are both split over DIDx derives nothing).
            let dids: Vec<&Split> = s.axes.iter().flatten().filter(|x| matches!(x, Split::Device(_))).collect();
            let distinct = dids.iter().enumerate().all(|(i, d)| !dids[..i].contains(d));
            let streams = s.axes.iter().flatten().filter(|x| matches!(x, Split::Stream(_))).count();
            s.axes.len() == rank && distinct && streams <= 1
        })
    }

    /// Pushes `kind` of `operands` with a result of `shape` and `dtype`.
    fn emit(&mut self, kind: OpKind, operands: Vec<ValueRef>, shape: Vec<usize>, dtype: DType) -> ValueRef {
        let shard = self.chain_shard(&kind, &operands, &shape);
        self.push(Op { kind, operands, result: TensorTy { shape, dtype, shard } });
        ValueRef::Op(self.program.ops.len() - 1)
    }

    /// An elementwise op of the shape and type of `x`.
    fn ew(&mut self, kind: OpKind, operands: Vec<ValueRef>) -> ValueRef {
        let t = self.program.type_of(operands[0]).clone();
        self.emit(kind, operands, t.shape, t.dtype)
    }

    /// Returns `v` from the program too (annotated like `like` when it has no sharding): a value
    /// used both inside a fused region and after it.
    fn keep(&mut self, v: ValueRef, like: ValueRef) {
        if let ValueRef::Op(i) = v
            && self.program.ops[i].result.shard.is_none()
        {
            let shape = self.program.ops[i].result.shape.clone();
            let lt = self.program.type_of(like);
            let shard = match (self.derived_shard(v), &lt.shard) {
                (Some(s), _) => s,
                (None, Some(s)) if lt.shape == shape && s.partial.is_empty() => s.clone(),
                _ => self.shapes.random_shard(self.rng, &shape, false),
            };
            self.program.ops[i].result.shard = Some(shard);
        }
        if !self.kept.contains(&v) {
            self.kept.push(v);
        }
    }

    /// A fresh argument of `x`'s shape and type, split like `x`; or split otherwise and
    /// resharded to `x`'s sharding by a `fusion.set` (a communication between chain ops), or
    /// left so (the lowering refuses the mix or reshards).
    fn arg_like(&mut self, x: ValueRef, dtype: DType) -> ValueRef {
        let t = self.program.type_of(x).clone();
        let derived = self.derived_shard(x);
        let shard = match &derived {
            Some(s) if self.rng.chance(80) => s.clone(),
            _ => self.row_shard(&t.shape),
        };
        let same = derived.as_ref() == Some(&shard);
        self.program.args.push(TensorTy { shape: t.shape.clone(), dtype, shard: Some(shard) });
        let a = ValueRef::Arg(self.program.args.len() - 1);
        match derived {
            Some(to) if !same && self.rng.chance(75) => {
                self.push(Op {
                    kind: OpKind::Set,
                    operands: vec![a],
                    result: TensorTy { shape: t.shape, dtype, shard: Some(to) },
                });
                ValueRef::Op(self.program.ops.len() - 1)
            }
            _ => a,
        }
    }

    /// A `full` of `value` in `x`'s shape and type.
    fn full_like(&mut self, x: ValueRef, value: i8) -> ValueRef {
        let t = self.program.type_of(x).clone();
        self.emit(OpKind::Full { value }, Vec::new(), t.shape, t.dtype)
    }

    /// `v` (of the rows of `x`) broadcast back over the trailing `k` axes of `x`.
    fn broadcast_rows(&mut self, v: ValueRef, x: ValueRef, k: usize) -> ValueRef {
        let t = self.program.type_of(x).clone();
        let dtype = self.program.type_of(v).dtype;
        let r = t.rank();
        self.emit(OpKind::Broadcast { dims: (r - k..r).collect() }, vec![v], t.shape, dtype)
    }

    /// A fresh vector of the trailing `k` axes of `x` broadcast over its rows (a bias).
    fn column_vector(&mut self, x: ValueRef, k: usize) -> ValueRef {
        let t = self.program.type_of(x).clone();
        let r = t.rank();
        let shape = t.shape[r - k..].to_vec();
        let mut shard = Shard::replicated(k);
        // The columns split like x's when they are (a column-parallel bias), else replicated.
        if let Some(s) = &t.shard
            && self.rng.chance(50)
        {
            shard.axes = s.axes[r - k..].to_vec();
        }
        self.program.args.push(TensorTy { shape, dtype: t.dtype, shard: Some(shard) });
        let b = ValueRef::Arg(self.program.args.len() - 1);
        self.emit(OpKind::Broadcast { dims: (0..r - k).collect() }, vec![b], t.shape, t.dtype)
    }

    /// A reduction `name` of `x` over its trailing `k` axes (no kept dims).
    fn reduce_rows(&mut self, name: &'static str, x: ValueRef, k: usize) -> ValueRef {
        let t = self.program.type_of(x).clone();
        let r = t.rank();
        let dims: Vec<usize> = (r - k..r).collect();
        let shape = t.shape[..r - k].to_vec();
        // A quarter of the time with kept unit axes, reshaped away (a reshape view between
        // the reduction and its broadcast).
        let keep_dims = self.rng.chance(25);
        let kind = match name {
            "sum" => OpKind::Sum { dims, keep_dims },
            "var" => OpKind::Reduce { name, dims, keep_dims, correction: Some(0) },
            _ => OpKind::Reduce { name, dims, keep_dims, correction: None },
        };
        if !keep_dims {
            return self.emit(kind, vec![x], shape, t.dtype);
        }
        let mut kept = shape.clone();
        kept.extend(std::iter::repeat_n(1, k));
        let v = self.emit(kind, vec![x], kept, t.dtype);
        self.emit(OpKind::Reshape, vec![v], shape, t.dtype)
    }

    /// The trailing axes a row pattern reduces: the last one, or the last two of a rank-3 value.
    /// Rarely all axes of a rank-2 value (the rows are a scalar).
    fn trailing(&mut self, x: ValueRef) -> usize {
        let rank = self.program.type_of(x).rank();
        if (rank >= 3 && self.rng.chance(30)) || (rank == 2 && self.rng.chance(10)) { 2 } else { 1 }
    }

    /// `lo..=hi` elementwise steps on `x` (see the module doc); the last value.
    fn elementwise_chain(&mut self, x: ValueRef, lo: usize, hi: usize) -> Option<ValueRef> {
        let mut cur = x;
        // Whether `cur` may be large (inputs of the overflow-prone kind, unbounded ops): exp
        // reads only bounded values.
        let mut bounded = false;
        for _ in 0..self.rng.range(lo, hi) {
            let dtype = self.program.type_of(cur).dtype;
            cur = match self.rng.below(11) {
                0 => {
                    let name = *self.rng.pick(&["tanh", "sigmoid", "erf"])?;
                    bounded = true;
                    self.ew(OpKind::Math(name), vec![cur])
                }
                1 => {
                    let op = if self.rng.chance(50) {
                        OpKind::Math("silu")
                    } else {
                        OpKind::Gelu { tanh: self.rng.chance(50) }
                    };
                    bounded = false;
                    self.ew(op, vec![cur])
                }
                2 if bounded => self.ew(OpKind::Math("exp"), vec![cur]),
                2 | 3 => {
                    let kind = self.rng.pick(&[OpKind::Add, OpKind::Sub, OpKind::Mul])?.clone();
                    let other = self.arg_like(cur, dtype);
                    bounded = false;
                    self.ew(kind, vec![cur, other])
                }
                4 | 5 => {
                    let k = self.trailing(cur);
                    let b = self.column_vector(cur, k);
                    let kind = if self.rng.chance(70) { OpKind::Add } else { OpKind::Mul };
                    bounded = false;
                    self.ew(kind, vec![cur, b])
                }
                6 => {
                    let zero = self.full_like(cur, 0);
                    if self.rng.chance(10) {
                        // A constant also returned (a fill used outside the region).
                        self.keep(zero, cur);
                    }
                    let kind = if self.rng.chance(70) { OpKind::Maximum } else { OpKind::Minimum };
                    self.ew(kind, vec![cur, zero])
                }
                7 => {
                    // To another float type and back (or on in it).
                    let to = *self.rng.pick(&[DType::F32, DType::BF16, DType::F16, DType::F64])?;
                    let to = if to == dtype { dtype.other() } else { to };
                    let shape = self.program.type_of(cur).shape.clone();
                    let c = self.emit(OpKind::Cast, vec![cur], shape.clone(), to);
                    if self.rng.chance(60) { self.emit(OpKind::Cast, vec![c], shape, dtype) } else { c }
                }
                8 => self.masked(cur)?,
                // A transposed view read by the next ops (a strided region input).
                9 if self.rng.chance(30) && self.program.type_of(cur).rank() >= 2 => {
                    let t = self.program.type_of(cur).clone();
                    let r = t.rank();
                    let mut dims: Vec<usize> = (0..r).collect();
                    dims.swap(r - 2, r - 1);
                    let shape = dims.iter().map(|&d| t.shape[d]).collect();
                    self.emit(OpKind::Permute { dims }, vec![cur], shape, t.dtype)
                }
                9 => self.ew(OpKind::Neg, vec![cur]),
                _ => {
                    // A value used inside the chain and returned.
                    if cur != x {
                        self.keep(cur, x);
                    }
                    self.ew(OpKind::Math("abs"), vec![cur])
                }
            };
        }
        Some(cur)
    }

    /// `where(compare(a, b), cur, other)` with `a`, `b` arguments (exact: the mask is exact).
    fn masked(&mut self, cur: ValueRef) -> Option<ValueRef> {
        let t = self.program.type_of(cur).clone();
        let a = self.arg_like(cur, t.dtype);
        let b = if self.rng.chance(50) { self.arg_like(cur, t.dtype) } else { self.full_like(cur, 0) };
        let predicate = *self.rng.pick(&OpKind::PREDICATES)?;
        let mask = self.emit(OpKind::Compare(predicate), vec![a, b], t.shape.clone(), DType::I1);
        let other = if self.rng.chance(50) { self.full_like(cur, 0) } else { a };
        Some(self.emit(OpKind::Where, vec![mask, cur, other], t.shape, t.dtype))
    }

    /// max, broadcast, sub, exp, sum, broadcast, div (or log and sub: log-softmax).
    fn hand_softmax(&mut self, x: ValueRef) -> Option<ValueRef> {
        if !self.well_conditioned(x) {
            return self.elementwise_chain(x, 2, 4);
        }
        let k = self.trailing(x);
        let m = self.reduce_rows("max", x, k);
        let mb = self.broadcast_rows(m, x, k);
        let d = self.ew(OpKind::Sub, vec![x, mb]);
        let e = self.ew(OpKind::Math("exp"), vec![d]);
        let s = self.reduce_rows("sum", e, k);
        let y = if self.rng.chance(30) {
            let l = self.ew(OpKind::Math("log"), vec![s]);
            let lb = self.broadcast_rows(l, x, k);
            self.ew(OpKind::Sub, vec![d, lb])
        } else {
            let sb = self.broadcast_rows(s, x, k);
            self.ew(OpKind::Div, vec![e, sb])
        };
        if self.rng.chance(25) {
            self.keep(m, m);
        }
        if self.rng.chance(20) {
            self.keep(e, x);
        }
        if self.rng.chance(40) { self.elementwise_chain(y, 1, 2) } else { Some(y) }
    }

    /// Layer norm (mean, centered values, var or mean of squares, rsqrt of var + 1) or RMS
    /// norm (mean of squares), with a weight and a bias vector now and then.
    fn hand_norm(&mut self, x: ValueRef) -> Option<ValueRef> {
        let k = self.trailing(x);
        let rms = self.rng.chance(35);
        let centered = if rms {
            x
        } else {
            let mu = self.reduce_rows("mean", x, k);
            let mub = self.broadcast_rows(mu, x, k);
            let xc = self.ew(OpKind::Sub, vec![x, mub]);
            self.mark_centered(xc);
            if self.rng.chance(20) {
                self.keep(mu, mu);
            }
            xc
        };
        let var = if !rms && self.rng.chance(50) {
            self.reduce_rows("var", x, k)
        } else {
            let sq = self.ew(OpKind::Mul, vec![centered, centered]);
            self.reduce_rows("mean", sq, k)
        };
        let one = self.full_like(var, 1);
        let v1 = self.ew(OpKind::Add, vec![var, one]);
        let r = self.ew(OpKind::Math("rsqrt"), vec![v1]);
        if self.rng.chance(25) {
            self.keep(r, r);
        }
        let rb = self.broadcast_rows(r, x, k);
        let mut y = self.ew(OpKind::Mul, vec![centered, rb]);
        if !rms {
            self.mark_centered(y);
        }
        if self.rng.chance(60) {
            let w = self.column_vector(x, k);
            y = self.ew(OpKind::Mul, vec![y, w]);
        }
        if self.rng.chance(50) {
            let b = self.column_vector(x, k);
            y = self.ew(OpKind::Add, vec![y, b]);
        }
        Some(y)
    }

    /// A hand-written norm, or with overflow-prone inputs a softmax: their short periods make
    /// rows constant (a linear of periodic weights, seed 25985 of the first chain campaign),
    /// whose variance is exactly 0 in the f64 reference but the square of a last-bit error of
    /// the mean in f32 (4e13 · 2^-24 squared: about 1e13), and `rsqrt(var + 1)` turns that
    /// into a full-scale difference (1 against 2e-7) in the unfused lowering as much as in the
    /// fused one; no relative tolerance tells that from a bug. The named norms step aside for
    /// a softmax too (`named_norm_chain`): the fused ones compute in f32 (seed 83540).
    fn hand_norm_or_softmax(&mut self, x: ValueRef) -> Option<ValueRef> {
        if self.program.big_values { self.hand_softmax(x) } else { self.hand_norm(x) }
    }

    /// Whether a softmax of `x` is well-conditioned: `exp(x - max)` turns an absolute error of
    /// `x` into a relative one, and with overflow-prone inputs an accumulated `x` (a linear of
    /// linears: 1e13) carries absolute rounding errors of 1e6 in f32 and 1e-3 in f64, so near
    /// ties at the maximum come out anywhere between 1 and 0 (seeds 253131 and 339594 of the
    /// second chain campaign, with and without host-fuse). Such values get an elementwise chain
    /// instead (its `exp` reads only bounded values).
    fn well_conditioned(&self, x: ValueRef) -> bool {
        !self.program.big_values || self.exact(x)
    }

    fn mark_centered(&mut self, v: ValueRef) {
        if let ValueRef::Op(i) = v {
            self.centered_ops.push(i);
        }
    }

    /// `layer_norm`/`rms_norm` (statistics returned half the time) or `softmax` over the
    /// trailing axes, then elementwise use.
    ///
    /// Now and then a softmax first (the region already reduces when the norm joins it), a
    /// weight computed from an argument (a row-length vector computed next to row values), and
    /// the weight also added to a row sum (one vector read along the columns and the rows:
    /// where both have one extent, only the data flow tells them apart).
    fn named_norm_chain(&mut self, x: ValueRef) -> Option<ValueRef> {
        let t = self.program.type_of(x).clone();
        let k = self.trailing(x);
        let r = t.rank();
        let dims: Vec<usize> = (r - k..r).collect();
        if !self.well_conditioned(x) {
            return self.elementwise_chain(x, 2, 4);
        }
        let x = if self.rng.chance(40) {
            let log = self.rng.chance(30);
            self.emit(OpKind::Softmax { log, dims: dims.clone() }, vec![x], t.shape.clone(), t.dtype)
        } else {
            x
        };
        let y = if self.program.big_values || self.rng.chance(25) {
            let log = self.rng.chance(40);
            self.emit(OpKind::Softmax { log, dims }, vec![x], t.shape.clone(), t.dtype)
        } else {
            let rms = self.rng.chance(40);
            let (weight, bias) = (self.rng.chance(60), !rms && self.rng.chance(50));
            let normalized = t.shape[r - k..].to_vec();
            let mut operands = vec![x];
            let mut vectors = Vec::new();
            for _ in 0..usize::from(weight) + usize::from(bias) {
                self.program.args.push(TensorTy {
                    shape: normalized.clone(),
                    dtype: t.dtype,
                    shard: Some(Shard::replicated(k)),
                });
                let a = ValueRef::Arg(self.program.args.len() - 1);
                vectors.push(a);
                let w = match self.rng.below(6) {
                    0 => self.ew(OpKind::Neg, vec![a]),
                    1 => self.ew(OpKind::Mul, vec![a, a]),
                    2 => self.ew(OpKind::Math("tanh"), vec![a]),
                    _ => a,
                };
                operands.push(w);
            }
            let stat_type = if t.dtype == DType::F64 { DType::F64 } else { DType::F32 };
            let stats: Vec<TensorTy> = if self.rng.chance(50) {
                let shape = t.shape[..r - k].to_vec();
                (0..if rms { 1 } else { 2 })
                    .map(|_| TensorTy { shape: shape.clone(), dtype: stat_type, shard: Some(self.row_shard(&shape)) })
                    .collect()
            } else {
                Vec::new()
            };
            let returned = stats.len();
            let epsilon = self.rng.chance(30);
            let kind = OpKind::Norm { rms, weight, bias, dims, epsilon, stats };
            let y = self.emit(kind, operands, t.shape.clone(), t.dtype);
            if let ValueRef::Op(i) = y {
                if !rms {
                    self.centered_ops.push(i);
                }
                for s in 1..=returned {
                    self.keep(ValueRef::Res(i, s), x);
                }
            }
            if let Some(&v) = vectors.first()
                && normalized == t.shape[..r - k]
                && self.rng.chance(40)
            {
                let s = self.reduce_rows("sum", x, k);
                let z = self.ew(OpKind::Add, vec![s, v]);
                self.keep(z, s);
            }
            y
        };
        self.elementwise_chain(y, 1, 3)
    }

    /// Dropout of a value (of a linear half the time) plus a residual.
    /// Or of softmax probabilities (attention's dropout: in the region that reduced), and now
    /// and then dropped out twice (two dropouts sharing the region's origin).
    fn dropout_residual(&mut self, x: ValueRef) -> Option<ValueRef> {
        let h = match self.rng.below(4) {
            0 | 1 => self.chain_linear(x)?,
            2 => self.hand_softmax(x)?,
            _ => x,
        };
        let h = if self.rng.chance(40) { self.elementwise_chain(h, 1, 2)? } else { h };
        let t = self.program.type_of(h).clone();
        let seed = self.scalar_arg();
        let offset = self.scalar_arg();
        let percent = *self.rng.pick(&[0u8, 10, 25, 50])?;
        let mut d = self.emit(OpKind::Dropout { percent }, vec![h, seed, offset], t.shape.clone(), t.dtype);
        if self.rng.chance(15) {
            let (seed, offset) = if self.rng.chance(50) { (seed, offset) } else { (self.scalar_arg(), offset) };
            d = self.emit(OpKind::Dropout { percent: 10 }, vec![d, seed, offset], t.shape.clone(), t.dtype);
        }
        let xt = self.program.type_of(x);
        let residual = if h != x && xt.shape == t.shape && xt.dtype == t.dtype && self.rng.chance(50) {
            x
        } else {
            self.arg_like(h, t.dtype)
        };
        if self.rng.chance(25) {
            self.keep(d, h);
        }
        Some(self.ew(OpKind::Add, vec![residual, d]))
    }

    fn scalar_arg(&mut self) -> ValueRef {
        self.program.args.push(TensorTy { shape: Vec::new(), dtype: DType::I64, shard: Some(Shard::replicated(0)) });
        ValueRef::Arg(self.program.args.len() - 1)
    }

    /// `linear(x, w)` (with a bias a third of the time), the weight replicated or split on its
    /// output features (column parallel: the result's columns split over the devices).
    fn chain_linear(&mut self, x: ValueRef) -> Option<ValueRef> {
        let t = self.program.type_of(x).clone();
        let kdim = *t.shape.last()?;
        let n = *self.rng.pick(&[self.shapes.unit, 8, 2 * self.shapes.unit])?;
        let mut w_shard = Shard::replicated(2);
        if self.rng.chance(40) {
            w_shard.axes[0].push(Split::Device(Did::X));
        }
        self.program.args.push(TensorTy { shape: vec![n, kdim], dtype: t.dtype, shard: Some(w_shard) });
        let w = ValueRef::Arg(self.program.args.len() - 1);
        let mut operands = vec![x, w];
        if self.rng.chance(33) {
            self.program.args.push(TensorTy { shape: vec![n], dtype: t.dtype, shard: Some(Shard::replicated(1)) });
            operands.push(ValueRef::Arg(self.program.args.len() - 1));
        }
        let mut shape = t.shape[..t.rank() - 1].to_vec();
        shape.push(n);
        Some(self.emit(OpKind::Linear, operands, shape, t.dtype))
    }

    /// linear, an activation chain, sometimes a second linear and a norm or softmax pattern.
    fn linear_chain(&mut self, x: ValueRef) -> Option<ValueRef> {
        let h = self.chain_linear(x)?;
        let a = self.elementwise_chain(h, 1, 3)?;
        let a = if self.rng.chance(40) { self.chain_linear(a)? } else { a };
        match self.rng.below(3) {
            0 => self.hand_norm_or_softmax(a),
            1 => self.hand_softmax(a),
            _ => Some(a),
        }
    }

    /// An integer elementwise chain (unfused by design), ending in a float chain half the time.
    fn integer_chain(&mut self) -> Option<ValueRef> {
        let dtype = *self.rng.pick(&[DType::I32, DType::I8, DType::I64])?;
        let shape = vec![self.shapes.unit * self.rng.range(1, 2), *self.rng.pick(&[8usize, self.shapes.unit, 3])?];
        let x = self.row_arg(shape, dtype);
        let mut cur = x;
        for _ in 0..self.rng.range(2, 4) {
            cur = match self.rng.below(5) {
                0 => self.ew(OpKind::Neg, vec![cur]),
                1 => self.ew(OpKind::Math("abs"), vec![cur]),
                _ => {
                    let kind = self.rng.pick(&[OpKind::Add, OpKind::Sub, OpKind::Mul, OpKind::Maximum])?.clone();
                    let other = self.arg_like(cur, dtype);
                    self.ew(kind, vec![cur, other])
                }
            };
        }
        if self.rng.chance(50) {
            let to = self.chain_dtype();
            let shape = self.program.type_of(cur).shape.clone();
            if self.rng.chance(30) {
                self.keep(cur, x);
            }
            let f = self.emit(OpKind::Cast, vec![cur], shape, to);
            return self.elementwise_chain(f, 1, 3);
        }
        Some(cur)
    }
}
