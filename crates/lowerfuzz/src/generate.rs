//! Random valid fusion programs. A program is a chain of 1..=`max_ops` tensor ops over a pool
//! of values (arguments and earlier results): each op picks its operands from the pool (most
//! often the newest value, so ops form chains) or from fresh arguments of the right shape.
//!
//! What the fusion verifier requires, and how the generator keeps it:
//! - result shapes and element types are inferred per op exactly as the dialect documents
//!   them ([`crate::program::OpKind`]); binary ops get operands of one shape and type;
//! - every split divides its axis: [`Shapes`] draws extents as multiples of a unit
//!   (`devices · lcm(stream chunks)`) or small odd extents, and [`Shapes::divides`] checks
//!   each split list, also against the chunk count the pipeline will force;
//! - a device axis appears at most once per sharding (split or `partial`).
//!
//! What it varies on purpose: meshes of 1..=8 devices (some 2-D, which the lowering rejects),
//! shardings of every kind on arguments (replicated, `DIDx`/`DIDy` on any axis, `Stream(n)`,
//! both in either order, `partial` with each reduction), annotated and unannotated results,
//! `fusion.set` between arbitrary shardings, `fusion.sum dims = []` of partial values,
//! element types f32, bf16, f16, i8, i32 and i64 with casts between any two of them, inputs
//! that are small seeded values or (`Program::big_values`) overflow-prone ones (type limits,
//! halves, zero, f16-overflowing magnitudes: wrapping, truncating division and casts,
//! saturation, infinities), and several returned values, some of them intermediates that later
//! ops also use. A float -> integer cast reads only values the run computes exactly as the
//! reference does (no float contraction, sum, partial value or math function before it: a
//! last-bit difference there could truncate to another integer, which the exact integer check
//! would report); so do `compare` (an exact `i1` result), `pow` and the math functions that
//! jump at 0 (`log`, `sqrt`, `rsqrt`, `reciprocal`). `i1` masks are read only by `where`.

mod chains;
mod grad;
mod transformer;

use crate::pipeline::Pipeline;
use crate::program::{DType, Did, Op, OpKind, Program, Reduce, Shard, Split, TensorTy, ValueRef};
use crate::rng::Rng;

/// Size limits of generated programs.
#[derive(Clone, Copy, Debug)]
pub struct GenConfig {
    pub max_ops: usize,
    pub max_devices: usize,
    /// Percentage of programs on a 2-D mesh.
    pub two_d_percent: u32,
    /// Largest element count of one tensor (four times this in fusion patterns).
    pub max_numel: usize,
    /// Forces `host-fuse` on or off in every pipeline (`None`: random, 3 in 4 on).
    pub fuse: Option<bool>,
    /// Which cases check the program's backward (`@fuzz_vjp` of `fusion-autodiff`) instead
    /// of the program itself ([`Case::autodiff`]).
    pub autodiff: Autodiff,
}

/// Which cases are autodiff cases ([`GenConfig::autodiff`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Autodiff {
    /// None (the library default: the fixed batch checks forward programs).
    #[default]
    Off,
    /// Every case.
    On,
    /// One case in 4 (the command line's default), drawn from the seed apart from the
    /// program's draws: a case's program and pipeline do not depend on this setting.
    Mix,
}

impl Autodiff {
    /// Whether the case of `seed` is an autodiff case.
    pub fn pick(self, seed: u64) -> bool {
        match self {
            Autodiff::Off => false,
            Autodiff::On => true,
            Autodiff::Mix => Rng::new(seed ^ 0xad_d1ff_0000_0000).chance(25),
        }
    }
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig { max_ops: 6, max_devices: 8, two_d_percent: 5, max_numel: 8192, fuse: None, autodiff: Autodiff::Off }
    }
}

/// One generated case: the program and the pipeline that lowers it.
#[derive(Clone, Debug)]
pub struct Case {
    pub seed: u64,
    pub program: Program,
    pub pipeline: Pipeline,
    /// An autodiff case: the oracle checks the joint `@fuzz_vjp` that
    /// `fusion-autodiff{func=fuzz}` makes of the program (its arguments, then one cotangent
    /// per float result; its results, then one gradient per float argument) instead of the
    /// program.
    pub autodiff: bool,
}

/// Generates the case of `seed`.
pub fn generate(seed: u64, cfg: &GenConfig) -> Case {
    let mut rng = Rng::new(seed);
    let mesh = random_mesh(&mut rng, cfg);
    let devices: usize = mesh.iter().product();
    let pipeline = Pipeline::random(&mut rng, devices);
    let pipeline = cfg.fuse.map_or(pipeline, |on| pipeline.with_fuse(on));
    let program = Generator::new(&mut rng, mesh, pipeline.chunk_override(), cfg).run();
    Case { seed, program, pipeline, autodiff: cfg.autodiff.pick(seed) }
}

