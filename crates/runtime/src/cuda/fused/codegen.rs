//! A fused region's graph (`fused::graph`) and the layout of its operands to one CUDA C kernel
//! (`fuser_fused`), compiled by NVRTC in `cuda/fused/mod.rs`. Pure Rust: no CUDA call, so the
//! source is unit-tested here and run on the host by `tests/cuda_fused_source_on_host.rs`.
//!
//! **Schedules** ([`plan`], docs/dev/fusion.md "Code generation"):
//! - *pointwise* (`inner == 0`): each thread computes `VEC` consecutive elements of the
//!   flattened domain per step of a grid-stride loop; `VEC` elements share every coordinate but
//!   the innermost, so an operand whose innermost stride is 1 (and whose other strides are
//!   multiples of `VEC`, pointer 16-byte aligned) is read or written with one vector access of
//!   `VEC * size` bytes (at most 16), any other (a stride-0 broadcast view, a transposed view)
//!   element by element through its strides.
//! - *persistent rows* (`inner > 0`): `T` threads per row (a power of two, at least 4;
//!   `128 / T` rows per block when `T < 128`, sharing warps), each thread holding `ITEMS` vectors of `VEC`
//!   elements of the row in registers (element `c` of item `k` of thread `t`: column
//!   `(k T + t) VEC + c`, coalesced); a `Reduce` combines the thread's elements, then the warp
//!   (butterfly `__shfl_xor_sync`: every lane gets the same total), then the row's warps
//!   through shared memory (read by every thread in the same order: one value per row in every
//!   thread). `Col` values (norm weights) are read (vectorized, by column) in the row's step
//!   right before their first use, so their registers are not held across the reductions;
//!   `Row` values are per-thread scalars, written by the row's thread 0. Rows longer than
//!   `max_threads_per_block x 32` elements take several passes (`chunks > 1`, one row per
//!   block of 512 threads): per reduction, a loop over chunks of `512 x 16` elements
//!   recomputing its argument from the inputs re-read from memory, then a loop computing and
//!   storing the full outputs.
//!
//! **Numerics.** Every node is computed in its compute type (`float`, `double` when the node or
//! an argument is `f64`) and rounded to its element type (bf16 and f16 by their bit patterns, to
//! nearest even; `i1` to 0/1). `Reduce` accumulates in the compute type. Dropout keeps element
//! `g` when word `g mod 4` of Philox4x32-10 at `(seed, offset + floor(g / 4))` (the text of
//! `cuda/ops/lookup.rs`, shared) is `>= ceil(p 2^32)`, which is `draw / 2^32 >= p` exactly, and
//! multiplies in `double`, rounded once: the masks and values are the cpu's bit for bit. One
//! call serves the (up to) 4 elements of a thread's vector in the same aligned group of 4:
//! `ceil(VEC / 4)` calls per vector, one more when the vector's first global index is not a
//! multiple of 4 (a piece's origin or row length not a multiple of 4).
//!
//! **Shapes are baked in.** Extents, strides, vector widths, the schedule and the dropout's
//! global strides are constants of the source (NVRTC folds the index arithmetic; division by a
//! constant is a multiply); only the operands' addresses and the dropout's global offset of the
//! piece's origin are parameters: `struct FusedParams { unsigned long long a[N + 1]; }`, the
//! inputs' addresses, the outputs', then the offset. The source is therefore a function of
//! [`key`]'s fields, and the compiled kernel is cached by it.

use crate::cuda::api::DeviceProps;
use crate::cuda::ops::lookup::PHILOX_SOURCE;
use crate::dtype::{DType, round_to};
use crate::fused::graph::{FusedGraph, Kind, NodeOp, ReduceOp};
use fuser_dialects::host::ElementwiseKind;
use std::fmt::Write;

/// The generated kernel's name.
pub const KERNEL: &str = "fuser_fused";

/// Operands (inputs and outputs) of one kernel, at most: the parameter struct is a fixed array.
pub const MAX_OPERANDS: usize = 64;

/// Threads per row, at least: short rows share a warp (`128 / T` rows per block; the butterfly
/// shuffles stay within a row's aligned group of `T` lanes).
const MIN_ROW_THREADS: u32 = 4;

/// Threads per row above which rows hold 32 elements per thread rather than 16.
const SHARED_SM_THREADS: u32 = 512;

/// Elements per thread per row, at most, in the persistent schedule (registers).
pub const MAX_ROW_ELEMENTS_PER_THREAD: usize = 32;

/// How an operand is laid out: its strides (in elements) over the shape of its kind
/// (`FusedGraph::shape_of`) and whether its first element's address is 16-byte aligned.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Operand {
    pub dtype: DType,
    pub strides: Vec<usize>,
    pub aligned16: bool,
}

impl Operand {
    /// A dense row-major operand of `shape`, aligned.
    pub fn dense(dtype: DType, shape: &[usize]) -> Operand {
        Operand { dtype, strides: row_major(shape), aligned16: true }
    }
}

/// The row-major strides of `shape`.
pub fn row_major(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1usize; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        s[d] = s[d + 1] * shape[d + 1].max(1);
    }
    s
}

/// A kernel's work distribution.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Schedule {
    /// One thread per `vec` elements, grid-stride loop, `block` threads per block.
    Pointwise { vec: usize, block: u32 },
    /// `threads` threads per row, `items` vectors of `vec` elements per thread, `rows` rows per
    /// block; `chunks` > 1: the row is `chunks` chunks of `threads x items x vec` columns,
    /// read again from memory by each pass (one row per block).
    Persistent { vec: usize, threads: u32, items: usize, rows: u32, chunks: usize },
}

impl Schedule {
    pub fn block(&self) -> u32 {
        match *self {
            Schedule::Pointwise { block, .. } => block,
            Schedule::Persistent { threads, rows, .. } => threads * rows,
        }
    }
}

/// A schedule and its grid (the grid is not part of the source: grid-stride loops).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Plan {
    pub schedule: Schedule,
    pub grid: u32,
}

/// Whether an operand of `dtype` with `strides` over `shape` can be accessed `vec` elements at a
/// time along its innermost axis.
fn vectorizable(op: &Operand, shape: &[usize], vec: usize) -> bool {
    if vec == 1 {
        return true;
    }
    let Some(&last) = shape.last() else { return false };
    op.aligned16
        && op.dtype.size() * vec <= 16
        && last % vec == 0
        && op.strides.last() == Some(&1)
        && op.strides[..op.strides.len() - 1].iter().all(|s| s % vec == 0)
}

/// Checks the operands against the graph: counts, types, ranks.
fn check_operands(graph: &FusedGraph, inputs: &[Operand], outputs: &[Operand]) -> Result<(), String> {
    graph.validate()?;
    if inputs.len() != graph.inputs.len() || outputs.len() != graph.outputs.len() {
        return Err(format!(
            "{} inputs and {} outputs for a region of {} and {}",
            inputs.len(),
            outputs.len(),
            graph.inputs.len(),
            graph.outputs.len()
        ));
    }
    if inputs.len() + outputs.len() > MAX_OPERANDS {
        return Err(format!("more than {MAX_OPERANDS} operands"));
    }
    for (i, (op, inp)) in inputs.iter().zip(&graph.inputs).enumerate() {
        if op.dtype != inp.dtype || op.strides.len() != graph.shape_of(inp.kind).len() {
            return Err(format!("input {i} does not match the region's {:?} {:?}", inp.dtype, inp.kind));
        }
    }
    for (i, (op, &o)) in outputs.iter().zip(&graph.outputs).enumerate() {
        let n = &graph.nodes[o];
        if op.dtype != n.dtype || op.strides.len() != graph.shape_of(n.kind).len() {
            return Err(format!("output {i} does not match the region's {:?} {:?}", n.dtype, n.kind));
        }
    }
    for (i, n) in graph.nodes.iter().enumerate() {
        let int_ok = matches!(n.op, NodeOp::Input(_)) || n.dtype.is_float() || n.dtype == DType::I1;
        if !int_ok {
            return Err(format!("node {i} ({}) computes on integers, which the code generator does not", n.op_name()));
        }
        if n.dtype.is_int() && n.dtype != DType::I1 && n.kind != Kind::Scalar {
            return Err(format!("node {i}: integer values other than scalars are not supported"));
        }
    }
    Ok(())
}

