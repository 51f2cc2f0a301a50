//! Running a host function on N ranks with sharded inputs, gathering its outputs, and checking
//! them against the reference evaluation of the fusion-level program.
//!
//! Placement of an argument or result: its `fusion.global_type` attribute (in the function's
//! `arg_attrs`/`res_attrs`) gives the global tensor type and its sharding; without it the
//! buffer type is the global type and every rank holds all of it. Rank `r` is device `r` of
//! the mesh. Inputs are generated from the seed per argument (global tensors), each rank gets
//! its piece; outputs come back from every rank and are put together (replicated pieces must
//! agree exactly).

use crate::cpu::backend::CpuBackend;
use crate::dtype::DType;
use crate::error::{OpKey, RtError, RtResult, rank_range};
use crate::exec::backend::RankStats;
use crate::exec::{Backend, Program, capture, run_program};
use crate::origin::{OutputOrigin, output_origins, returned_values};
use crate::precision::check_precision;
use crate::reference;
use crate::tensor::{HostTensor, gather_global, local_piece};
use crate::trace::TraceEvent;
use fuser_dialects::fusion::{Mesh, Sharding};
use fuser_dialects::host::types::BufferType;
use fuser_ir::attrs::{Attr, AttrKind};
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId};
use fuser_ir::types::TypeKind;
use std::time::{Duration, Instant};

/// The attribute holding the global type of a host argument or result.
pub const GLOBAL_TYPE_ATTR: &str = "fusion.global_type";

/// How a run is made.
#[derive(Clone, Debug)]
pub struct RunConfig {
    pub ranks: usize,
    pub seed: u64,
    pub warmup: usize,
    pub iters: usize,
    pub trace: bool,
    /// The watchdog deadline of every blocking wait.
    pub timeout: Duration,
    /// Feed the race checker every access and join; a race fails the run.
    pub check_races: bool,
    /// Called by rank 0 after each iteration with (iterations done, iterations in all).
    pub progress: Option<Progress>,
    /// The cuda backend's GPU of every rank (`fuser-run --devices`; ordinals may repeat);
    /// `None`: rank r on GPU r (one process) or GPU LOCAL_RANK (one process per rank).
    pub devices: Option<Vec<usize>>,
    /// Capture one iteration per rank into a CUDA graph and replay it for the measured
    /// iterations (cuda backend; see [`crate::exec::capture`] for the schedule and what falls
    /// back to eager execution).
    pub cuda_graph: bool,
    /// The cuda backend's GEMM library.
    pub gemm: crate::gemm_lib::GemmLib,
    /// Given values of some inputs instead of seeded ones (`fuser-run --input-values`):
    /// `(argument index, values)`, the values repeated in row-major order to fill the tensor.
    pub input_values: Vec<(usize, Vec<f64>)>,
    /// `--input-file I=PATH`: input I's global values, raw little-endian in its element type.
    pub input_files: Vec<(usize, std::path::PathBuf)>,
}

impl RunConfig {
    /// The options every rank of a multi-process run must share, by name and shown value
    /// (the decisive parts of `procs::Fingerprint::of_run` beside the program).
    pub fn fingerprint_options(&self) -> Vec<(&'static str, String)> {
        vec![
            ("seed", self.seed.to_string()),
            ("warmup iterations", self.warmup.to_string()),
            ("iterations", self.iters.to_string()),
            ("cuda graph", self.cuda_graph.to_string()),
            ("gemm library", format!("{:?}", self.gemm)),
        ]
    }
}

/// A progress callback (see [`RunConfig::progress`]).
#[derive(Clone)]
pub struct Progress(pub std::sync::Arc<dyn Fn(usize, usize) + Send + Sync>);

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Progress(..)")
    }
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            ranks: 1,
            seed: 0,
            warmup: 0,
            iters: 1,
            trace: false,
            timeout: Duration::from_secs(10),
            check_races: false,
            progress: None,
            devices: None,
            cuda_graph: false,
            gemm: Default::default(),
            input_values: Vec::new(),
            input_files: Vec::new(),
        }
    }
}

/// The global tensor behind a host buffer and how it is spread over the ranks.
#[derive(Clone, Debug)]
pub struct Placement {
    pub dtype: DType,
    pub global_shape: Vec<usize>,
    /// `None`: every rank holds the whole tensor.
    pub sharding: Option<(Sharding, Mesh)>,
}

impl Placement {
    /// The piece of `global` rank `rank` holds.
    pub fn piece(&self, global: &HostTensor, rank: usize) -> RtResult<HostTensor> {
        match &self.sharding {
            None => Ok(global.clone()),
            Some((s, m)) => local_piece(global, s, m, rank as i64),
        }
    }

    /// The global tensor from the pieces of ranks `0..n`.
    pub fn gather(&self, pieces: Vec<HostTensor>) -> RtResult<HostTensor> {
        let with_ranks: Vec<(i64, HostTensor)> = pieces.into_iter().enumerate().map(|(r, p)| (r as i64, p)).collect();
        match &self.sharding {
            Some((s, m)) => gather_global(&with_ranks, &self.global_shape, s, m),
            None => {
                let replicated = Sharding::replicated("", self.global_shape.len());
                let mesh = Mesh::linear("", &(0..with_ranks.len() as i64).collect::<Vec<_>>());
                gather_global(&with_ranks, &self.global_shape, &replicated, &mesh)
            }
        }
    }
}