fn random_mesh(rng: &mut Rng, cfg: &GenConfig) -> Vec<usize> {
    let max = cfg.max_devices.clamp(1, 8);
    if max >= 4 && rng.chance(cfg.two_d_percent) {
        let d = *rng.pick(&[4usize, 6, 8]).unwrap_or(&4);
        if d <= max {
            return vec![2, d / 2];
        }
    }
    // Weighted towards the common team sizes, every size possible.
    let weights: Vec<u32> = (1..=max).map(|d| if matches!(d, 2 | 4) { 4 } else { 2 }).collect();
    vec![1 + rng.weighted(&weights)]
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

fn lcm(a: usize, b: usize) -> usize {
    if a == 0 || b == 0 { a.max(b) } else { a / gcd(a, b) * b }
}

/// Extents and divisibility for one program.
#[derive(Clone, Debug)]
pub struct Shapes {
    /// Mesh shape, outermost first.
    pub mesh: Vec<usize>,
    /// Stream chunk counts the program writes.
    pub streams: Vec<usize>,
    /// The count the pipeline forces on every stream split.
    pub chunk_override: Option<usize>,
    /// Every "large" extent is a multiple of this.
    pub unit: usize,
}

impl Shapes {
    pub fn new(mesh: Vec<usize>, streams: Vec<usize>, chunk_override: Option<usize>) -> Shapes {
        let devices: usize = mesh.iter().product();
        let chunks = streams.iter().chain(chunk_override.iter()).fold(1, |a, &b| lcm(a, b));
        Shapes { mesh, streams, chunk_override, unit: devices * chunks }
    }

    /// The size of a device axis (`DIDx` = last mesh axis).
    pub fn did_size(&self, d: Did) -> Option<usize> {
        let off = match d {
            Did::X => 1,
            Did::Y => 2,
        };
        self.mesh.len().checked_sub(off).map(|i| self.mesh[i])
    }

    pub fn dids(&self) -> Vec<Did> {
        [Did::X, Did::Y].into_iter().filter(|&d| self.did_size(d).is_some()).collect()
    }

    /// Whether `extent` divides by the product of `splits`, with the written stream counts and
    /// with the pipeline's forced count.
    pub fn divides(&self, extent: usize, splits: &[Split]) -> bool {
        let product = |forced: Option<usize>| -> usize {
            splits
                .iter()
                .map(|s| match *s {
                    Split::Device(d) => self.did_size(d).unwrap_or(0),
                    Split::Stream(n) => forced.unwrap_or(n),
                })
                .product()
        };
        let ok = |p: usize| p > 0 && extent.is_multiple_of(p);
        ok(product(None)) && ok(product(self.chunk_override))
    }

    /// Whether every axis of `t` divides by its splits.
    pub fn shard_fits(&self, t: &TensorTy) -> bool {
        match &t.shard {
            None => true,
            Some(s) => s.axes.len() == t.rank() && t.shape.iter().zip(&s.axes).all(|(&e, sp)| self.divides(e, sp)),
        }
    }

    /// A random extent: mostly a multiple of the unit (splittable), sometimes small.
    pub fn extent(&self, rng: &mut Rng) -> usize {
        if rng.chance(80) {
            let max_mult = if self.unit > 24 { 1 } else { 2 };
            self.unit * rng.range(1, max_mult)
        } else {
            *rng.pick(&[1usize, 2, 3, 4, 6]).unwrap_or(&2)
        }
    }

    /// A random sharding of a tensor of `shape` (partial only when `allow_partial`).
    pub fn random_shard(&self, rng: &mut Rng, shape: &[usize], allow_partial: bool) -> Shard {
        let mut s = Shard::replicated(shape.len());
        for d in self.dids() {
            match rng.weighted(&[55, if allow_partial { 20 } else { 0 }, 25]) {
                0 => self.place(rng, &mut s, shape, Split::Device(d)),
                1 => s.partial.push(d),
                _ => {}
            }
        }
        if !self.streams.is_empty() && rng.chance(45) {
            let n = *rng.pick(&self.streams).unwrap_or(&2);
            self.place(rng, &mut s, shape, Split::Stream(n));
        }
        if !s.partial.is_empty() {
            s.reduce = *rng.pick(&Reduce::ALL).unwrap_or(&Reduce::Sum);
        }
        s
    }

    /// Puts `split` on a random axis where it still divides, outer or inner of what is there.
    /// Mostly on the outermost axis with extent > 1 and, for a stream split, outermost in its
    /// list (what the lowering supports best); anywhere the rest of the time.
    fn place(&self, rng: &mut Rng, s: &mut Shard, shape: &[usize], split: Split) {
        let mut options = Vec::new();
        for (axis, list) in s.axes.iter().enumerate() {
            for pos in 0..=list.len() {
                let mut l = list.clone();
                l.insert(pos, split);
                if self.divides(shape[axis], &l) {
                    options.push((axis, pos));
                }
            }
        }
        let outer_axis = shape.iter().position(|&e| e > 1);
        let preferred: Vec<(usize, usize)> = options
            .iter()
            .copied()
            .filter(|&(axis, pos)| Some(axis) == outer_axis && (pos == 0 || matches!(split, Split::Device(_))))
            .collect();
        let pool = if !preferred.is_empty() && rng.chance(80) { &preferred } else { &options };
        if let Some(&(axis, pos)) = rng.pick(pool) {
            s.axes[axis].insert(pos, split);
        }
    }
}

/// The generator's state while building one program.
struct Generator<'a> {
    rng: &'a mut Rng,
    shapes: Shapes,
    cfg: GenConfig,
    program: Program,
    dtype: DType,
    /// Set while a contraction picks its operands: then [`Generator::centered`] values are not
    /// offered. `Weighted`: matmul and linear (with fresh weights); `Plain`: sum and the
    /// reductions (over any axes, the normalized one included).
    contracting: Contracting,
    /// Intermediates a fusion pattern returns too ([`Generator::chain`]).
    kept: Vec<ValueRef>,
    /// Ops whose rows a hand-written layer norm centered ([`Generator::centered`]).
    centered_ops: Vec<usize>,
}

/// Op kinds and their weights.
const KINDS: [(&str, u32); 32] = [
    ("chain", 10),
    ("reduction", 6),
    ("softmax", 4),
    ("norm", 5),
    ("sdpa", 4),
    ("slice", 4),
    ("concat", 3),
    ("embedding", 3),
    ("dropout", 3),
    ("cross_entropy", 3),
    ("sdpa_grad", 3),
    ("embedding_grad", 4),
    ("one_hot", 4),
    ("math", 12),
    ("gelu", 2),
    ("maxmin", 3),
    ("pow", 2),
    ("compare_where", 4),
    ("full", 2),
    ("matmul", 14),
    ("linear", 14),
    ("add", 8),
    ("sub", 5),
    ("mul", 6),
    ("div", 3),
    ("neg", 4),
    ("cast", 5),
    ("sum", 8),
    ("set", 14),
    ("broadcast", 5),
    ("reshape", 6),
    ("permute", 6),
];