/// The vector width: 16 bytes of the widest type among the operands of kinds `kinds`, halved
/// until the innermost extent is a multiple and every output of kind `Full` is vectorizable.
fn choose_vec(graph: &FusedGraph, inputs: &[Operand], outputs: &[Operand], kinds: &[Kind]) -> usize {
    let widest = graph
        .inputs
        .iter()
        .zip(inputs)
        .filter(|(i, _)| kinds.contains(&i.kind))
        .map(|(_, o)| o.dtype.size())
        .chain(
            graph
                .outputs
                .iter()
                .zip(outputs)
                .filter(|&(&o, _)| graph.nodes[o].kind == Kind::Full)
                .map(|(_, o)| o.dtype.size()),
        )
        .max()
        .unwrap_or(4)
        .max(1);
    let last = graph.domain.last().copied().unwrap_or(1);
    let mut vec = (16 / widest).max(1);
    while vec > 1 {
        let outs_ok = graph
            .outputs
            .iter()
            .zip(outputs)
            .all(|(&o, op)| graph.nodes[o].kind != Kind::Full || vectorizable(op, &graph.domain, vec));
        if last % vec == 0 && outs_ok {
            break;
        }
        vec /= 2;
    }
    vec
}

/// Chooses the schedule and grid of `graph` on a device with `props`.
pub fn plan(graph: &FusedGraph, inputs: &[Operand], outputs: &[Operand], props: &DeviceProps) -> Result<Plan, String> {
    check_operands(graph, inputs, outputs)?;
    let max_t = props.max_threads_per_block.clamp(32, 1024).next_power_of_two().min(1024);
    let max_t = if max_t > props.max_threads_per_block { max_t / 2 } else { max_t };
    if graph.inner == 0 {
        let vec = choose_vec(graph, inputs, outputs, &[Kind::Full]);
        let block = 256.min(max_t);
        let n: usize = graph.domain.iter().product();
        let steps = n.div_ceil(vec).div_ceil(block as usize);
        let waves = (props.sm_count.max(1) as usize) * (props.max_threads_per_sm.max(block) / block) as usize;
        let grid = steps.clamp(1, waves.max(1)) as u32;
        return Ok(Plan { schedule: Schedule::Pointwise { vec, block }, grid });
    }
    let (rows, cols) = graph.rows_cols();
    let vec = choose_vec(graph, inputs, outputs, &[Kind::Full, Kind::Col]);
    // About 16 elements per thread; past 512 threads a row, 32 elements per thread instead,
    // so that several blocks share a multiprocessor (their loads overlap the others'
    // reductions) rather than one block of 1024 threads alone.
    let target_items = (16 / vec).max(1);
    let mut threads = (cols.div_ceil(vec * target_items).next_power_of_two() as u32).clamp(MIN_ROW_THREADS, max_t);
    if threads > SHARED_SM_THREADS {
        threads = (cols.div_ceil(vec * 2 * target_items).next_power_of_two() as u32).clamp(SHARED_SM_THREADS, max_t);
    }
    let items = cols.div_ceil(threads as usize * vec).max(1);
    if items * vec > MAX_ROW_ELEMENTS_PER_THREAD {
        // Too long to hold: one pass over the row per reduction, then one computing the
        // outputs, each in chunks of `threads x 16` elements read again from memory (blocks
        // of 512 threads at most: two per multiprocessor).
        let (threads, items) = (max_t.min(SHARED_SM_THREADS), target_items);
        let chunks = cols.div_ceil(threads as usize * vec * items);
        let grid = rows.clamp(1, i32::MAX as usize) as u32;
        return Ok(Plan { schedule: Schedule::Persistent { vec, threads, items, rows: 1, chunks }, grid });
    }
    let per_block = (128 / threads).max(1);
    let reduces = graph.nodes.iter().filter(|n| matches!(n.op, NodeOp::Reduce(_))).count() as u32;
    let shared = reduces * per_block * (threads / 32) * 8;
    if shared > props.max_shared_per_block {
        return Err(format!("the row reductions need {shared} bytes of shared memory, more than the device's"));
    }
    let grid = rows.div_ceil(per_block as usize).clamp(1, i32::MAX as usize) as u32;
    Ok(Plan { schedule: Schedule::Persistent { vec, threads, items, rows: per_block, chunks: 1 }, grid })
}

/// The cache key of the kernel of `graph` with these operands and schedule on a device of
/// `capability`: everything the source depends on.
pub fn key(
    graph: &FusedGraph,
    inputs: &[Operand],
    outputs: &[Operand],
    schedule: &Schedule,
    capability: (i32, i32),
) -> String {
    let mut k = format!("{graph}\nglobal {:?}\n", graph.global_shape);
    for (tag, ops) in [("in", inputs), ("out", outputs)] {
        for o in ops {
            let _ = writeln!(k, "{tag} {} {:?} {}", o.dtype.name(), o.strides, o.aligned16);
        }
    }
    let _ = write!(k, "{schedule:?} sm_{}{}", capability.0, capability.1);
    k
}

/// The global offset of a piece at `origin` (`sum origin[d] * global_stride[d]`): the kernel's
/// last parameter (dropout).
pub fn global_offset(graph: &FusedGraph, origin: &[usize]) -> u64 {
    row_major(&graph.global_shape).iter().zip(origin).map(|(&s, &o)| (s as u64).wrapping_mul(o as u64)).sum()
}

/// The compute type of a node.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cty {
    F,
    D,
    /// An integer scalar input (`long long`).
    I,
}

impl Cty {
    fn c(self) -> &'static str {
        match self {
            Cty::F => "float",
            Cty::D => "double",
            Cty::I => "long long",
        }
    }
}

/// The storage type of an element type in memory.
fn storage(d: DType) -> &'static str {
    match d {
        DType::BF16 | DType::F16 => "unsigned short",
        DType::F32 => "float",
        DType::F64 => "double",
        DType::I8 => "signed char",
        DType::I16 => "short",
        DType::I32 => "int",
        DType::I64 => "long long",
        DType::I1 => "unsigned char",
    }
}

/// The vector type of `bytes` bytes.
fn vector_type(bytes: usize) -> &'static str {
    match bytes {
        16 => "fz_v16",
        8 => "fz_v8",
        4 => "unsigned",
        2 => "unsigned short",
        _ => "unsigned char",
    }
}

/// An element of storage `e` (an expression of the storage type) widened to `cty`.
fn widen(d: DType, e: &str, cty: Cty) -> String {
    let f = match d {
        DType::BF16 => format!("bf16_to_float({e})"),
        DType::F16 => format!("f16_to_float({e})"),
        _ => return format!("({})({e})", cty.c()),
    };
    if cty == Cty::D { format!("(double){f}") } else { f }
}

/// A value already rounded to `d`, as storage (a bf16 value's float bits are its bits and
/// sixteen zeros: no second rounding).
fn narrow(d: DType, v: &str) -> String {
    match d {
        DType::BF16 => format!("(unsigned short)(__float_as_uint((float)({v})) >> 16)"),
        DType::F16 => format!("float_to_f16((float)({v}))"),
        DType::I1 => format!("(unsigned char)(({v}) != 0)"),
        _ => format!("({})({v})", storage(d)),
    }
}

/// `v` (compute type `cty`) rounded to `d`.
fn round(d: DType, v: &str, cty: Cty) -> String {
    match (d, cty) {
        (DType::I1, _) => format!("(({v}) != 0 ? 1 : 0)"),
        (DType::BF16, Cty::F) => format!("fz_bf16({v})"),
        (DType::F16, Cty::F) => format!("fz_f16({v})"),
        (DType::BF16, _) => format!("(double)fz_bf16(to_float_odd({v}))"),
        (DType::F16, _) => format!("(double)fz_f16(to_float_odd({v}))"),
        (DType::F32, Cty::D) => format!("(double)(float)({v})"),
        _ => v.to_string(),
    }
}

/// A constant of compute type `cty` (finite values as exact decimal literals; others by bits).
fn literal(v: f64, cty: Cty) -> String {
    match cty {
        Cty::D if v.is_finite() => format!("{v:e}"),
        Cty::D => format!("__longlong_as_double({}LL)", v.to_bits() as i64),
        _ if v.is_finite() => format!("(float){v:e}"),
        _ => format!("__int_as_float({})", (v as f32).to_bits() as i32),
    }
}