/// A failure of the driver: the error and, when known, the location attribute to report it at.
#[derive(Clone, Debug)]
pub struct Failure {
    pub loc: Option<Attr>,
    pub error: RtError,
}

impl From<RtError> for Failure {
    fn from(error: RtError) -> Failure {
        Failure { loc: None, error }
    }
}

fn static_shape(shape: &[i64]) -> RtResult<Vec<usize>> {
    shape.iter().map(|&d| usize::try_from(d).map_err(|_| RtError::new("inputs need static shapes"))).collect()
}

/// The placements of the arguments (`key = "arg_attrs"`) or results (`"res_attrs"`) of a
/// host function.
pub fn placements(ctx: &Context, ir: &Ir, func: OpId, key: &str) -> RtResult<Vec<Placement>> {
    let (inputs, results) =
        fuser_dialects::func::signature(ctx, ir, func).ok_or_else(|| RtError::new("function without a signature"))?;
    let types = if key == "arg_attrs" { inputs } else { results };
    let dicts: Vec<Attr> = match ir.props(func).and_then(|p| ctx.dict_get(p, key)).map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Array(items)) => items.clone(),
        _ => Vec::new(),
    };
    types
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            let global =
                dicts.get(i).and_then(|&d| ctx.dict_get(d, GLOBAL_TYPE_ATTR)).and_then(|a| match ctx.attr_kind(a) {
                    AttrKind::Type(t) => Some(*t),
                    _ => None,
                });
            if let Some(g) = global {
                let (dtype, global_shape) = reference::tensor_type(ctx, g)?;
                let sharding = match Sharding::of_type(ctx, g) {
                    None => None,
                    Some(s) => {
                        let mesh = Mesh::lookup(ctx, ir, func, &s.mesh)
                            .ok_or_else(|| RtError::new(format!("mesh @{} not found", s.mesh)))?;
                        Some((s, mesh))
                    }
                };
                return Ok(Placement { dtype, global_shape, sharding });
            }
            let b = BufferType::of(ctx, t).ok_or_else(|| RtError::new(format!("#{i} is not a host buffer")))?;
            Ok(Placement { dtype: DType::of(ctx, b.elem)?, global_shape: static_shape(&b.shape)?, sharding: None })
        })
        .collect()
}

/// Checks that the meshes of the placements fit `ranks` ranks (rank r = device r).
fn check_meshes(placements: &[Placement], ranks: usize) -> RtResult<()> {
    for (_, mesh) in placements.iter().filter_map(|p| p.sharding.as_ref()) {
        let mut devices = mesh.devices.clone();
        devices.sort_unstable();
        if devices != (0..ranks as i64).collect::<Vec<_>>() {
            return Err(RtError::new(format!(
                "mesh @{} has devices {:?}, but --ranks {ranks} runs {} (rank r runs device r)",
                mesh.name,
                mesh.devices,
                rank_range(ranks)
            )));
        }
    }
    Ok(())
}

/// `n` values of input `index` (of `dtype`) from `values`, repeated in order; an integer type
/// takes integers of its range only, a float type rounds to nearest even.
fn given_values(index: usize, dtype: DType, n: usize, values: &[f64]) -> RtResult<Vec<f64>> {
    if values.is_empty() {
        return Err(RtError::new(format!("--input-values gives no values for input #{index}")));
    }
    if let Some(bad) = values.iter().find(|&&v| dtype.is_int() && crate::dtype::round_to(dtype, v) != v) {
        return Err(RtError::new(format!(
            "--input-values: {bad} is not a value of input #{index}'s type {}",
            dtype.name()
        )));
    }
    Ok((0..n).map(|k| crate::dtype::round_to(dtype, values[k % values.len()])).collect())
}

/// The `n` values of a raw file of little-endian `dtype` elements.
pub fn read_raw(path: &std::path::Path, dtype: DType, n: usize) -> Result<Vec<f64>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read it: {e}"))?;
    let size = dtype.size();
    if bytes.len() != n * size {
        return Err(format!(
            "it holds {} bytes; the input needs {n} {} values ({} bytes)",
            bytes.len(),
            dtype.name(),
            n * size
        ));
    }
    Ok(bytes
        .chunks_exact(size)
        .map(|b| if dtype.is_int() { dtype.read_int(b) as f64 } else { dtype.read(b) })
        .collect())
}

/// The values of `t` as a raw file of little-endian elements of its type.
pub fn raw_bytes(t: &HostTensor) -> Vec<u8> {
    let size = t.dtype.size();
    let mut out = vec![0u8; t.data.len() * size];
    for (chunk, &v) in out.chunks_exact_mut(size).zip(&t.data) {
        if t.dtype.is_int() {
            t.dtype.write_int(chunk, crate::numerics::float_to_int(t.dtype, v));
        } else {
            t.dtype.write(chunk, v);
        }
    }
    out
}

/// The seeded global inputs of the placements (argument `i` uses seed `seed * 1000003 + i`).
pub fn generate_inputs(placements: &[Placement], seed: u64) -> Vec<HostTensor> {
    placements
        .iter()
        .enumerate()
        .map(|(i, p)| HostTensor::random(p.dtype, &p.global_shape, seed.wrapping_mul(1_000_003).wrapping_add(i as u64)))
        .collect()
}

/// Per-rank results of a run.
#[derive(Clone, Debug)]
pub struct RankSummary {
    /// Wall time of each measured iteration, in seconds.
    pub times_s: Vec<f64>,
    /// Totals over all iterations (warmup included).
    pub stats: RankStats,
}