impl<'a> Generator<'a> {
    fn new(rng: &'a mut Rng, mesh: Vec<usize>, chunk_override: Option<usize>, cfg: &GenConfig) -> Generator<'a> {
        let stream_count = match rng.below(10) {
            0 => 1,
            1..=4 => 2,
            5..=6 => 3,
            _ => 4,
        };
        let dtype = DType::ALL[rng.weighted(&[30, 20, 10, 10, 15, 10])];
        let shapes = Shapes::new(mesh.clone(), vec![stream_count], chunk_override);
        let big_values = rng.chance(35);
        let program =
            Program { mesh, args: Vec::new(), ops: Vec::new(), outputs: Vec::new(), big_values, bounds: Vec::new() };
        Generator {
            rng,
            shapes,
            cfg: *cfg,
            program,
            dtype,
            contracting: Contracting::No,
            kept: Vec::new(),
            centered_ops: Vec::new(),
        }
    }

    fn run(mut self) -> Program {
        let target = self.rng.range(1, self.cfg.max_ops.max(1));
        if self.rng.chance(35) {
            self.motif();
        }
        // A fusion pattern (issue 24) at the start of a third of the programs, after a motif
        // now and then, and as one of the kinds below.
        if self.rng.chance(35) {
            self.chain();
        }
        let mut attempts = 0;
        while self.program.ops.len() < target && attempts < target * 20 {
            attempts += 1;
            let w: Vec<u32> = KINDS.iter().map(|k| k.1).collect();
            let kind = KINDS[self.rng.weighted(&w)].0;
            if kind == "chain" {
                self.chain();
                continue;
            }
            if let Some(op) = self.op(kind) {
                self.push(op);
            }
        }
        if self.program.ops.is_empty() {
            let x = self.any_value();
            let t = self.program.type_of(x).clone();
            let shard = Some(self.shapes.random_shard(self.rng, &t.shape, false));
            self.push(Op { kind: OpKind::Set, operands: vec![x], result: TensorTy { shard, ..t } });
        }
        self.choose_outputs();
        self.program
    }

    /// Starts the chain with one of the tensor-parallel patterns the lowering special-cases
    /// (so random chains around them reach the rings and the per-chunk collectives):
    /// an allgather before a linear (DID→Stream `set`: the broadcast pipeline, a ring with
    /// `tp-overlap-p2p`), often followed by a row-parallel linear (the MLP), a row-parallel linear (allreduce or reduce_scatter of a partial per
    /// chunk), a matmul whose partial result is reduce-scattered (the reduce ring).
    fn motif(&mut self) {
        let unit = self.shapes.unit;
        let m = unit * self.rng.range(1, 2);
        let n = unit * self.rng.range(1, 2);
        let dims = MotifDims { m, k: unit, n, s: *self.shapes.streams.first().unwrap_or(&2) };
        let ops_before = self.program.ops.len();
        let args_before = self.program.args.len();
        match self.rng.below(3) {
            0 => self.allgather_linear_motif(&dims),
            1 => self.row_parallel_motif(&dims),
            _ => self.matmul_reduce_scatter_motif(&dims),
        }
        let max = self.cfg.max_numel;
        let fits = self.program.args[args_before..]
            .iter()
            .chain(self.program.ops[ops_before..].iter().map(|o| &o.result))
            .all(|t| self.shapes.shard_fits(t) && t.numel() <= max);
        if !fits {
            self.program.ops.truncate(ops_before);
            self.program.args.truncate(args_before);
        }
    }

    fn motif_arg(&mut self, shape: Vec<usize>, shard: Option<Shard>) -> ValueRef {
        self.program.args.push(TensorTy { shape, dtype: self.dtype, shard });
        ValueRef::Arg(self.program.args.len() - 1)
    }

    fn push_motif_op(
        &mut self,
        kind: OpKind,
        operands: Vec<ValueRef>,
        shape: Vec<usize>,
        shard: Option<Shard>,
    ) -> ValueRef {
        self.push(Op { kind, operands, result: TensorTy { shape, dtype: self.dtype, shard } });
        ValueRef::Op(self.program.ops.len() - 1)
    }

    /// `[[Stream(s)], []]`, `[[DIDx], []]` or `[[Stream(s), DIDx], []]`: where a row-parallel
    /// linear's reduction goes (allreduce per chunk, reduce_scatter, reduce_scatter per chunk).
    fn row_parallel_result(&mut self, s: usize) -> Option<Shard> {
        match self.rng.below(3) {
            0 => sharded(vec![stream(s), vec![]]),
            1 => sharded(vec![device_x(), vec![]]),
            _ => sharded(vec![vec![Split::Stream(s), Split::Device(Did::X)], vec![]]),
        }
    }

    /// `set` DIDx → Stream (the allgather pipeline), a column-parallel linear, and often a
    /// row-parallel linear after it (the MLP of tensor parallelism).
    fn allgather_linear_motif(&mut self, d: &MotifDims) {
        let x = self.motif_arg(vec![d.m, d.k], sharded(vec![device_x(), vec![]]));
        let gathered = sharded(vec![stream(d.s), vec![]]);
        let xg = self.push_motif_op(OpKind::Set, vec![x], vec![d.m, d.k], gathered);
        let w_shard =
            if self.rng.chance(50) { sharded(vec![device_x(), vec![]]) } else { sharded(vec![vec![], vec![]]) };
        let w = self.motif_arg(vec![d.n, d.k], w_shard);
        let result = match self.rng.below(3) {
            0 => sharded(vec![stream(d.s), vec![]]),
            1 => sharded(vec![stream(d.s), device_x()]),
            _ => None,
        };
        let y = self.push_motif_op(OpKind::Linear, vec![xg, w], vec![d.m, d.n], result);
        if self.rng.chance(60) {
            let n2 = self.shapes.unit * self.rng.range(1, 2);
            let w2 = self.motif_arg(vec![n2, d.n], sharded(vec![vec![], device_x()]));
            let result = self.row_parallel_result(d.s);
            self.push_motif_op(OpKind::Linear, vec![y, w2], vec![d.m, n2], result);
        }
    }

    /// A row-parallel linear: `K` split over the devices, rows in stream chunks.
    fn row_parallel_motif(&mut self, d: &MotifDims) {
        let x = self.motif_arg(vec![d.m, d.k], sharded(vec![stream(d.s), device_x()]));
        let w = self.motif_arg(vec![d.n, d.k], sharded(vec![vec![], device_x()]));
        let result = self.row_parallel_result(d.s);
        self.push_motif_op(OpKind::Linear, vec![x, w], vec![d.m, d.n], result);
    }

    /// A matmul whose partial product is reduce-scattered onto row blocks (the reduce ring).
    fn matmul_reduce_scatter_motif(&mut self, d: &MotifDims) {
        let a = self.motif_arg(vec![d.m, d.k], sharded(vec![stream(d.s), device_x()]));
        let b = self.motif_arg(vec![d.k, d.n], sharded(vec![device_x(), vec![]]));
        self.push_motif_op(OpKind::Matmul, vec![a, b], vec![d.m, d.n], sharded(vec![device_x(), vec![]]));
    }

    fn push(&mut self, op: Op) {
        self.program.ops.push(op);
    }

    fn new_arg(&mut self, shape: Vec<usize>, dtype: DType) -> ValueRef {
        let shard = Some(self.shapes.random_shard(self.rng, &shape, true));
        self.program.args.push(TensorTy { shape, dtype, shard });
        ValueRef::Arg(self.program.args.len() - 1)
    }

    fn random_shape(&mut self, rank: usize) -> Vec<usize> {
        (0..rank).map(|i| if i == 0 && rank == 3 { self.small_batch() } else { self.shapes.extent(self.rng) }).collect()
    }

    fn small_batch(&mut self) -> usize {
        let d = self.shapes.mesh.iter().product::<usize>();
        *self.rng.pick(&[2, d.max(1), 3]).unwrap_or(&2)
    }

    /// Every value but the `i1` masks (which only `where` reads).
    fn values(&self) -> Vec<ValueRef> {
        let args = (0..self.program.args.len()).map(ValueRef::Arg);
        let ops = self.program.ops.iter().enumerate().flat_map(|(i, op)| {
            std::iter::once(ValueRef::Op(i)).chain((1..=op.kind.extra().len()).map(move |k| ValueRef::Res(i, k)))
        });
        args.chain(ops).filter(|&v| self.program.type_of(v).dtype != DType::I1).collect()
    }

    /// The newest value (half the time) or any value whose type satisfies `want`; else a new
    /// argument of a shape from `fresh`.
    fn operand(&mut self, want: impl Fn(&TensorTy) -> bool, fresh: impl FnOnce(&mut Self) -> Vec<usize>) -> ValueRef {
        let fits: Vec<ValueRef> =
            self.values().into_iter().filter(|&v| want(self.program.type_of(v)) && !self.centered(v)).collect();
        if let Some(&last) = fits.last()
            && last.op().is_some_and(|i| i + 1 == self.program.ops.len())
            && self.rng.chance(55)
        {
            return last;
        }
        if !fits.is_empty() && self.rng.chance(70) {
            return fits[self.rng.below(fits.len())];
        }
        let shape = fresh(self);
        let dtype = self.dtype;
        self.new_arg(shape, dtype)
    }

    fn any_value(&mut self) -> ValueRef {
        self.operand(
            |_| true,
            |g| {
                let rank = g.rng.range(1, 3);
                g.random_shape(rank)
            },
        )
    }

    /// The result type of an op other than `set`: unannotated (propagation decides) 40% of
    /// the time, the sharding of `like` (an operand of the same shape) when given 25%, else a
    /// random sharding (partial rarely, more often for contractions).
    fn result(&mut self, shape: Vec<usize>, dtype: DType, partial_percent: u32) -> TensorTy {
        self.result_like(shape, dtype, partial_percent, None)
    }

    fn result_like(
        &mut self,
        shape: Vec<usize>,
        dtype: DType,
        partial_percent: u32,
        like: Option<ValueRef>,
    ) -> TensorTy {
        let like_shard = like.and_then(|v| {
            let t = self.program.type_of(v);
            if t.shape == shape {
                t.shard.clone().map(|mut s| {
                    s.partial.clear();
                    s
                })
            } else {
                None
            }
        });
        let shard = match self.rng.weighted(&[40, if like_shard.is_some() { 25 } else { 0 }, 35]) {
            0 => None,
            1 => like_shard,
            _ => {
                let allow = self.rng.chance(partial_percent);
                Some(self.shapes.random_shard(self.rng, &shape, allow))
            }
        };
        TensorTy { shape, dtype, shard }
    }

    /// An op of `kind`, or `None` (and no new arguments) when no fitting one was made.
    fn op(&mut self, kind: &str) -> Option<Op> {
        let args_before = self.program.args.len();
        let bounds_before = self.program.bounds.len();
        let op = self.op_of_kind(kind);
        let small = |t: &TensorTy| t.numel() <= self.cfg.max_numel;
        let fits = op.as_ref().is_some_and(|op| small(&op.result) && self.shapes.shard_fits(&op.result))
            && self.program.args[args_before..].iter().all(small);
        if !fits {
            self.program.args.truncate(args_before);
            self.program.bounds.truncate(bounds_before);
        }
        op.filter(|_| fits)
    }

    fn op_of_kind(&mut self, kind: &str) -> Option<Op> {
        self.contracting = match kind {
            "matmul" | "linear" => Contracting::Weighted,
            "sum" | "reduction" => Contracting::Plain,
            _ => Contracting::No,
        };
        let op = self.op_of_kind_inner(kind);
        self.contracting = Contracting::No;
        op
    }

    /// Whether the contraction being generated must not read `v`: a `layer_norm` result (its
    /// rows are centered: they sum to 0 in exact arithmetic), through the ops that only move or
    /// negate elements or combine centered values linearly. Summed over the normalized axis it cancels to exactly 0 (fuser-lowerfuzz,
    /// seed 302467 of the second long run: `mean` of a `layer_norm`), and so does a matmul with
    /// the overflow-prone inputs, whose short period gives constant weight columns (seed 138301
    /// of the first); at 0 the run's and the reference's roundings differ completely and no
    /// relative tolerance separates rounding from a bug.
    pub(crate) fn centered(&self, v: ValueRef) -> bool {
        match self.contracting {
            Contracting::No => return false,
            Contracting::Weighted if !self.program.big_values => return false,
            _ => {}
        }
        let ValueRef::Op(i) = v else { return false };
        if self.centered_ops.contains(&i) {
            return true;
        }
        let op = &self.program.ops[i];
        match op.kind {
            OpKind::Norm { rms: false, .. } => true,
            OpKind::Neg
            | OpKind::Cast
            | OpKind::Set
            | OpKind::Reshape
            | OpKind::Permute { .. }
            | OpKind::Broadcast { .. }
            | OpKind::Slice { .. }
            | OpKind::Concat { .. }
            | OpKind::Dropout { .. } => op.operands.iter().any(|&o| self.centered(o)),
            // x + x, x - x, max(x, x), where(c, x, x) of centered values stay centered
            // (fuser-lowerfuzz, seed 505113: the sum of `maximum(ln, ln)`).
            OpKind::Add | OpKind::Sub | OpKind::Maximum | OpKind::Minimum => {
                op.operands.iter().all(|&o| self.centered(o))
            }
            OpKind::Where => op.operands[1..].iter().all(|&o| self.centered(o)),
            _ => false,
        }
    }

    fn op_of_kind_inner(&mut self, kind: &str) -> Option<Op> {
        match kind {
            "matmul" => self.matmul(),
            "linear" => self.linear(),
            "add" => self.binary(OpKind::Add),
            "sub" => self.binary(OpKind::Sub),
            "mul" => self.binary(OpKind::Mul),
            "div" => self.binary(OpKind::Div),
            "neg" => self.unary(OpKind::Neg, None),
            "cast" => self.unary(OpKind::Cast, Some(())),
            "sum" => self.sum(),
            "set" => self.set(),
            "broadcast" => self.broadcast(),
            "reshape" => self.reshape(),
            "math" => self.math(),
            "gelu" => self.gelu(),
            "maxmin" => self.maxmin(),
            "pow" => self.pow(),
            "compare_where" => self.compare_where(),
            "full" => self.full(),
            "reduction" => self.reduction(),
            "softmax" => self.softmax(),
            "norm" => self.norm(),
            "sdpa" => self.sdpa(),
            "slice" => self.slice(),
            "concat" => self.concat(),
            "embedding" => self.embedding(),
            "dropout" => self.dropout(),
            "cross_entropy" => self.cross_entropy(),
            "sdpa_grad" => self.sdpa_grad(),
            "embedding_grad" => self.embedding_grad(),
            "one_hot" => self.one_hot(),
            _ => self.permute(),
        }
    }

    /// A float value (or an integer one for `abs`) and a unary math op on it. The ops whose
    /// result jumps near a point (`log`, `sqrt`, `rsqrt`, `reciprocal` at 0) read only
    /// [`Generator::exact`] values: a last-bit difference of an accumulated value around 0
    /// would give NaN or an infinity on one side only.
    fn math(&mut self) -> Option<Op> {
        let name = *self.rng.pick(&OpKind::MATH)?;
        let x = self.any_value();
        let t = self.program.type_of(x).clone();
        let jumps = matches!(name, "log" | "sqrt" | "rsqrt" | "reciprocal");
        if (t.dtype.is_int() && name != "abs") || (jumps && !self.exact(x)) {
            return None;
        }
        let result = self.result_like(t.shape, t.dtype, 0, Some(x));
        Some(Op { kind: OpKind::Math(name), operands: vec![x], result })
    }

    fn gelu(&mut self) -> Option<Op> {
        let x = self.any_value();
        let t = self.program.type_of(x).clone();
        if t.dtype.is_int() {
            return None;
        }
        let tanh = self.rng.chance(50);
        let result = self.result_like(t.shape, t.dtype, 0, Some(x));
        Some(Op { kind: OpKind::Gelu { tanh }, operands: vec![x], result })
    }

    /// Two operands of one shape and type (as [`Generator::binary`]) that `accept` takes.
    fn pair(&mut self, accept: impl Fn(&Self, ValueRef) -> bool) -> Option<(ValueRef, ValueRef, TensorTy)> {
        let lhs = self.any_value();
        let t = self.program.type_of(lhs).clone();
        let same = |u: &TensorTy| u.shape == t.shape && u.dtype == t.dtype;
        let shape = t.shape.clone();
        let rhs = self.operand(same, |_| shape.clone());
        let ok = self.program.type_of(rhs).dtype == t.dtype && accept(self, lhs) && accept(self, rhs);
        ok.then_some((lhs, rhs, t))
    }

    fn maxmin(&mut self) -> Option<Op> {
        let (lhs, rhs, t) = self.pair(|_, _| true)?;
        let kind = if self.rng.chance(50) { OpKind::Maximum } else { OpKind::Minimum };
        let result = self.result_like(t.shape.clone(), t.dtype, 0, Some(lhs));
        Some(Op { kind, operands: vec![lhs, rhs], result })
    }

    /// `pow` of exact float operands (a negative base: NaN unless the exponent is an integer).
    fn pow(&mut self) -> Option<Op> {
        let (lhs, rhs, t) = self.pair(|g, v| !g.program.type_of(v).dtype.is_int() && g.exact(v))?;
        let result = self.result_like(t.shape.clone(), t.dtype, 0, Some(lhs));
        Some(Op { kind: OpKind::Pow, operands: vec![lhs, rhs], result })
    }

    /// `compare` of exact operands (a last-bit difference would flip the exact i1 result),
    /// then `where` of the mask and two values of the operands' shape (the op returned).
    fn compare_where(&mut self) -> Option<Op> {
        let (lhs, rhs, t) = self.pair(|g, v| g.exact(v))?;
        let predicate = *self.rng.pick(&OpKind::PREDICATES)?;
        let mask = self.result_like(t.shape.clone(), DType::I1, 0, Some(lhs));
        let dtype = self.dtype;
        let same = |u: &TensorTy| u.shape == t.shape && u.dtype == dtype;
        let shape = t.shape.clone();
        let a = self.operand(same, |_| shape.clone());
        let shape = t.shape.clone();
        let b = self.operand(same, |_| shape.clone());
        let result = self.result_like(t.shape.clone(), dtype, 5, Some(a));
        // The mask is pushed here, so everything `op` checks must hold now (a refused `where`
        // would leave a mask reading arguments that `op` drops).
        let fits = |g: &Self, u: &TensorTy| u.numel() <= g.cfg.max_numel && g.shapes.shard_fits(u);
        if !fits(self, &mask)
            || !fits(self, &result)
            || !self.program.args.iter().all(|u| u.numel() <= self.cfg.max_numel)
        {
            return None;
        }
        self.push(Op { kind: OpKind::Compare(predicate), operands: vec![lhs, rhs], result: mask });
        let c = ValueRef::Op(self.program.ops.len() - 1);
        Some(Op { kind: OpKind::Where, operands: vec![c, a, b], result })
    }

    /// `full` of a small value exact in every element type, sharded at random (never partial).
    fn full(&mut self) -> Option<Op> {
        let rank = self.rng.range(1, 3);
        let shape = self.random_shape(rank);
        let value = *self.rng.pick(&[-2i8, 0, 1, 3])?;
        let shard = Some(self.shapes.random_shard(self.rng, &shape, false));
        Some(Op {
            kind: OpKind::Full { value },
            operands: Vec::new(),
            result: TensorTy { shape, dtype: self.dtype, shard },
        })
    }

    fn matmul(&mut self) -> Option<Op> {
        let a = self.operand(
            |t| (2..=3).contains(&t.rank()),
            |g| {
                let rank = g.rng.range(2, 3);
                g.random_shape(rank)
            },
        );
        let ta = self.program.type_of(a).clone();
        let k = *ta.shape.last()?;
        let n = self.shapes.extent(self.rng);
        let batched = ta.rank() == 3 && self.rng.chance(30);
        let b_shape = if batched { vec![ta.shape[0], k, n] } else { vec![k, n] };
        let b = self.contracted_operand(&ta, b_shape, b_shape_k_axis(batched));
        let mut shape = ta.shape[..ta.rank() - 1].to_vec();
        shape.push(n);
        let result = self.result(shape, ta.dtype, 30);
        Some(Op { kind: OpKind::Matmul, operands: vec![a, b], result })
    }

    /// A new argument for the second operand of a contraction; half the time its contracted
    /// axis `k_axis` is split like the first operand's last axis (a partial product).
    fn contracted_operand(&mut self, first: &TensorTy, shape: Vec<usize>, k_axis: usize) -> ValueRef {
        let dtype = first.dtype;
        let v = self.new_arg(shape.clone(), dtype);
        let k_splits: Vec<Split> = first
            .shard
            .as_ref()
            .and_then(|s| s.axes.last().cloned())
            .unwrap_or_default()
            .into_iter()
            .filter(|s| matches!(s, Split::Device(_)))
            .collect();
        if !k_splits.is_empty() && self.rng.chance(50) {
            let mut s = Shard::replicated(shape.len());
            s.axes[k_axis] = k_splits;
            if self.shapes.divides(shape[k_axis], &s.axes[k_axis])
                && let ValueRef::Arg(i) = v
            {
                self.program.args[i].shard = Some(s);
            }
        }
        v
    }

    fn linear(&mut self) -> Option<Op> {
        let x = self.operand(
            |t| (1..=3).contains(&t.rank()),
            |g| {
                let rank = g.rng.range(2, 3);
                g.random_shape(rank)
            },
        );
        let tx = self.program.type_of(x).clone();
        let k = *tx.shape.last()?;
        let n = self.shapes.extent(self.rng);
        let w = self.contracted_operand(&tx, vec![n, k], 1);
        let mut operands = vec![x, w];
        if self.rng.chance(40) {
            operands.push(self.new_arg(vec![n], tx.dtype));
        }
        let mut shape = tx.shape[..tx.rank() - 1].to_vec();
        shape.push(n);
        let result = self.result(shape, tx.dtype, 30);
        Some(Op { kind: OpKind::Linear, operands, result })
    }

    fn binary(&mut self, kind: OpKind) -> Option<Op> {
        let lhs = self.any_value();
        let t = self.program.type_of(lhs).clone();
        let same = |u: &TensorTy| u.shape == t.shape && u.dtype == t.dtype;
        let (shape, dtype) = (t.shape.clone(), t.dtype);
        let rhs = self.operand(same, |_| shape.clone());
        if self.program.type_of(rhs).dtype != dtype {
            return None;
        }
        let result = self.result_like(t.shape.clone(), dtype, 5, Some(lhs));
        Some(Op { kind, operands: vec![lhs, rhs], result })
    }

    fn unary(&mut self, kind: OpKind, cast: Option<()>) -> Option<Op> {
        let x = self.any_value();
        let t = self.program.type_of(x).clone();
        let dtype = if cast.is_some() { self.cast_target(x, t.dtype) } else { t.dtype };
        let result = self.result_like(t.shape, dtype, 5, Some(x));
        Some(Op { kind, operands: vec![x], result })
    }

    /// The element type a cast of `x` (of type `from`) converts to: any other type, but a float
    /// converts to an integer only when `x` is [`Generator::exact`].
    fn cast_target(&mut self, x: ValueRef, from: DType) -> DType {
        let to = *self.rng.pick(&DType::ALL).unwrap_or(&DType::F32);
        match to {
            to if to == from => from.other(),
            to if to.is_int() && !from.is_int() && !self.exact(x) => from.other(),
            to => to,
        }
    }

    /// Whether the run computes `v` bit for bit as the reference does: integers always; floats
    /// when no contraction, sum or partial value lies before them (elementwise float ops are
    /// correctly rounded on both sides, accumulations are not).
    fn exact(&self, v: ValueRef) -> bool {
        let t = self.program.type_of(v);
        if t.dtype.is_int() {
            return true;
        }
        if t.shard.as_ref().is_some_and(|s| !s.partial.is_empty()) {
            return false;
        }
        match v {
            ValueRef::Arg(_) => true,
            ValueRef::Res(..) => false,
            ValueRef::Op(i) => {
                let op = &self.program.ops[i];
                // The transformer ops accumulate or round (softmax, norms, attention, mean,
                // var, dropout's scaling, the loss, the gradients' sums); slices, concats, gathers
                // and max/min copy, one_hot writes exact 0s and 1s.
                let copies = matches!(
                    op.kind,
                    OpKind::Slice { .. } | OpKind::Concat { .. } | OpKind::Embedding | OpKind::OneHot { .. }
                ) || matches!(op.kind, OpKind::Reduce { name, .. } if name == "max" || name == "min");
                let transformer = matches!(
                    op.kind,
                    OpKind::Reduce { .. }
                        | OpKind::Softmax { .. }
                        | OpKind::Norm { .. }
                        | OpKind::Sdpa { .. }
                        | OpKind::Dropout { .. }
                        | OpKind::CrossEntropy { .. }
                        | OpKind::SdpaGrad { .. }
                        | OpKind::EmbeddingGrad { .. }
                        | OpKind::OneHot { .. }
                );
                if transformer && !copies {
                    return false;
                }
                // The math functions round a wide result twice on the cpu for bf16/f16 (f64 ->
                // f32 -> the type) and once in the reference: a last-bit difference is possible.
                let inexact_math = matches!(op.kind, OpKind::Gelu { .. } | OpKind::Pow)
                    || matches!(op.kind, OpKind::Math(m) if m != "abs");
                !matches!(op.kind, OpKind::Matmul | OpKind::Linear | OpKind::Sum { .. })
                    && !inexact_math
                    && op.operands.iter().all(|&o| self.exact(o))
            }
        }
    }

    fn sum(&mut self) -> Option<Op> {
        let x = self.any_value();
        let t = self.program.type_of(x).clone();
        let partial = t.shard.as_ref().is_some_and(|s| !s.partial.is_empty());
        let mut dims: Vec<usize> = if partial && self.rng.chance(60) {
            Vec::new()
        } else {
            (0..t.rank()).filter(|_| self.rng.chance(50)).collect()
        };
        if dims.is_empty() && !partial {
            if t.rank() == 0 {
                return None;
            }
            dims.push(self.rng.below(t.rank()));
        }
        let mut keep_dims = self.rng.chance(40);
        if dims.len() == t.rank() && !keep_dims && !dims.is_empty() {
            keep_dims = true;
        }
        let shape: Vec<usize> = (0..t.rank())
            .filter_map(|a| match (dims.contains(&a), keep_dims) {
                (false, _) => Some(t.shape[a]),
                (true, true) => Some(1),
                (true, false) => None,
            })
            .collect();
        // `dims = []` of a partial value is the explicit reduction: its result is not partial.
        let result = if dims.is_empty() {
            let shard = Some(self.shapes.random_shard(self.rng, &shape, false));
            TensorTy { shape, dtype: t.dtype, shard }
        } else {
            self.result(shape, t.dtype, 5)
        };
        Some(Op { kind: OpKind::Sum { dims, keep_dims }, operands: vec![x], result })
    }

    fn set(&mut self) -> Option<Op> {
        let x = self.any_value();
        let t = self.program.type_of(x).clone();
        let allow_partial = self.rng.chance(4);
        let shard = Some(self.shapes.random_shard(self.rng, &t.shape, allow_partial));
        Some(Op { kind: OpKind::Set, operands: vec![x], result: TensorTy { shard, ..t } })
    }

    fn broadcast(&mut self) -> Option<Op> {
        let x = self.operand(
            |t| t.rank() <= 2,
            |g| {
                let rank = g.rng.range(1, 2);
                g.random_shape(rank)
            },
        );
        let t = self.program.type_of(x).clone();
        let pos = self.rng.below(t.rank() + 1);
        let mut shape = t.shape.clone();
        let extent = if pos == 0 && t.rank() == 2 { self.small_batch() } else { self.shapes.extent(self.rng) };
        shape.insert(pos, extent);
        let result = self.result(shape, t.dtype, 0);
        Some(Op { kind: OpKind::Broadcast { dims: vec![pos] }, operands: vec![x], result })
    }

    fn reshape(&mut self) -> Option<Op> {
        let x = self.operand(
            |t| t.rank() >= 2 || t.shape.iter().any(|&e| e % 2 == 0),
            |g| {
                let rank = g.rng.range(1, 2);
                g.random_shape(rank)
            },
        );
        let t = self.program.type_of(x).clone();
        let shape = if t.rank() >= 2 && (t.rank() == 3 || self.rng.chance(50)) {
            let i = self.rng.below(t.rank() - 1);
            let mut s = t.shape.clone();
            let merged = s[i] * s[i + 1];
            s.splice(i..=i + 1, [merged]);
            s
        } else {
            let i = self.rng.below(t.rank());
            let e = t.shape[i];
            let f = *self.rng.pick(&[2usize, 3, 4])?;
            if !e.is_multiple_of(f) || e == f {
                return None;
            }
            let mut s = t.shape.clone();
            let parts = if self.rng.chance(50) { [f, e / f] } else { [e / f, f] };
            s.splice(i..=i, parts);
            s
        };
        let result = self.result(shape, t.dtype, 0);
        Some(Op { kind: OpKind::Reshape, operands: vec![x], result })
    }

    fn permute(&mut self) -> Option<Op> {
        let x = self.operand(
            |t| t.rank() >= 2,
            |g| {
                let rank = g.rng.range(2, 3);
                g.random_shape(rank)
            },
        );
        let t = self.program.type_of(x).clone();
        let mut dims = self.rng.permutation(t.rank());
        if dims.iter().enumerate().all(|(i, &d)| i == d) {
            dims.reverse();
        }
        let shape = dims.iter().map(|&d| t.shape[d]).collect();
        let result = self.result(shape, t.dtype, 0);
        Some(Op { kind: OpKind::Permute { dims }, operands: vec![x], result })
    }

    /// The last op's result, plus up to two annotated earlier values (returned intermediates).
    fn choose_outputs(&mut self) {
        let last = self.program.ops.len() - 1;
        if self.program.ops[last].result.shard.is_none() {
            let shape = self.program.ops[last].result.shape.clone();
            self.program.ops[last].result.shard = Some(self.shapes.random_shard(self.rng, &shape, false));
        }
        let mut outputs = vec![ValueRef::Op(last)];
        let extra: Vec<ValueRef> = self
            .values()
            .into_iter()
            .filter(|&v| v.op().is_some() && v != ValueRef::Op(last) && self.program.type_of(v).shard.is_some())
            .collect();
        for _ in 0..self.rng.below(3) {
            if let Some(&v) = self.rng.pick(&extra)
                && !outputs.contains(&v)
            {
                outputs.push(v);
            }
        }
        for &v in &self.kept {
            if !outputs.contains(&v) && self.program.type_of(v).shard.is_some() {
                outputs.push(v);
            }
        }
        self.program.outputs = outputs;
    }
}

/// Which contraction, if any, is picking its operands ([`Generator::centered`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Contracting {
    No,
    Weighted,
    Plain,
}