/// The sum `sum_d coord_d(var) * strides[d]` over `extents` (row-major coordinates of the
/// linear index `var`), as a C expression of type `idx`; terms of stride 0 or extent 1 vanish.
fn offset_expr(var: &str, extents: &[usize], strides: &[usize], idx: &str) -> String {
    if extents.is_empty() {
        return format!("({idx})0");
    }
    if strides == row_major(extents).as_slice() {
        return format!("({idx})({var})");
    }
    let mut terms = Vec::new();
    let mut inner = 1usize;
    let n = extents.len();
    for d in (0..n).rev() {
        let e = extents[d];
        if e > 1 && strides[d] != 0 {
            let mut coord = if inner == 1 { format!("({var})") } else { format!("(({var}) / {inner}u)") };
            if d > 0 {
                coord = format!("({coord} % {e}u)");
            }
            terms.push(format!("({idx}){coord} * {}u", strides[d]));
        }
        inner *= e.max(1);
    }
    if terms.is_empty() { format!("({idx})0") } else { format!("({})", terms.join(" + ")) }
}

/// The C source of the kernel (module docs).
pub fn source(
    graph: &FusedGraph,
    inputs: &[Operand],
    outputs: &[Operand],
    schedule: &Schedule,
) -> Result<String, String> {
    check_operands(graph, inputs, outputs)?;
    let mut g = Gen::new(graph, inputs, outputs, *schedule);
    let body = match *schedule {
        Schedule::Pointwise { .. } if graph.inner == 0 => g.pointwise(),
        Schedule::Persistent { .. } if graph.inner > 0 => g.persistent(),
        _ => return Err(format!("schedule {schedule:?} does not fit a region with {} inner axes", graph.inner)),
    }?;
    let n_ops = inputs.len() + outputs.len();
    let mut s = String::new();
    s.push_str(PRELUDE);
    if g.dropout {
        s.push_str(PHILOX_SOURCE);
    }
    let _ = writeln!(s, "struct FusedParams {{ unsigned long long a[{}]; }};", n_ops + 1);
    let _ = writeln!(s, "// {}", graph.to_string().replace('\n', "\n// "));
    // Blocks of 512 threads: two per multiprocessor (64 registers a thread at most), so that
    // they overlap each other's loads and reductions. Smaller blocks are left to the compiler
    // (a minimum there lets it take more registers, and fewer blocks fit).
    let block = schedule.block();
    let bounds = if block == 512 { "512, 2".to_string() } else { block.to_string() };
    let _ = writeln!(s, "extern \"C\" __global__ void __launch_bounds__({bounds}) {KERNEL}(FusedParams p) {{");
    s.push_str(&body);
    s.push_str("}\n");
    Ok(s)
}

/// Which nodes a step emits (`Gen::step_nodes`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    /// Every full and row node, with their outputs (one pass over a row held in registers,
    /// or a pointwise step).
    All,
    /// The row nodes other than reductions with an index in `[from, below)` (multi-pass).
    Rows(usize, usize),
    /// The full nodes before reduction `red`, then `red`'s accumulation of the chunk
    /// (multi-pass).
    Pass(usize),
    /// The full nodes and their outputs (multi-pass: the last pass).
    Final,
}

/// The source's generator state.
struct Gen<'a> {
    graph: &'a FusedGraph,
    inputs: &'a [Operand],
    outputs: &'a [Operand],
    schedule: Schedule,
    cty: Vec<Cty>,
    /// The index type: `unsigned` when every index and offset fits 31 bits.
    idx: &'static str,
    dropout: bool,
}