/// What a run produced.
#[derive(Clone, Debug)]
pub struct RunOutcome {
    pub inputs: Vec<HostTensor>,
    pub outputs: Vec<HostTensor>,
    pub ranks: Vec<RankSummary>,
    pub trace: Vec<TraceEvent>,
    /// Iterations run per rank (warmup + measured).
    pub iterations: usize,
}

const RANK_STACK: usize = 64 << 20;

/// Runs `prog` (prepared from `func`) on `cfg.ranks` CPU ranks with seeded inputs.
pub fn run_on_cpu(ctx: &Context, ir: &Ir, func: OpId, prog: &Program, cfg: &RunConfig) -> Result<RunOutcome, Failure> {
    if cfg.cuda_graph {
        return Err(RtError::new("--cuda-graph needs --backend cuda (the cpu backend has no graphs)").into());
    }
    let mut backend = CpuBackend::new(cfg.ranks, cfg.trace, cfg.timeout);
    if cfg.check_races {
        backend = backend.with_race_checker();
    }
    run_on(&backend, ctx, ir, func, prog, cfg)
}

/// Runs `prog` on `cfg.ranks` GPUs of this machine (rank r on GPU r, or on GPU
/// `cfg.devices[r]`) with seeded inputs.
#[cfg(feature = "cuda")]
pub fn run_on_cuda(ctx: &Context, ir: &Ir, func: OpId, prog: &Program, cfg: &RunConfig) -> Result<RunOutcome, Failure> {
    if cfg.check_races {
        return Err(RtError::new("--check-races needs --backend cpu (the race checker watches the cpu streams)").into());
    }
    let devices = match &cfg.devices {
        Some(d) => d.clone(),
        None => (0..cfg.ranks).collect(),
    };
    if devices.len() != cfg.ranks {
        let msg = format!("--devices names {} GPUs for {} ranks (one per rank)", devices.len(), cfg.ranks);
        return Err(RtError::new(msg).into());
    }
    if cfg.cuda_graph && cfg.trace {
        return Err(RtError::new("--cuda-graph with --trace: the trace's timing events cannot be replayed").into());
    }
    let mut backend = crate::cuda::CudaBackend::on_devices(&devices, cfg.timeout)?.with_gemm(cfg.gemm);
    if cfg.trace {
        backend = backend.with_trace();
    }
    run_on(&backend, ctx, ir, func, prog, cfg)
}

/// Runs `prog` on `cfg.ranks` ranks of `backend`, one host thread per rank.
pub fn run_on<B: Backend>(
    backend: &B,
    ctx: &Context,
    ir: &Ir,
    func: OpId,
    prog: &Program,
    cfg: &RunConfig,
) -> Result<RunOutcome, Failure> {
    let io = RunIo::new(ctx, ir, func, cfg)?;
    let per_rank = run_ranks(backend, 0..cfg.ranks, prog, &io, cfg)?;
    io.assemble(per_rank, cfg, backend.trace_events())
}

/// The placements and seeded global inputs of a run (every process of a multi-process run
/// computes the same ones).
pub struct RunIo {
    pub args: Vec<Placement>,
    pub results: Vec<Placement>,
    pub inputs: Vec<HostTensor>,
    /// Where each output comes from in the run function (for errors about an output).
    pub origins: Vec<Option<OutputOrigin>>,
}

/// What one rank produced: its iteration times, its counters and its output pieces.
#[derive(Clone, Debug)]
pub struct RankResult {
    pub times_s: Vec<f64>,
    pub stats: RankStats,
    pub pieces: Vec<HostTensor>,
    /// Iterations executed (warmup and measured; with a graph, the capture's replay too).
    pub iterations: usize,
}

impl RunIo {
    pub fn new(ctx: &Context, ir: &Ir, func: OpId, cfg: &RunConfig) -> Result<RunIo, Failure> {
        let args = placements(ctx, ir, func, "arg_attrs")?;
        let mut inputs = generate_inputs(&args, cfg.seed);
        for (i, values) in &cfg.input_values {
            let Some(t) = inputs.get_mut(*i) else {
                return Err(RtError::new(format!(
                    "--input-values names input #{i}, the function takes {} inputs",
                    args.len()
                ))
                .into());
            };
            t.data = given_values(*i, t.dtype, t.numel(), values)?;
        }
        for (i, path) in &cfg.input_files {
            let n = args.len();
            let t = inputs
                .get_mut(*i)
                .ok_or_else(|| RtError::new(format!("--input-file names input #{i}, the function takes {n} inputs")))?;
            t.data = read_raw(path, t.dtype, t.numel())
                .map_err(|m| RtError::new(format!("--input-file {i}={}: {m}", path.display())))?;
        }
        RunIo::with_inputs(ctx, ir, func, cfg, inputs)
    }