/// Extents (`m x k` times `k x n`) and stream chunks of a motif.
struct MotifDims {
    m: usize,
    k: usize,
    n: usize,
    s: usize,
}

/// A sharding with these split lists, no partial.
fn sharded(axes: Vec<Vec<Split>>) -> Option<Shard> {
    Some(Shard { axes, partial: Vec::new(), reduce: Reduce::Sum })
}

fn device_x() -> Vec<Split> {
    vec![Split::Device(Did::X)]
}

fn stream(s: usize) -> Vec<Split> {
    vec![Split::Stream(s)]
}

/// The position of `K` in the second operand of a matmul.
fn b_shape_k_axis(batched: bool) -> usize {
    if batched { 1 } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_are_deterministic_and_shardings_divide() {
        let cfg = GenConfig::default();
        // Generation is cheap: many seeds, so every pattern of generate/chains.rs is reached.
        for seed in 0..3000 {
            let a = generate(seed, &cfg);
            let b = generate(seed, &cfg);
            assert_eq!(a.program, b.program);
            // Stream counts come from the splits themselves; the pipeline's count is checked too.
            let shapes = Shapes::new(a.program.mesh.clone(), Vec::new(), a.pipeline.chunk_override());
            let p = &a.program;
            for t in p.args.iter().chain(p.ops.iter().map(|o| &o.result)) {
                assert!(shapes.shard_fits(t), "seed {seed}: {t:?} does not divide\n{}", p.to_mlir());
                // Fusion patterns may use four times the size (generate/chains.rs).
                assert!(t.numel() <= 4 * cfg.max_numel, "seed {seed}: {t:?}");
            }
            assert!(!p.ops.is_empty() && !p.outputs.is_empty());
            assert!(p.outputs.iter().all(|&v| p.type_of(v).shard.is_some()), "seed {seed}: unannotated output");
        }
    }

    #[test]
    fn divides_checks_forced_chunks() {
        let s = Shapes::new(vec![4], vec![2], Some(3));
        assert_eq!(s.unit, 24);
        assert!(s.divides(24, &[Split::Stream(2), Split::Device(Did::X)]));
        assert!(!s.divides(8, &[Split::Stream(2), Split::Device(Did::X)]));
        assert!(!s.divides(4, &[Split::Device(Did::Y)]));
    }
}