impl<'a> Gen<'a> {
    fn new(graph: &'a FusedGraph, inputs: &'a [Operand], outputs: &'a [Operand], schedule: Schedule) -> Gen<'a> {
        let mut cty: Vec<Cty> = Vec::with_capacity(graph.nodes.len());
        for n in &graph.nodes {
            let c = match n.op {
                NodeOp::Input(_) if n.dtype.is_int() && n.dtype != DType::I1 => Cty::I,
                _ if n.dtype == DType::F64 => Cty::D,
                NodeOp::Input(_) | NodeOp::Const(_) => Cty::F,
                NodeOp::Dropout { .. } => {
                    if cty[n.args[0]] == Cty::D {
                        Cty::D
                    } else {
                        Cty::F
                    }
                }
                _ => {
                    if n.args.iter().any(|&a| cty[a] == Cty::D) {
                        Cty::D
                    } else {
                        Cty::F
                    }
                }
            };
            cty.push(c);
        }
        let mut biggest: usize = graph.domain.iter().product::<usize>().max(1);
        let kinds = graph.inputs.iter().map(|i| i.kind).chain(graph.outputs.iter().map(|&o| graph.nodes[o].kind));
        for (op, kind) in inputs.iter().chain(outputs).zip(kinds) {
            let shape = graph.shape_of(kind);
            let reach: usize = shape.iter().zip(&op.strides).map(|(e, s)| e.saturating_sub(1) * s).sum();
            biggest = biggest.max(reach + 16);
        }
        let idx = if biggest < (1usize << 31) { "unsigned" } else { "unsigned long long" };
        let dropout = graph.nodes.iter().any(|n| matches!(n.op, NodeOp::Dropout { .. }));
        Gen { graph, inputs, outputs, schedule, cty, idx, dropout }
    }

    fn vec(&self) -> usize {
        match self.schedule {
            Schedule::Pointwise { vec, .. } | Schedule::Persistent { vec, .. } => vec,
        }
    }

    /// The value of node `a` at element `e` (an array for `Full`/`Col` nodes), converted to
    /// `want`.
    fn val(&self, a: usize, e: &str, want: Cty) -> String {
        let n = &self.graph.nodes[a];
        let v = match n.kind {
            Kind::Full | Kind::Col => format!("v{a}[{e}]"),
            Kind::Row | Kind::Scalar => format!("v{a}"),
        };
        if self.cty[a] == want { v } else { format!("({})({v})", want.c()) }
    }

    /// The expression of an elementwise node at element `e`.
    fn elementwise(&self, i: usize, k: ElementwiseKind, e: &str) -> String {
        use ElementwiseKind::*;
        let n = &self.graph.nodes[i];
        // Comparisons and where compute in their arguments' type; the others in the node's.
        let arg_cty = if n.args.iter().any(|&a| self.cty[a] == Cty::D) { Cty::D } else { Cty::F };
        let c = if matches!(k, Eq | Ne | Lt | Le | Gt | Ge | Where) { arg_cty } else { self.cty[i] };
        let c = if c == Cty::I { Cty::F } else { c };
        let x = |j: usize| self.val(n.args[j], e, c);
        let f = |name: &str| if c == Cty::F { format!("{name}f") } else { name.to_string() };
        let one = if c == Cty::F { "1.0f" } else { "1.0" };
        let lit = |v: &str| if c == Cty::F { format!("{v}f") } else { v.to_string() };
        let r = match k {
            Add => format!("{} + {}", x(0), x(1)),
            Sub => format!("{} - {}", x(0), x(1)),
            Mul => format!("{} * {}", x(0), x(1)),
            // By a row's (or a scalar) value: one division per thread and row (the reciprocal
            // is common to the unrolled elements), then products (within 2 ulp of the quotient).
            Div if c == Cty::F
                && n.kind == Kind::Full
                && matches!(self.graph.nodes[n.args[1]].kind, Kind::Row | Kind::Scalar) =>
            {
                format!("{} * (1.0f / {})", x(0), x(1))
            }
            Div => format!("{} / {}", x(0), x(1)),
            Max => format!("fz_max({}, {})", x(0), x(1)),
            Min => format!("fz_min({}, {})", x(0), x(1)),
            Neg => format!("-{}", x(0)),
            Cast => x(0),
            Exp => format!("{}({})", f("exp"), x(0)),
            Log => format!("{}({})", f("log"), x(0)),
            Tanh => format!("{}({})", f("tanh"), x(0)),
            Erf => format!("{}({})", f("erf"), x(0)),
            Sqrt => format!("{}({})", f("sqrt"), x(0)),
            Rsqrt => format!("{}({})", f("rsqrt"), x(0)),
            Sigmoid => format!("{one} / ({one} + {}(-{}))", f("exp"), x(0)),
            Abs => format!("{}({})", f("fabs"), x(0)),
            Reciprocal => format!("{one} / {}", x(0)),
            Silu => format!("{} / ({one} + {}(-{}))", x(0), f("exp"), x(0)),
            Gelu => format!(
                "{} * {} * ({one} + {}({} * {}))",
                x(0),
                lit("0.5"),
                f("erf"),
                x(0),
                lit("0.70710678118654752440")
            ),
            GeluTanh => {
                let a = x(0);
                format!(
                    "{} * {a} * ({one} + {}({} * ({a} + {} * {a} * {a} * {a})))",
                    lit("0.5"),
                    f("tanh"),
                    lit("0.79788456080286535588"),
                    lit("0.044715")
                )
            }
            Pow => format!("{}({}, {})", f("pow"), x(0), x(1)),
            Eq => format!("({} == {})", x(0), x(1)),
            Ne => format!("({} != {})", x(0), x(1)),
            Lt => format!("({} < {})", x(0), x(1)),
            Le => format!("({} <= {})", x(0), x(1)),
            Gt => format!("({} > {})", x(0), x(1)),
            Ge => format!("({} >= {})", x(0), x(1)),
            Where => format!("({} != 0 ? {} : {})", x(0), x(1), x(2)),
        };
        let out = self.cty[i];
        let r = if matches!(k, Eq | Ne | Lt | Le | Gt | Ge) {
            format!("({})({r} ? 1 : 0)", out.c())
        } else if c != out {
            format!("({})({r})", out.c())
        } else {
            r
        };
        round(n.dtype, &r, out)
    }

    /// Declarations and computation of the `Scalar` nodes (once per thread).
    fn scalar_nodes(&self, s: &mut String) {
        let g = self.graph;
        for (i, n) in g.nodes.iter().enumerate() {
            if n.kind != Kind::Scalar {
                continue;
            }
            let c = self.cty[i].c();
            match (n.op, n.kind) {
                (NodeOp::Input(k), Kind::Scalar) => {
                    let d = g.inputs[k].dtype;
                    let load = format!("*(const {}*)p.a[{k}]", storage(d));
                    let v =
                        if self.cty[i] == Cty::I { format!("(long long){load}") } else { widen(d, &load, self.cty[i]) };
                    let _ = writeln!(s, "  const {c} v{i} = {v};");
                }
                (NodeOp::Const(v), _) => {
                    let _ = writeln!(s, "  const {c} v{i} = {};", literal(round_to(n.dtype, v), self.cty[i]));
                }
                (NodeOp::Elementwise(k), Kind::Scalar) => {
                    let _ = writeln!(s, "  const {c} v{i} = {};", self.elementwise(i, k, "0"));
                }
                _ => {}
            }
        }
    }

    /// Emits `Col` node `i` (a weight read by column, or a function of such) unless done: the
    /// `Col` values are computed in each row's step right before their first use, so that
    /// their registers are not held across the row's reductions.
    fn col_node(&self, s: &mut String, i: usize, done: &mut [bool], col: &dyn Fn(&str) -> String) {
        let n = &self.graph.nodes[i];
        if n.kind != Kind::Col || done[i] {
            return;
        }
        done[i] = true;
        for &a in &n.args {
            self.col_node(s, a, done, col);
        }
        let (vec, items) = self.items();
        let elems = vec * items;
        let c = self.cty[i].c();
        match n.op {
            NodeOp::Input(k) => {
                let _ = writeln!(s, "  {c} v{i}[{elems}];");
                self.load_items(s, i, k, &format!("({})0", self.idx), col, "true");
            }
            NodeOp::Elementwise(k) => {
                let _ = writeln!(s, "  {c} v{i}[{elems}];");
                let _ = writeln!(
                    s,
                    "  #pragma unroll\n  for (int e = 0; e < {elems}; e++) v{i}[e] = {};",
                    self.elementwise(i, k, "e")
                );
            }
            _ => {}
        }
    }

    /// Loads input `k` into `v{i}`, item by item: `row_off` the offset of the row, `col(e)`
    /// the column of element `e` (a C expression), `valid` whether the row is in range.
    fn load_items(&self, s: &mut String, i: usize, k: usize, row_off: &str, col: &dyn Fn(&str) -> String, valid: &str) {
        let g = self.graph;
        let kind = g.inputs[k].kind;
        let op = &self.inputs[k];
        let shape = g.shape_of(kind);
        let (vec, items) = self.items();
        let cols_shape: Vec<usize> = g.shape_of(Kind::Col).to_vec();
        let (col_extents, col_strides): (&[usize], &[usize]) = match kind {
            Kind::Full if g.inner == 0 => (shape, &op.strides),
            Kind::Full => (&cols_shape, &op.strides[shape.len() - g.inner..]),
            _ => (shape, &op.strides),
        };
        let st = storage(op.dtype);
        let cty = self.cty[i];
        let idx = self.idx;
        let full_items = self.all_valid();
        for it in 0..items {
            let e0 = it * vec;
            let c0 = col(&e0.to_string());
            let off = format!("{row_off} + {}", offset_expr(&c0, col_extents, col_strides, idx));
            let cond = if full_items { valid.to_string() } else { format!("{valid} && ({c0}) < {}u", self.cols()) };
            let _ = writeln!(s, "  {}{{", if cond == "true" { String::new() } else { format!("if ({cond}) ") });
            if vec > 1 && vectorizable(op, shape, vec) {
                let vt = vector_type(vec * op.dtype.size());
                let _ = writeln!(
                    s,
                    "    union {{ {vt} v; {st} e[{vec}]; }} u; u.v = *(const {vt}*)((const {st}*)p.a[{k}] + ({off}));"
                );
                for j in 0..vec {
                    let _ = writeln!(s, "    v{i}[{}] = {};", e0 + j, widen(op.dtype, &format!("u.e[{j}]"), cty));
                }
            } else {
                let inner_stride = col_strides.last().copied().unwrap_or(0);
                let _ = writeln!(s, "    const {st}* q = (const {st}*)p.a[{k}] + ({off});");
                for j in 0..vec {
                    let e = widen(op.dtype, &format!("q[{}]", j * inner_stride), cty);
                    let _ = writeln!(s, "    v{i}[{}] = {e};", e0 + j);
                }
            }
            if cond == "true" {
                let _ = writeln!(s, "  }}");
            } else {
                let _ = writeln!(s, "  }} else {{");
                for j in 0..vec {
                    let _ = writeln!(s, "    v{i}[{}] = 0;", e0 + j);
                }
                let _ = writeln!(s, "  }}");
            }
        }
    }

    /// Stores node `i` (a `Full` node) into output `k`, as `load_items` loads.
    fn store_items(
        &self,
        s: &mut String,
        i: usize,
        k: usize,
        row_off: &str,
        col: &dyn Fn(&str) -> String,
        valid: &str,
    ) {
        let g = self.graph;
        let op = &self.outputs[k];
        let slot = self.inputs.len() + k;
        let (vec, items) = self.items();
        let col_extents: Vec<usize> = if g.inner == 0 { g.domain.clone() } else { g.shape_of(Kind::Col).to_vec() };
        let col_strides = &op.strides[op.strides.len() - col_extents.len()..];
        let st = storage(op.dtype);
        let full_items = self.all_valid();
        for it in 0..items {
            let e0 = it * vec;
            let c0 = col(&e0.to_string());
            let off = format!("{row_off} + {}", offset_expr(&c0, &col_extents, col_strides, self.idx));
            let cond = if full_items { valid.to_string() } else { format!("{valid} && ({c0}) < {}u", self.cols()) };
            let _ = writeln!(s, "  {}{{", if cond == "true" { String::new() } else { format!("if ({cond}) ") });
            if vec > 1 && vectorizable(op, &g.domain, vec) {
                let vt = vector_type(vec * op.dtype.size());
                let _ = writeln!(s, "    union {{ {vt} v; {st} e[{vec}]; }} u;");
                for j in 0..vec {
                    let _ = writeln!(s, "    u.e[{j}] = {};", narrow(op.dtype, &format!("v{i}[{}]", e0 + j)));
                }
                let _ = writeln!(s, "    *({vt}*)(({st}*)p.a[{slot}] + ({off})) = u.v;");
            } else {
                let inner_stride = col_strides.last().copied().unwrap_or(0);
                let _ = writeln!(s, "    {st}* q = ({st}*)p.a[{slot}] + ({off});");
                for j in 0..vec {
                    let v = narrow(op.dtype, &format!("v{i}[{}]", e0 + j));
                    let _ = writeln!(s, "    q[{}] = {v};", j * inner_stride);
                }
            }
            let _ = writeln!(s, "  }}");
        }
    }

    /// (vector width, items per thread).
    fn items(&self) -> (usize, usize) {
        match self.schedule {
            Schedule::Pointwise { vec, .. } => (vec, 1),
            Schedule::Persistent { vec, items, .. } => (vec, items),
        }
    }

    /// The row length (the number of elements per step when pointwise).
    fn cols(&self) -> usize {
        self.graph.rows_cols().1
    }

    /// Whether every item of every thread is inside the row (no column check).
    fn all_valid(&self) -> bool {
        match self.schedule {
            Schedule::Pointwise { .. } => true,
            Schedule::Persistent { vec, threads, items, chunks, .. } => {
                vec * threads as usize * items * chunks == self.cols()
            }
        }
    }

    /// The dropout's global index of element `e`: `goff` plus the row's and column's parts.
    fn dropout_index(&self, row_var: Option<&str>, col_expr: &str) -> String {
        let g = self.graph;
        let gstrides = row_major(&g.global_shape);
        let split = g.domain.len() - g.inner;
        let u = "unsigned long long";
        match row_var {
            None => format!("goff + {}", offset_expr(col_expr, &g.domain, &gstrides, u)),
            Some(r) => format!(
                "goff + {} + {}",
                offset_expr(r, &g.domain[..split], &gstrides[..split], u),
                offset_expr(col_expr, &g.domain[split..], &gstrides[split..], u)
            ),
        }
    }

    /// The `Full` (and, persistent, `Row`) nodes of one step (`phase`: which of them): `row`
    /// the row variable (persistent) or None (pointwise: `i0` the first element).
    fn step_nodes(
        &self,
        s: &mut String,
        row: Option<&str>,
        col: &dyn Fn(&str) -> String,
        valid: &str,
        phase: Phase,
    ) -> Result<(), String> {
        let g = self.graph;
        let (vec, items) = self.items();
        let elems = vec * items;
        let split = g.domain.len() - g.inner;
        let idx = self.idx;
        let row_off = |strides: &[usize]| match row {
            Some(r) => offset_expr(r, &g.domain[..split], &strides[..split], idx),
            None => format!("({idx})0"),
        };
        let mut cols_done = vec![false; g.nodes.len()];
        for (i, n) in g.nodes.iter().enumerate() {
            let wanted = match phase {
                Phase::All => matches!(n.kind, Kind::Full | Kind::Row),
                Phase::Rows(from, below) => {
                    n.kind == Kind::Row && !matches!(n.op, NodeOp::Reduce(_)) && (from..below).contains(&i)
                }
                Phase::Pass(red) => n.kind == Kind::Full && i < red,
                Phase::Final => n.kind == Kind::Full,
            };
            if !wanted {
                if let Phase::Pass(red) = phase
                    && i == red
                    && let NodeOp::Reduce(op) = n.op
                {
                    self.reduce_local(s, i, op, col);
                }
                continue;
            }
            for &a in &n.args {
                self.col_node(s, a, &mut cols_done, col);
            }
            let c = self.cty[i].c();
            match n.op {
                NodeOp::Input(k) if n.kind == Kind::Full => {
                    let _ = writeln!(s, "  {c} v{i}[{elems}];");
                    self.load_items(s, i, k, &row_off(&self.inputs[k].strides), col, valid);
                }
                NodeOp::Input(k) => {
                    let d = g.inputs[k].dtype;
                    let off = row_off(&self.inputs[k].strides);
                    let load = widen(d, &format!("((const {}*)p.a[{k}])[{off}]", storage(d)), self.cty[i]);
                    let _ = writeln!(s, "  const {c} v{i} = {valid} ? {load} : 0;");
                }
                NodeOp::Elementwise(k) if n.kind == Kind::Full => {
                    let _ = writeln!(s, "  {c} v{i}[{elems}];");
                    let _ = writeln!(
                        s,
                        "  #pragma unroll\n  for (int e = 0; e < {elems}; e++) v{i}[e] = {};",
                        self.elementwise(i, k, "e")
                    );
                }
                NodeOp::Elementwise(k) => {
                    let _ = writeln!(s, "  const {c} v{i} = {};", self.elementwise(i, k, "0"));
                }
                NodeOp::Broadcast if n.kind == Kind::Row => {
                    // A scalar seen as a row value: one value per row, as every row value.
                    let _ = writeln!(
                        s,
                        "  const {c} v{i} = {};",
                        round(n.dtype, &self.val(n.args[0], "0", self.cty[i]), self.cty[i])
                    );
                }
                NodeOp::Broadcast => {
                    let _ = writeln!(s, "  {c} v{i}[{elems}];");
                    let _ = writeln!(
                        s,
                        "  #pragma unroll\n  for (int e = 0; e < {elems}; e++) v{i}[e] = {};",
                        round(n.dtype, &self.val(n.args[0], "e", self.cty[i]), self.cty[i])
                    );
                }
                NodeOp::Dropout { p } => {
                    let threshold = (p * 4294967296.0).ceil() as u64;
                    let scale = literal(crate::ops::lookup::dropout_scale(p), Cty::D);
                    let int_arg = |j: usize| {
                        let a = n.args[j];
                        if self.cty[a] == Cty::I { format!("v{a}") } else { format!("(long long)v{a}") }
                    };
                    let _ = writeln!(s, "  {c} v{i}[{elems}];");
                    let _ = writeln!(
                        s,
                        "  {{ const unsigned long long seed = (unsigned long long){}, offset = (unsigned long long){};",
                        int_arg(1),
                        int_arg(2)
                    );
                    // The `vec` elements of an item have the consecutive global indices
                    // `g0 .. g0 + vec`: with `r = g0 % 4`, they span the groups of 4
                    // `g0 / 4 + k` for `k < (r + vec + 3) / 4`; the first `ceil(vec / 4)` are
                    // always drawn, the one more an unaligned `g0` may reach only when it does.
                    let always = vec.div_ceil(4);
                    let most = (vec + 2) / 4 + 1;
                    for it in 0..items {
                        let c0 = col(&(it * vec).to_string());
                        let gidx = self.dropout_index(row, &c0);
                        let _ = writeln!(
                            s,
                            "    {{ const unsigned long long g0 = {gidx}, q0 = offset + (g0 >> 2);\n      const unsigned r = (unsigned)g0 & 3u;"
                        );
                        for k in 0..always {
                            let _ = writeln!(s, "      const PhiloxWords w{k} = philox_words(seed, q0 + {k}ull);");
                        }
                        for k in always..most {
                            let _ = writeln!(
                                s,
                                "      PhiloxWords w{k} = {{ 0u, 0u, 0u, 0u }};\n      if (r + {vec}u > {}u) w{k} = philox_words(seed, q0 + {k}ull);",
                                4 * k
                            );
                        }
                        for j in 0..vec {
                            let e = it * vec + j;
                            let x = self.val(n.args[0], &e.to_string(), Cty::D);
                            // Element j: group (r + j) / 4, word (r + j) % 4.
                            let (k, m) = (j / 4, j % 4);
                            let words =
                                if m == 0 { format!("w{k}") } else { format!("(r + {m}u < 4u ? w{k} : w{})", k + 1) };
                            let keep =
                                format!("(unsigned long long)philox_word({words}, (r + {j}u) & 3u) >= {threshold}ull");
                            let y = round(n.dtype, &format!("({keep}) ? {x} * {scale} : 0.0"), Cty::D);
                            let y = if self.cty[i] == Cty::F { format!("(float)({y})") } else { y };
                            let _ = writeln!(s, "      v{i}[{e}] = {y};");
                        }
                        let _ = writeln!(s, "    }}");
                    }
                    let _ = writeln!(s, "  }}");
                }
                NodeOp::Reduce(op) => self.reduce(s, i, op, col)?,
                NodeOp::Const(_) => {}
            }
            // Outputs of this node (a pass of a multi-pass row computes, it does not store).
            for (k, &o) in g.outputs.iter().enumerate() {
                if o != i || matches!(phase, Phase::Pass(_)) {
                    continue;
                }
                let slot = self.inputs.len() + k;
                let op = &self.outputs[k];
                if n.kind == Kind::Full {
                    self.store_items(s, i, k, &row_off(&op.strides), col, valid);
                } else {
                    let off = row_off(&op.strides);
                    let v = narrow(op.dtype, &format!("v{i}"));
                    let _ = writeln!(s, "  if ({valid} && t == 0) (({}*)p.a[{slot}])[{off}] = {v};", storage(op.dtype));
                }
            }
        }
        Ok(())
    }

    /// The identity and the combining function of a reduction in compute type `cty`.
    fn reduce_op(op: ReduceOp, cty: Cty) -> (String, &'static str) {
        let inf = literal(f64::INFINITY, cty);
        match op {
            ReduceOp::Sum => ("0".to_string(), "fz_add"),
            ReduceOp::Max => (format!("-{inf}"), "fz_max"),
            ReduceOp::Min => (inf, "fz_min"),
        }
    }

    /// Combines the thread's elements of reduction `i`'s argument into `acc{i}`.
    fn reduce_local(&self, s: &mut String, i: usize, op: ReduceOp, col: &dyn Fn(&str) -> String) {
        let (vec, items) = self.items();
        let n = &self.graph.nodes[i];
        let cty = self.cty[i];
        let (_, comb) = Self::reduce_op(op, cty);
        let all = self.all_valid();
        let cols = self.cols();
        for it in 0..items {
            let cond = if all { String::new() } else { format!("if (({}) < {cols}u) ", col(&(it * vec).to_string())) };
            let _ = write!(s, "    {cond}{{");
            for j in 0..vec {
                let _ =
                    write!(s, " acc{i} = {comb}(acc{i}, {});", self.val(n.args[0], &(it * vec + j).to_string(), cty));
            }
            let _ = writeln!(s, " }}");
        }
    }

    /// Combines `acc{i}` over the warp, then the row's warps, into `v{i}` (declared here).
    fn reduce_combine(&self, s: &mut String, i: usize, op: ReduceOp) -> Result<(), String> {
        let Schedule::Persistent { threads, rows, .. } = self.schedule else {
            return Err("a reduction in a pointwise schedule".into());
        };
        let n = &self.graph.nodes[i];
        let cty = self.cty[i];
        let c = cty.c();
        let (_, comb) = Self::reduce_op(op, cty);
        let _ = writeln!(s, "  {c} v{i};");
        let _ = writeln!(s, "  {{");
        let width = threads.min(32);
        let _ = writeln!(
            s,
            "    #pragma unroll\n    for (int o = {}; o > 0; o >>= 1) acc{i} = {comb}(acc{i}, __shfl_xor_sync(0xffffffffu, acc{i}, o));",
            width / 2
        );
        let warps = threads / 32;
        if warps > 1 {
            let _ = writeln!(s, "    __shared__ {c} red{i}[{rows}][{warps}];");
            let _ = writeln!(s, "    if ((t & 31u) == 0) red{i}[slot][t >> 5] = acc{i};");
            let _ = writeln!(s, "    __syncthreads();");
            let _ = writeln!(s, "    acc{i} = red{i}[slot][0];");
            let _ = writeln!(
                s,
                "    #pragma unroll\n    for (int w = 1; w < {warps}; w++) acc{i} = {comb}(acc{i}, red{i}[slot][w]);"
            );
        }
        let _ = writeln!(s, "    v{i} = {}; }}", round(n.dtype, &format!("acc{i}"), cty));
        Ok(())
    }

    /// A row reduction into `v{i}`: the thread's elements, the warp, the row's warps.
    fn reduce(&self, s: &mut String, i: usize, op: ReduceOp, col: &dyn Fn(&str) -> String) -> Result<(), String> {
        let cty = self.cty[i];
        let (ident, _) = Self::reduce_op(op, cty);
        let _ = writeln!(s, "  {} acc{i} = {ident};", cty.c());
        self.reduce_local(s, i, op, col);
        self.reduce_combine(s, i, op)
    }

    /// The step of a row too long to hold (`chunks` chunks, `col` the columns of chunk `ch`):
    /// the row values computable from the row's inputs, then per reduction one pass over the
    /// chunks accumulating its argument (recomputed from the inputs) and the row values it
    /// makes computable, then a pass computing and storing the full outputs.
    fn passes(&self, s: &mut String, col: &dyn Fn(&str) -> String, chunks: usize) -> Result<(), String> {
        let g = self.graph;
        let reduces: Vec<(usize, ReduceOp)> = g
            .nodes
            .iter()
            .enumerate()
            .filter_map(|(i, n)| if let NodeOp::Reduce(op) = n.op { Some((i, op)) } else { None })
            .collect();
        let split = g.domain.len() - g.inner;
        let mut from = 0;
        for &(r, op) in &reduces {
            self.step_nodes(s, Some("r"), col, "rv", Phase::Rows(from, r))?;
            let cty = self.cty[r];
            let (ident, _) = Self::reduce_op(op, cty);
            let _ = writeln!(s, "  {} acc{r} = {ident};", cty.c());
            let _ = writeln!(s, "  for (unsigned ch = 0; ch < {chunks}u; ch++) {{");
            self.step_nodes(s, Some("r"), col, "rv", Phase::Pass(r))?;
            s.push_str("  }\n");
            self.reduce_combine(s, r, op)?;
            for (o, &out) in g.outputs.iter().enumerate() {
                if out == r {
                    let op = &self.outputs[o];
                    let off = offset_expr("r", &g.domain[..split], &op.strides[..split], self.idx);
                    let v = narrow(op.dtype, &format!("v{r}"));
                    let slot = self.inputs.len() + o;
                    let _ = writeln!(s, "  if (rv && t == 0) (({}*)p.a[{slot}])[{off}] = {v};", storage(op.dtype));
                }
            }
            from = r + 1;
        }
        self.step_nodes(s, Some("r"), col, "rv", Phase::Rows(from, g.nodes.len()))?;
        let _ = writeln!(s, "  for (unsigned ch = 0; ch < {chunks}u; ch++) {{");
        self.step_nodes(s, Some("r"), col, "rv", Phase::Final)?;
        s.push_str("  }\n");
        Ok(())
    }

    fn pointwise(&mut self) -> Result<String, String> {
        let g = self.graph;
        let vec = self.vec();
        let idx = self.idx;
        let n: usize = g.domain.iter().product();
        let steps = n / vec;
        let mut s = String::new();
        if self.dropout {
            let _ = writeln!(s, "  const unsigned long long goff = p.a[{}];", self.inputs.len() + self.outputs.len());
        }
        self.scalar_nodes(&mut s);
        let _ = writeln!(
            s,
            "  for ({idx} q = ({idx})blockIdx.x * blockDim.x + threadIdx.x; q < {steps}u; q += ({idx})gridDim.x * blockDim.x) {{"
        );
        let _ = writeln!(s, "  const {idx} i0 = q * {vec}u; const unsigned t = 0; (void)t;");
        let mut body = String::new();
        self.step_nodes(
            &mut body,
            None,
            &|e| if e == "0" { "i0".to_string() } else { format!("(i0 + {e}u)") },
            "true",
            Phase::All,
        )?;
        s.push_str(&body);
        s.push_str("  }\n");
        Ok(s)
    }

    fn persistent(&mut self) -> Result<String, String> {
        let Schedule::Persistent { vec, threads, items, rows: per_block, chunks } = self.schedule else {
            return Err("not a persistent schedule".into());
        };
        let g = self.graph;
        let (rows, _) = g.rows_cols();
        let groups = rows.div_ceil(per_block as usize);
        let idx = self.idx;
        let mut s = String::new();
        let _ = writeln!(s, "  const unsigned t = threadIdx.x % {threads}u, slot = threadIdx.x / {threads}u;");
        if self.dropout {
            let _ = writeln!(s, "  const unsigned long long goff = p.a[{}];", self.inputs.len() + self.outputs.len());
        }
        // Column of element `e` (of item `e / vec`) of the thread (of chunk `ch`, multi-pass).
        let chunk = if chunks > 1 { format!("ch * {}u + ", threads as usize * items * vec) } else { String::new() };
        let col = move |e: &str| -> String {
            let e: usize = e.parse().unwrap_or(0);
            let (it, j) = (e / vec, e % vec);
            format!("({chunk}(({it}u * {threads}u) + t) * {vec}u + {j}u)")
        };
        self.scalar_nodes(&mut s);
        let _ = writeln!(s, "  for ({idx} grp = blockIdx.x; grp < {groups}u; grp += gridDim.x) {{");
        let _ = writeln!(s, "  const {idx} r0 = grp * {per_block}u + slot; const bool rv = r0 < {rows}u;");
        let _ = writeln!(s, "  const {idx} r = rv ? r0 : 0;");
        let mut body = String::new();
        if chunks == 1 {
            self.step_nodes(&mut body, Some("r"), &col, "rv", Phase::All)?;
        } else {
            self.passes(&mut body, &col, chunks)?;
        }
        s.push_str(&body);
        if threads > 32 {
            s.push_str("  __syncthreads();\n");
        }
        s.push_str("  }\n");
        Ok(s)
    }
}

/// Conversions, rounding and NaN-propagating max/min, shared by every generated kernel. The
/// f16 conversions are PTX's (on the host, `_Float16`'s: the host tests).
const PRELUDE: &str = r#"
// 16- and 8-byte vectors (own types: no dependence on CUDA's vector headers).
struct __align__(16) fz_v16 { unsigned x, y, z, w; };
struct __align__(8) fz_v8 { unsigned x, y; };
__device__ __forceinline__ float bf16_to_float(unsigned short h) { return __uint_as_float(((unsigned)h) << 16); }
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
__device__ __forceinline__ float f16_to_float(unsigned short h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
__device__ __forceinline__ unsigned short float_to_f16(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }
#if __CUDA_ARCH__ >= 800
// One instruction (sm_80 and later): to nearest even, as below (NaN: another quiet NaN).
__device__ __forceinline__ unsigned short float_to_bf16(float f) { unsigned short h; asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }
#define FZ_BF16_CVT
#endif
#else
static float f16_to_float(unsigned short h) { _Float16 x; memcpy(&x, &h, 2); return (float)x; }
static unsigned short float_to_f16(float f) { _Float16 x = (_Float16)f; unsigned short h; memcpy(&h, &x, 2); return h; }
#endif
#ifndef FZ_BF16_CVT
__device__ __forceinline__ unsigned short float_to_bf16(float f) {
  unsigned u = __float_as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return 0x7fc0;
  u += 0x7fffu + ((u >> 16) & 1u);
  return (unsigned short)(u >> 16);
}
#endif
// double -> float rounded to odd, so that rounding it to f16/bf16 is one rounding of the double.
__device__ __forceinline__ float to_float_odd(double v) {
  float f = __double2float_rz(v);
  if ((double)f != v) f = __uint_as_float(__float_as_uint(f) | 1u);
  return f;
}
__device__ __forceinline__ float fz_bf16(float x) { return bf16_to_float(float_to_bf16(x)); }
__device__ __forceinline__ float fz_f16(float x) { return f16_to_float(float_to_f16(x)); }
__device__ __forceinline__ float fz_add(float a, float b) { return a + b; }
__device__ __forceinline__ double fz_add(double a, double b) { return a + b; }
// NaN-propagating; +0 is above -0 (numerics::fmax, fmin): equal operands differ at most in
// the sign of a zero, so the AND (max) or OR (min) of their bits picks the right zero.
#if (defined(__CUDACC__) || defined(__CUDACC_RTC__)) && __CUDA_ARCH__ >= 800
__device__ __forceinline__ float fz_max(float a, float b) {
  float m; asm("max.NaN.f32 %0, %1, %2;" : "=f"(m) : "f"(a), "f"(b));
  return a == b ? __uint_as_float(__float_as_uint(a) & __float_as_uint(b)) : m;
}
__device__ __forceinline__ float fz_min(float a, float b) {
  float m; asm("min.NaN.f32 %0, %1, %2;" : "=f"(m) : "f"(a), "f"(b));
  return a == b ? __uint_as_float(__float_as_uint(a) | __float_as_uint(b)) : m;
}
#else
__device__ __forceinline__ float fz_max(float a, float b) {
  float m = a > b ? a : b;
  m = a == b ? __uint_as_float(__float_as_uint(a) & __float_as_uint(b)) : m;
  return (a != a || b != b) ? a + b : m;
}
__device__ __forceinline__ float fz_min(float a, float b) {
  float m = a < b ? a : b;
  m = a == b ? __uint_as_float(__float_as_uint(a) | __float_as_uint(b)) : m;
  return (a != a || b != b) ? a + b : m;
}
#endif
__device__ __forceinline__ double fz_max(double a, double b) {
  double m = a > b ? a : b;
  m = a == b ? __longlong_as_double(__double_as_longlong(a) & __double_as_longlong(b)) : m;
  return (a != a || b != b) ? a + b : m;
}
__device__ __forceinline__ double fz_min(double a, double b) {
  double m = a < b ? a : b;
  m = a == b ? __longlong_as_double(__double_as_longlong(a) | __double_as_longlong(b)) : m;
  return (a != a || b != b) ? a + b : m;
}
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fused::graph::{Input, Node};
    use fuser_dialects::host::ElementwiseKind as E;

    fn node(op: NodeOp, args: &[usize], dtype: DType, kind: Kind) -> Node {
        Node { op, args: args.to_vec(), dtype, kind }
    }

    const H200: DeviceProps = DeviceProps {
        sm_count: 132,
        max_threads_per_block: 1024,
        max_threads_per_sm: 2048,
        max_shared_per_block: 49152,
    };

    fn add_graph(dtype: DType, domain: &[usize]) -> FusedGraph {
        FusedGraph {
            domain: domain.to_vec(),
            inner: 0,
            inputs: vec![Input { dtype, kind: Kind::Full }; 2],
            nodes: vec![
                node(NodeOp::Input(0), &[], dtype, Kind::Full),
                node(NodeOp::Input(1), &[], dtype, Kind::Full),
                node(NodeOp::Elementwise(E::Add), &[0, 1], dtype, Kind::Full),
            ],
            outputs: vec![2],
            global_shape: vec![],
        }
    }

    fn softmax_graph(dtype: DType, domain: &[usize]) -> FusedGraph {
        FusedGraph {
            domain: domain.to_vec(),
            inner: 1,
            inputs: vec![Input { dtype, kind: Kind::Full }],
            nodes: vec![
                node(NodeOp::Input(0), &[], dtype, Kind::Full),
                node(NodeOp::Reduce(ReduceOp::Max), &[0], DType::F32, Kind::Row),
                node(NodeOp::Elementwise(E::Sub), &[0, 1], DType::F32, Kind::Full),
                node(NodeOp::Elementwise(E::Exp), &[2], DType::F32, Kind::Full),
                node(NodeOp::Reduce(ReduceOp::Sum), &[3], DType::F32, Kind::Row),
                node(NodeOp::Elementwise(E::Div), &[3, 4], dtype, Kind::Full),
            ],
            outputs: vec![5],
            global_shape: vec![],
        }
    }

    fn dense_ops(g: &FusedGraph) -> (Vec<Operand>, Vec<Operand>) {
        let ins = g.inputs.iter().map(|i| Operand::dense(i.dtype, g.shape_of(i.kind))).collect();
        let outs = g.outputs.iter().map(|&o| Operand::dense(g.nodes[o].dtype, g.shape_of(g.nodes[o].kind))).collect();
        (ins, outs)
    }

    #[test]
    fn pointwise_vectorizes_aligned_contiguous_operands() {
        let g = add_graph(DType::BF16, &[8192, 4096]);
        let (ins, outs) = dense_ops(&g);
        let pl = plan(&g, &ins, &outs, &H200).unwrap();
        assert_eq!(pl.schedule, Schedule::Pointwise { vec: 8, block: 256 });
        assert_eq!(pl.grid, 132 * 8);
        let src = source(&g, &ins, &outs, &pl.schedule).unwrap();
        assert!(src.contains("u.v = *(const fz_v16*)"), "{src}");
        assert!(src.contains("*(fz_v16*)((unsigned short*)p.a[2]"), "{src}");
        assert!(src.contains("fz_bf16("), "{src}");
        assert!(!src.contains("philox"), "{src}");
        // An odd width: no vectors.
        let g = add_graph(DType::F32, &[3, 7]);
        let (ins, outs) = dense_ops(&g);
        let pl = plan(&g, &ins, &outs, &H200).unwrap();
        assert_eq!(pl.schedule, Schedule::Pointwise { vec: 1, block: 256 });
        let src = source(&g, &ins, &outs, &pl.schedule).unwrap();
        assert!(!src.contains("fz_v16 v;") && !src.contains("u.v ="), "{src}");
    }

    #[test]
    fn a_broadcast_view_is_read_through_its_strides() {
        let g = add_graph(DType::BF16, &[16, 64]);
        let (mut ins, outs) = dense_ops(&g);
        ins[1].strides = vec![0, 1];
        let pl = plan(&g, &ins, &outs, &H200).unwrap();
        let src = source(&g, &ins, &outs, &pl.schedule).unwrap();
        // The bias's offset is the column only.
        assert!(src.contains("p.a[1] + ((unsigned)0 + ((unsigned)((i0) % 64u) * 1u)))"), "{src}");
        // An unaligned input is gathered, the output still vectorized.
        ins[0].aligned16 = false;
        let src = source(&g, &ins, &outs, &pl.schedule).unwrap();
        assert!(src.contains("const unsigned short* q = (const unsigned short*)p.a[0]"), "{src}");
        assert!(src.contains("*(fz_v16*)((unsigned short*)p.a[2]"), "{src}");
    }

    #[test]
    fn rows_get_persistent_schedules_then_passes() {
        let g = softmax_graph(DType::BF16, &[2048, 4096]);
        let (ins, outs) = dense_ops(&g);
        let pl = plan(&g, &ins, &outs, &H200).unwrap();
        assert_eq!(pl.schedule, Schedule::Persistent { vec: 8, threads: 256, items: 2, rows: 1, chunks: 1 });
        assert_eq!(pl.grid, 2048);
        let src = source(&g, &ins, &outs, &pl.schedule).unwrap();
        assert!(src.contains("__shfl_xor_sync"), "{src}");
        assert!(src.contains("__shared__ float red1[1][8]"), "{src}");
        assert!(src.contains("__launch_bounds__(256)"), "{src}");
        let g = softmax_graph(DType::BF16, &[8, 32768]);
        let pl = plan(&g, &dense_ops(&g).0, &dense_ops(&g).1, &H200).unwrap();
        assert_eq!(pl.schedule, Schedule::Persistent { vec: 8, threads: 1024, items: 4, rows: 1, chunks: 1 });
        // Longer rows: passes over chunks of 512 x 16 elements.
        let g = softmax_graph(DType::BF16, &[8, 32769]);
        let pl = plan(&g, &dense_ops(&g).0, &dense_ops(&g).1, &H200).unwrap();
        assert_eq!(pl.schedule, Schedule::Persistent { vec: 1, threads: 512, items: 16, rows: 1, chunks: 5 });
        let g = softmax_graph(DType::BF16, &[8, 50000]);
        let pl = plan(&g, &dense_ops(&g).0, &dense_ops(&g).1, &H200).unwrap();
        assert_eq!(pl.schedule, Schedule::Persistent { vec: 8, threads: 512, items: 2, rows: 1, chunks: 7 });
        let src = source(&g, &dense_ops(&g).0, &dense_ops(&g).1, &pl.schedule).unwrap();
        // Two reductions: two accumulating passes and the output pass.
        assert_eq!(src.matches("for (unsigned ch = 0; ch < 7u; ch++)").count(), 3, "{src}");
        // Short rows: 4 threads per row, 32 rows per block.
        let g = softmax_graph(DType::F32, &[100, 40]);
        let pl = plan(&g, &dense_ops(&g).0, &dense_ops(&g).1, &H200).unwrap();
        assert_eq!(pl.schedule, Schedule::Persistent { vec: 4, threads: 4, items: 3, rows: 32, chunks: 1 });
        assert_eq!(pl.grid, 4);
        let src = source(&g, &dense_ops(&g).0, &dense_ops(&g).1, &pl.schedule).unwrap();
        assert!(src.contains("for (int o = 2; o > 0; o >>= 1)"), "{src}");
        assert!(!src.contains("__syncthreads"), "{src}");
    }

    #[test]
    fn weights_are_read_in_the_row_step_where_first_used() {
        let t = DType::BF16;
        let weighted = |cols: usize| FusedGraph {
            domain: vec![4, cols],
            inner: 1,
            inputs: vec![Input { dtype: t, kind: Kind::Full }, Input { dtype: t, kind: Kind::Col }],
            nodes: vec![
                node(NodeOp::Input(0), &[], t, Kind::Full),
                node(NodeOp::Input(1), &[], t, Kind::Col),
                node(NodeOp::Elementwise(E::Mul), &[0, 1], t, Kind::Full),
                node(NodeOp::Reduce(ReduceOp::Sum), &[2], DType::F32, Kind::Row),
            ],
            outputs: vec![2, 3],
            global_shape: vec![],
        };
        for cols in [4096, 32768] {
            let g = weighted(cols);
            let (ins, outs) = dense_ops(&g);
            let pl = plan(&g, &ins, &outs, &H200).unwrap();
            let src = source(&g, &ins, &outs, &pl.schedule).unwrap();
            let (rows, x, weight) =
                (src.find("grp <").unwrap(), src.find("p.a[0]").unwrap(), src.find("p.a[1]").unwrap());
            assert!(rows < x && x < weight, "{src}");
            // The row sum is written by the row's first thread.
            assert!(src.contains("if (rv && t == 0) ((float*)p.a[3])"), "{src}");
        }
    }

    #[test]
    fn keys_differ_when_the_kernel_must() {
        let g = add_graph(DType::BF16, &[64, 4096]);
        let (ins, outs) = dense_ops(&g);
        let s = Schedule::Pointwise { vec: 8, block: 256 };
        let base = key(&g, &ins, &outs, &s, (9, 0));
        assert_eq!(base, key(&g, &ins, &outs, &s, (9, 0)));
        assert_ne!(base, key(&g, &ins, &outs, &s, (8, 0)));
        assert_ne!(base, key(&g, &ins, &outs, &Schedule::Pointwise { vec: 4, block: 256 }, (9, 0)));
        let mut ins2 = ins.clone();
        ins2[1].strides = vec![0, 1];
        assert_ne!(base, key(&g, &ins2, &outs, &s, (9, 0)));
        ins2[1] = Operand { aligned16: false, ..ins[1].clone() };
        assert_ne!(base, key(&g, &ins2, &outs, &s, (9, 0)));
        assert_ne!(base, key(&add_graph(DType::BF16, &[32, 4096]), &ins, &outs, &s, (9, 0)));
        assert_ne!(base, key(&add_graph(DType::F16, &[64, 4096]), &ins, &outs, &s, (9, 0)));
        let mut g2 = g.clone();
        g2.nodes[2].op = NodeOp::Elementwise(E::Sub);
        assert_ne!(base, key(&g2, &ins, &outs, &s, (9, 0)));
    }

    #[test]
    fn dropout_thresholds_are_exact_and_f64_computes_in_double() {
        let g = FusedGraph {
            domain: vec![4, 8],
            inner: 0,
            inputs: vec![
                Input { dtype: DType::F64, kind: Kind::Full },
                Input { dtype: DType::I64, kind: Kind::Scalar },
                Input { dtype: DType::I64, kind: Kind::Scalar },
            ],
            nodes: vec![
                node(NodeOp::Input(0), &[], DType::F64, Kind::Full),
                node(NodeOp::Input(1), &[], DType::I64, Kind::Scalar),
                node(NodeOp::Input(2), &[], DType::I64, Kind::Scalar),
                node(NodeOp::Dropout { p: 0.25 }, &[0, 1, 2], DType::F64, Kind::Full),
            ],
            outputs: vec![3],
            global_shape: vec![8, 8],
        };
        let (ins, outs) = dense_ops(&g);
        let pl = plan(&g, &ins, &outs, &H200).unwrap();
        let src = source(&g, &ins, &outs, &pl.schedule).unwrap();
        assert!(src.contains(">= 1073741824ull"), "{src}");
        assert!(src.contains("double v3[2]"), "{src}");
        // Vectors of 2: one call always, a second one only when the pair straddles a group.
        assert!(src.contains("const PhiloxWords w0 = philox_words(seed, q0 + 0ull);"), "{src}");
        assert!(src.contains("if (r + 2u > 4u) w1 = philox_words(seed, q0 + 1ull);"), "{src}");
        assert!(src.contains("philox_word((r + 1u < 4u ? w0 : w1), (r + 1u) & 3u)"), "{src}");
        assert_eq!(global_offset(&g, &[4, 0]), 32);
    }

    #[test]
    fn integer_arithmetic_is_refused() {
        let mut g = add_graph(DType::I32, &[4, 4]);
        g.inputs = vec![Input { dtype: DType::I32, kind: Kind::Full }; 2];
        let (ins, outs) = dense_ops(&g);
        let err = plan(&g, &ins, &outs, &H200).unwrap_err();
        assert!(err.contains("integer"), "{err}");
    }
}