    /// The placements of a run on the caller's global inputs (an embedder's tensors): one per
    /// argument, of the argument's global shape; values are converted to the argument's element
    /// type as `fusion.cast` does (an f64 `0.1` given for a bf16 argument runs, and is checked,
    /// as bf16's `0.1`; a `2.7` for an integer argument is 2).
    pub fn with_inputs(
        ctx: &Context,
        ir: &Ir,
        func: OpId,
        cfg: &RunConfig,
        inputs: Vec<HostTensor>,
    ) -> Result<RunIo, Failure> {
        let args = placements(ctx, ir, func, "arg_attrs")?;
        let results = placements(ctx, ir, func, "res_attrs")?;
        check_meshes(&args, cfg.ranks)?;
        check_meshes(&results, cfg.ranks)?;
        if inputs.len() != args.len() {
            return Err(
                RtError::new(format!("the function takes {} inputs, {} given", args.len(), inputs.len())).into()
            );
        }
        let inputs = inputs
            .into_iter()
            .zip(&args)
            .enumerate()
            .map(|(i, (t, p))| {
                if t.shape != p.global_shape {
                    let msg = format!("input #{i}: shape {:?} given, the function takes {:?}", t.shape, p.global_shape);
                    return Err(RtError::new(msg));
                }
                let data = t.data.iter().map(|&v| crate::dtype::round_to(p.dtype, v)).collect();
                HostTensor::new(p.dtype, t.shape, data)
            })
            .collect::<RtResult<Vec<_>>>()?;
        let origins = output_origins(ctx, ir, func, results.len());
        Ok(RunIo { args, results, inputs, origins })
    }

    /// The outcome from the results of ranks `0..n`, in rank order, and the trace events.
    pub fn assemble(
        self,
        per_rank: Vec<RankResult>,
        cfg: &RunConfig,
        trace: Vec<TraceEvent>,
    ) -> Result<RunOutcome, Failure> {
        self.check_rank_results(&per_rank, cfg)?;
        let mut outputs = Vec::new();
        for (i, p) in self.results.iter().enumerate() {
            let pieces: Vec<HostTensor> = per_rank.iter().map(|r| r.pieces[i].clone()).collect();
            let origin = self.origins.get(i).and_then(Option::as_ref);
            outputs.push(p.gather(pieces).map_err(|e| output_failure(i, origin, e))?);
        }
        let iterations = per_rank.first().map_or(cfg.warmup + cfg.iters.max(1), |r| r.iterations);
        let ranks = per_rank.into_iter().map(|r| RankSummary { times_s: r.times_s, stats: r.stats }).collect();
        Ok(RunOutcome { inputs: self.inputs, outputs, ranks, trace, iterations })
    }
}

impl RunIo {
    /// What the ranks reported fits the function: one result per rank of the run, each with
    /// one piece per function result, of the result's element type (ranks of a
    /// multi-process run that ran different programs report anything; rank 0 names the one
    /// that does not fit instead of failing on it).
    fn check_rank_results(&self, per_rank: &[RankResult], cfg: &RunConfig) -> RtResult<()> {
        if per_rank.len() != cfg.ranks {
            return Err(RtError::new(format!("{} rank results for a run of {} ranks", per_rank.len(), cfg.ranks)));
        }
        for (rank, r) in per_rank.iter().enumerate() {
            if r.pieces.len() != self.results.len() {
                return Err(RtError::new(format!(
                    "reported {} result(s), the function returns {} (do the ranks run the same program?)",
                    r.pieces.len(),
                    self.results.len()
                ))
                .on_rank(rank));
            }
            for (i, (piece, p)) in r.pieces.iter().zip(&self.results).enumerate() {
                if piece.dtype != p.dtype {
                    return Err(RtError::new(format!(
                        "reported result #{i} as {}, the function returns {} (do the ranks run the same program?)",
                        piece.dtype.name(),
                        p.dtype.name()
                    ))
                    .on_rank(rank));
                }
            }
        }
        Ok(())
    }
}

/// An error about output `index`, at the location of the value behind it when known.
fn output_failure(index: usize, origin: Option<&OutputOrigin>, e: RtError) -> Failure {
    match origin {
        Some(o) => Failure { loc: Some(o.loc), error: RtError::new(format!("{}: {}", o.describe(), e.message)) },
        None => RtError::new(format!("output #{index}: {}", e.message)).into(),
    }
}

/// Runs the ranks `hosted` of `backend`, one host thread each; the results in rank order, or
/// the first failure (an aborted rank's error only when no rank has a better one).
pub fn run_ranks<B: Backend>(
    backend: &B,
    hosted: std::ops::Range<usize>,
    prog: &Program,
    io: &RunIo,
    cfg: &RunConfig,
) -> Result<Vec<RankResult>, Failure> {
    let steps = capture::schedule(cfg.warmup, cfg.iters, cfg.cuda_graph && graph_fallback(prog, cfg).is_none());
    let iterations = capture::executed(&steps);
    let steps = &steps;
    let per_rank: Vec<RtResult<(Vec<f64>, Vec<HostTensor>)>> = std::thread::scope(|s| {
        let handles: Vec<_> = hosted
            .clone()
            .map(|rank| {
                std::thread::Builder::new().name(format!("rank {rank}")).stack_size(RANK_STACK).spawn_scoped(
                    s,
                    move || {
                        let progress = if rank == 0 { cfg.progress.as_ref() } else { None };
                        let r = run_rank(prog, backend, rank, (&io.args, &io.results), &io.inputs, steps, progress);
                        if let Err(e) = &r {
                            backend.abort(rank, e);
                        }
                        r
                    },
                )
            })
            .collect();
        handles
            .into_iter()
            .zip(hosted.clone())
            .map(|(h, rank)| match h {
                Ok(h) => h.join().unwrap_or_else(|_| Err(RtError::new("rank thread panicked").on_rank(rank))),
                Err(e) => Err(RtError::new(format!("cannot start rank thread: {e}")).on_rank(rank)),
            })
            .collect()
    });
    let mut ok = Vec::new();
    let mut errors = Vec::new();
    for (r, rank) in per_rank.into_iter().zip(hosted) {
        match r {
            Ok((times_s, pieces)) => {
                ok.push(RankResult { times_s, stats: backend.rank_stats(rank), pieces, iterations })
            }
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        let root = errors.iter().find(|e| !e.message.starts_with("aborted:")).unwrap_or(&errors[0]).clone();
        let loc = root.op.as_ref().map(|_| prog.error_loc(&root));
        return Err(Failure { loc, error: root });
    }
    Ok(ok)
}

/// One rank: upload its pieces, run the iterations, download the outputs of the last one.
fn run_rank<B: Backend>(
    prog: &Program,
    backend: &B,
    rank: usize,
    (args, results): (&[Placement], &[Placement]),
    inputs: &[HostTensor],
    steps: &[capture::Step],
    progress: Option<&Progress>,
) -> RtResult<(Vec<f64>, Vec<HostTensor>)> {
    let mut bufs = Vec::new();
    for (i, (p, g)) in args.iter().zip(inputs).enumerate() {
        let piece =
            p.piece(g, rank).map_err(|e| RtError::new(format!("argument #{i}: {}", e.message)).on_rank(rank))?;
        let (expected, _) = &prog.arg_types[i];
        if expected.len() != piece.shape.len()
            || expected.iter().zip(&piece.shape).any(|(&e, &s)| e >= 0 && e as usize != s)
        {
            return Err(RtError::new(format!(
                "argument #{i}: rank {rank} holds a {:?} piece of the global {:?}, the function takes {expected:?}",
                piece.shape, p.global_shape
            )));
        }
        let b = backend.alloc(rank, p.dtype, &piece.shape, false, &OpKey::default())?;
        backend.write(&b, &piece.data)?;
        bufs.push(b);
    }
    let mut times = Vec::new();
    let mut outs = Vec::new();
    for (it, step) in steps.iter().enumerate() {
        let start = Instant::now();
        let timed = match *step {
            capture::Step::Eager { timed } => {
                outs = run_program(prog, backend, rank, &bufs)?;
                timed
            }
            capture::Step::Capture => {
                backend.capture_begin(rank).map_err(|e| e.on_rank(rank))?;
                outs = run_program(prog, backend, rank, &bufs).map_err(|e| RtError {
                    message: format!("--cuda-graph: capturing the iteration failed: {}", e.message),
                    ..e
                })?;
                backend.replay(rank).map_err(|e| e.on_rank(rank))?;
                false
            }
            capture::Step::Replay { timed } => {
                backend.replay(rank).map_err(|e| e.on_rank(rank))?;
                timed
            }
        };
        if timed {
            times.push(start.elapsed().as_secs_f64());
        }
        if let Some(p) = progress {
            (p.0)(it + 1, steps.len());
        }
    }
    if outs.len() != results.len() {
        return Err(RtError::new(format!(
            "the function returned {} values, its signature {}",
            outs.len(),
            results.len()
        )));
    }
    let pieces = outs
        .iter()
        .zip(results)
        .map(|(v, p)| HostTensor::new(p.dtype, backend.shape(v), backend.read(v)?))
        .collect::<RtResult<_>>()?;
    Ok((times, pieces))
}

/// Why a run that asks for `--cuda-graph` runs eagerly instead (the first op that cannot be
/// captured), or `None` when it is captured (or no graph was asked for).
pub fn graph_fallback(prog: &Program, cfg: &RunConfig) -> Option<String> {
    if !cfg.cuda_graph {
        return None;
    }
    let blockers = capture::blockers(prog);
    let first = blockers.first()?;
    Some(format!(
        "--cuda-graph: running eagerly, @{} cannot be captured: {}{}",
        prog.name,
        first.describe(prog),
        match blockers.len() {
            1 => String::new(),
            n => format!(" (and {} more op(s))", n - 1),
        }
    ))
}

/// The comparison of one output with the reference.
#[derive(Clone, Debug, PartialEq)]
pub struct OutputCheck {
    pub rel_err: f64,
    pub tolerance: f64,
    pub dtype: DType,
    /// The type whose tolerance applies: `dtype`, or the least precise float type the reference
    /// computes a float output through (`precision.rs`: an f32 cast of a bf16 sum is held to
    /// bf16's tolerance).
    pub precision: DType,
    /// The value behind the output in the reference function.
    pub origin: Option<OutputOrigin>,
}

impl OutputCheck {
    pub fn passed(&self) -> bool {
        self.rel_err <= self.tolerance
    }

    /// The output's type for reports, with the type whose tolerance applies when that is
    /// another: `f32`, `f32 computed in bf16`.
    pub fn type_text(&self) -> String {
        if self.precision == self.dtype {
            self.dtype.name().to_string()
        } else {
            format!("{} computed in {}", self.dtype.name(), self.precision.name())
        }
    }
}

/// Evaluates the fusion-level `ref_func` on the global inputs and compares every output, each
/// at the tolerance of the least precise type it is computed through ([`check_precision`]).
pub fn check_against_reference(
    ctx: &Context,
    ref_ir: &Ir,
    ref_func: OpId,
    inputs: &[HostTensor],
    outputs: &[HostTensor],
) -> Result<Vec<OutputCheck>, Failure> {
    let expected =
        reference::evaluate(ctx, ref_ir, ref_func, inputs).map_err(|(loc, error)| Failure { loc: Some(loc), error })?;
    if expected.len() != outputs.len() {
        return Err(
            RtError::new(format!("the reference has {} results, the run {}", expected.len(), outputs.len())).into()
        );
    }
    let origins = output_origins(ctx, ref_ir, ref_func, outputs.len());
    let returned = returned_values(ctx, ref_ir, ref_func);
    outputs
        .iter()
        .zip(&expected)
        .zip(origins)
        .enumerate()
        .map(|(i, ((out, reference), origin))| {
            let rel_err = out.rel_error(reference).map_err(|e| output_failure(i, origin.as_ref(), e))?;
            let precision = returned.get(i).map_or(out.dtype, |&v| check_precision(ctx, ref_ir, v, out.dtype));
            Ok(OutputCheck { rel_err, tolerance: precision.tolerance(), dtype: out.dtype, precision, origin })
        })
        .collect()
}

/// Whether `func` is fusion-level (takes or returns tensors).
pub fn is_fusion_level(ctx: &Context, ir: &Ir, func: OpId) -> bool {
    fuser_dialects::func::signature(ctx, ir, func).is_some_and(|(ins, outs)| {
        ins.iter().chain(outs).any(|&t| matches!(ctx.type_kind(t), TypeKind::RankedTensor { .. }))
    })
}

/// The first `func.func` with a body directly inside `module`.
pub fn first_function(ctx: &Context, ir: &Ir, module: OpId) -> Option<OpId> {
    let region = *ir.regions(module).first()?;
    let block = ir.region_entry(region)?;
    ir.block_ops(block)
        .find(|&op| ctx.op_name_str(ir.op_name(op)) == "func.func" && !fuser_dialects::func::is_declaration(ir, op))
}

/// The GEMM extents `(m, n, k)` of the first matmul or linear of a fusion-level function.
pub fn gemm_extents(ctx: &Context, ir: &Ir, func: OpId) -> Option<(usize, usize, usize)> {
    let entry = ir.regions(func).first().and_then(|&r| ir.region_entry(r))?;
    for op in ir.block_ops(entry) {
        let name = ctx.op_name_str(ir.op_name(op));
        if name != "fusion.matmul" && name != "fusion.linear" {
            continue;
        }
        let ops = ir.operands(op);
        let (_, a) = reference::tensor_type(ctx, ir.value_type(*ops.first()?)).ok()?;
        let (_, b) = reference::tensor_type(ctx, ir.value_type(*ops.get(1)?)).ok()?;
        let k = *a.last()?;
        let m: usize = a[..a.len() - 1].iter().product();
        let n = if name == "fusion.linear" { *b.first()? } else { *b.last()? };
        return Some((m, n, k));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_ranges_read_correctly_for_every_count() {
        assert_eq!(rank_range(1), "rank 0");
        assert_eq!(rank_range(2), "ranks 0..=1");
        assert_eq!(rank_range(4), "ranks 0..=3");
    }

    #[test]
    fn a_mesh_that_does_not_fit_the_ranks_names_them() {
        let p = |devices: &[i64]| Placement {
            dtype: DType::F32,
            global_shape: vec![4],
            sharding: Some((Sharding::replicated("tp", 1), Mesh::linear("tp", devices))),
        };
        assert!(check_meshes(&[p(&[0, 1])], 2).is_ok());
        let e = check_meshes(&[p(&[0, 1])], 1).unwrap_err();
        assert_eq!(e.message, "mesh @tp has devices [0, 1], but --ranks 1 runs rank 0 (rank r runs device r)");
        let e = check_meshes(&[p(&[0, 1, 2, 3])], 2).unwrap_err();
        assert!(e.message.ends_with("--ranks 2 runs ranks 0..=1 (rank r runs device r)"), "{}", e.message);
    }

    /// The check against the per-type reference: the cpu kernels' results pass; a kernel with
    /// the old (wrong) semantics, or one element off by one ulp/unit, fails.
    #[test]
    fn the_check_passes_the_kernels_and_fails_a_wrong_kernel() {
        use crate::buffer::{Buffer, View};
        use fuser_dialects::host::ElementwiseKind;
        use fuser_ir::diag::SourceFile;
        let ctx = Context::new(fuser_dialects::registry());
        // (op, element type of inputs, of the result, lhs, rhs, the old semantics)
        type Wrong = fn(f64, f64) -> f64;
        type Case = (&'static str, &'static str, &'static str, Vec<f64>, Vec<f64>, Wrong);
        let cases: [Case; 4] = [
            ("div", "i32", "i32", vec![7.0, -7.0, 5.0, 1.0], vec![2.0, 2.0, 0.0, 3.0], |a, b| (a / b).round()),
            ("add", "i8", "i8", vec![100.0, -100.0, 1.0, 2.0], vec![100.0, -100.0, 1.0, 2.0], |a, b| {
                (a + b).clamp(-128.0, 127.0)
            }),
            ("mul", "f16", "f16", vec![300.0, -300.0, 0.5, 2.0], vec![300.0, 300.0, 0.5, 2.0], |a, b| {
                (a * b).clamp(-65504.0, 65504.0)
            }),
            ("cast", "f32", "i32", vec![2.5, -2.5, 2.9, 1e10], vec![], |a, _| {
                a.round().clamp(-2147483648.0, 2147483647.0)
            }),
        ];
        for (op, from, to, lhs, rhs, wrong) in cases {
            let binary = !rhs.is_empty();
            let (args, operands, types) = if binary {
                (
                    format!("%a: tensor<4x{from}>, %b: tensor<4x{from}>"),
                    "%a, %b".to_string(),
                    format!("tensor<4x{from}>, tensor<4x{from}>"),
                )
            } else {
                (format!("%a: tensor<4x{from}>"), "%a".to_string(), format!("tensor<4x{from}>"))
            };
            let text = format!(
                "func.func @f({args}) -> tensor<4x{to}> {{\n  %r = fusion.{op} {operands} : ({types}) -> tensor<4x{to}>\n  return %r : tensor<4x{to}>\n}}"
            );
            let mut ir = Ir::new();
            let m = fuser_ir::parser::parse_source_all(&ctx, &mut ir, &SourceFile::new("t.mlir", text.clone().into()))
                .unwrap_or_else(|e| panic!("{text}: {e:?}"));
            let f = first_function(&ctx, &ir, m).unwrap();
            let dtype = |name: &str| DType::ALL.into_iter().find(|d| d.name() == name).unwrap();
            let (dfrom, dto) = (dtype(from), dtype(to));
            let mut inputs = vec![HostTensor::new(dfrom, vec![4], lhs.clone()).unwrap()];
            if binary {
                inputs.push(HostTensor::new(dfrom, vec![4], rhs.clone()).unwrap());
            }
            // The run: the cpu kernel on buffers.
            let views: Vec<View> = inputs
                .iter()
                .map(|t| {
                    let v = View::whole(Buffer::new(dfrom, 4), &[4]).unwrap();
                    v.write(&t.data).unwrap();
                    v
                })
                .collect();
            let out = View::whole(Buffer::new(dto, 4), &[4]).unwrap();
            let kind = ElementwiseKind::from_keyword(op).unwrap();
            crate::cpu::kernels::elementwise(kind, &views, &out).unwrap();
            let run = HostTensor::new(dto, vec![4], out.read()).unwrap();
            let checks = check_against_reference(&ctx, &ir, f, &inputs, std::slice::from_ref(&run)).unwrap();
            assert!(checks[0].passed(), "{op} {from}: the kernel's {:?} fails the check: {checks:?}", run.data);
            // The old semantics, stored in the result type.
            let old: Vec<f64> = (0..4)
                .map(|i| crate::dtype::round_to(dto, wrong(lhs[i], rhs.get(i).copied().unwrap_or(0.0))))
                .collect();
            assert_ne!(old, run.data, "{op} {from}: the wrong kernel must differ");
            let old = HostTensor::new(dto, vec![4], old).unwrap();
            let checks = check_against_reference(&ctx, &ir, f, &inputs, &[old]).unwrap();
            assert!(!checks[0].passed(), "{op} {from}: a wrong kernel passes the check");
            // One element perturbed by one unit (integers) or to a finite value (floats).
            let mut off = run.clone();
            off.data[3] += 1.0;
            let checks = check_against_reference(&ctx, &ir, f, &inputs, &[off]).unwrap();
            assert!(!checks[0].passed(), "{op} {from}: an element off by one passes the check");
        }
    }

    /// An f32 cast of a bf16 sum over rows split over 3 ranks: each rank rounds its partial
    /// sum to bf16 and the allreduce rounds their sum again (fusion.md, "Numeric semantics"),
    /// one bf16 unit away from the reference's single rounding. The check holds the output to
    /// bf16's tolerance (it is computed in bf16), not f32's; a partial sum left out still
    /// fails, and the same values fail an f32 computation.
    #[test]
    fn an_f32_cast_of_a_bf16_sharded_sum_is_checked_at_bf16_tolerance() {
        use crate::dtype::round_to;
        use fuser_ir::diag::SourceFile;
        let ctx = Context::new(fuser_dialects::registry());
        let program = |elem: &str| {
            let text = format!(
                "func.func @f(%a: tensor<6x1xbf16>) -> tensor<1x1xf32> {{
  %w = fusion.cast %a : (tensor<6x1xbf16>) -> tensor<6x1x{elem}>
  %s = fusion.sum %w dims = [0] keep_dims : (tensor<6x1x{elem}>) -> tensor<1x1x{elem}>
  %c = fusion.cast %s : (tensor<1x1x{elem}>) -> tensor<1x1xf32>
  return %c : tensor<1x1xf32>
}}"
            );
            let mut ir = Ir::new();
            let m = fuser_ir::parser::parse_source_all(&ctx, &mut ir, &SourceFile::new("t.mlir", text.into())).unwrap();
            let f = first_function(&ctx, &ir, m).unwrap();
            (ir, f)
        };
        // Rows 1 + 5/1024 per rank: each partial rounds up to 1 + 1/128, their sum ties to even.
        let rows = vec![1.0, 5.0 / 1024.0, 1.0, 5.0 / 1024.0, 1.0, 5.0 / 1024.0];
        let inputs = [HostTensor::new(DType::BF16, vec![6, 1], rows.clone()).unwrap()];
        let bf16 = |v: f64| round_to(DType::BF16, v);
        let partials: Vec<f64> = rows.chunks(2).map(|c| bf16(c[0] + c[1])).collect();
        let sharded = bf16(partials.iter().sum());
        assert_ne!(sharded, bf16(rows.iter().sum()), "the partials' rounding must show");
        let out = |v: f64| [HostTensor::new(DType::F32, vec![1, 1], vec![v]).unwrap()];
        let (ir, f) = program("bf16");
        let checks = check_against_reference(&ctx, &ir, f, &inputs, &out(sharded)).unwrap();
        assert!(checks[0].passed(), "{checks:?}");
        assert!(checks[0].rel_err > DType::F32.tolerance(), "{checks:?}");
        assert_eq!((checks[0].precision, checks[0].type_text().as_str()), (DType::BF16, "f32 computed in bf16"));
        let missing = bf16(partials[0] + partials[1]);
        assert!(!check_against_reference(&ctx, &ir, f, &inputs, &out(missing)).unwrap()[0].passed());
        let (ir, f) = program("f32");
        let checks = check_against_reference(&ctx, &ir, f, &inputs, &out(sharded)).unwrap();
        assert!(!checks[0].passed(), "{checks:?}");
        assert_eq!(checks[0].precision, DType::F32);
    }

    /// Rank 0 of a multi-process run assembles what the other processes reported: a rank
    /// with fewer results (it ran another program) was an index out of bounds here.
    #[test]
    fn rank_results_that_do_not_fit_the_function_name_the_rank() {
        let result = Placement { dtype: DType::F32, global_shape: vec![2], sharding: None };
        let io =
            || RunIo { args: vec![], results: vec![result.clone(), result.clone()], inputs: vec![], origins: vec![] };
        let piece = |dtype| HostTensor::new(dtype, vec![2], vec![1.0, 2.0]).unwrap();
        let rank = |pieces: Vec<HostTensor>| RankResult {
            times_s: vec![0.1],
            stats: Default::default(),
            pieces,
            iterations: 1,
        };
        let cfg = RunConfig { ranks: 3, ..Default::default() };
        let two = || rank(vec![piece(DType::F32), piece(DType::F32)]);
        assert!(io().assemble(vec![two(), two(), two()], &cfg, vec![]).is_ok());
        let e = io().assemble(vec![two(), two(), rank(vec![piece(DType::F32)])], &cfg, vec![]).err().unwrap();
        assert_eq!(e.error.rank, Some(2));
        assert!(e.error.message.contains("reported 1 result(s), the function returns 2"), "{}", e.error);
        let e = io().assemble(vec![two(), rank(vec![piece(DType::F32), piece(DType::F16)]), two()], &cfg, vec![]);
        let e = e.err().unwrap();
        assert_eq!(e.error.rank, Some(1));
        assert!(e.error.message.contains("reported result #1 as f16, the function returns f32"), "{}", e.error);
        let e = io().assemble(vec![two(), two()], &cfg, vec![]).err().unwrap();
        assert!(e.error.message.contains("2 rank results for a run of 3 ranks"), "{}", e.error);
    }

    #[test]
    fn caller_inputs_are_checked_and_rounded_to_the_argument_type() {
        use fuser_ir::diag::SourceFile;
        let ctx = Context::new(fuser_dialects::registry());
        let mut ir = Ir::new();
        let text = "func.func @f(%a: !host.buf<2xbf16>) -> !host.buf<2xbf16> {\n  return %a : !host.buf<2xbf16>\n}";
        let m = fuser_ir::parser::parse_source_all(&ctx, &mut ir, &SourceFile::new("t.mlir", text.into())).unwrap();
        let f = first_function(&ctx, &ir, m).unwrap();
        let cfg = RunConfig::default();
        let given = |shape: Vec<usize>| HostTensor::new(DType::F64, shape.clone(), vec![0.1; shape.iter().product()]);
        let io = RunIo::with_inputs(&ctx, &ir, f, &cfg, vec![given(vec![2]).unwrap()]).unwrap();
        assert_eq!(io.inputs[0].dtype, DType::BF16);
        assert_eq!(io.inputs[0].data, vec![crate::dtype::round_to(DType::BF16, 0.1); 2]);
        assert_ne!(io.inputs[0].data[0], 0.1);
        let e = RunIo::with_inputs(&ctx, &ir, f, &cfg, vec![given(vec![3]).unwrap()]).err().unwrap();
        assert_eq!(e.error.message, "input #0: shape [3] given, the function takes [2]");
        let e = RunIo::with_inputs(&ctx, &ir, f, &cfg, Vec::new()).err().unwrap();
        assert_eq!(e.error.message, "the function takes 1 inputs, 0 given");
    }

    #[test]
    fn raw_files_round_trip_in_the_element_type() {
        let dir = std::env::temp_dir().join(format!("fuser-raw-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (dtype, values) in [
            (DType::BF16, vec![1.0, -2.5, 0.1f64, f64::INFINITY]),
            (DType::I64, vec![3.0, -7.0, 123456.0, 0.0]),
            (DType::F32, vec![0.1, 1e-30, -0.0, 3.5]),
        ] {
            let t = HostTensor {
                dtype,
                shape: vec![2, 2],
                data: values.iter().map(|&v| crate::dtype::round_to(dtype, v)).collect(),
            };
            let path = dir.join(format!("{}.bin", dtype.name()));
            std::fs::write(&path, raw_bytes(&t)).unwrap();
            assert_eq!(std::fs::metadata(&path).unwrap().len() as usize, 4 * dtype.size());
            assert_eq!(read_raw(&path, dtype, 4).unwrap(), t.data);
            assert!(read_raw(&path, dtype, 5).unwrap_err().contains("needs 5"));
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}
