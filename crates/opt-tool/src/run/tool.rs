//! The work of `fuser-run` once its flags are parsed: read and parse the input, lower a
//! fusion-level program with the pass pipeline, prepare and run the host function on the CPU
//! backend, gather the outputs, compare them with the reference, and write the summary, the
//! trace and the CSV row. Every error is printed as a diagnostic; the result is success.

use crate::check;
use crate::cli::RunArgs;
use crate::io_error::io_error_text;
use crate::ranks::default_ranks;
use crate::report::Reporter;
use crate::services;
use fuser_ir::diag::SourceFile;
use fuser_ir::pass::PipelineError;
use fuser_ir::pass::{LogEntry, OpPassManager, PassManager, PassManagerConfig};
use fuser_ir::{Context, Diagnostic, Ir, OpId};
use fuser_runtime::driver::{self, RunConfig, RunOutcome};
use fuser_runtime::exec::prepare;
use fuser_runtime::trace::{CSV_HEADER, CsvRow, chrome_trace_json, statistics};
use std::sync::Arc;
use std::time::Duration;

const DEFAULT_PIPELINE: &str = "builtin.module(tp-default)";

/// A parsed and verified module.
struct Module {
    ir: Ir,
    op: OpId,
}

fn read(path: &str) -> Result<String, String> {
    if path == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| format!("cannot read stdin: {}", io_error_text(&e)))?;
        return Ok(s);
    }
    std::fs::read_to_string(path).map_err(|e| format!("cannot open input file '{path}': {}", io_error_text(&e)))
}

fn parse(rep: &mut Reporter, name: &str, text: &Arc<str>) -> Option<Module> {
    let source = SourceFile::new(if name == "-" { "<stdin>" } else { name }, text.clone());
    rep.sources.add(source.clone());
    let parsed = services::parse_source_with(&rep.ctx, &source, true)
        .and_then(|(ir, op)| fuser_ir::pass::adapters::verify_op(&rep.ctx, &ir, op).map(|()| (ir, op)));
    match parsed {
        Ok((ir, op)) => Some(Module { ir, op }),
        Err(errors) => {
            errors.iter().for_each(|d| rep.error(d));
            None
        }
    }
}

/// Applies `--entry` to a parsed module; `None` after reporting why not.
fn select_entry(rep: &Reporter, opts: &RunArgs, m: &mut Module) -> Option<()> {
    let Some(name) = &opts.entry else { return Some(()) };
    crate::entry::keep_only(&rep.ctx, &mut m.ir, m.op, name).map_err(|e| rep.plain(&e)).ok()
}

fn pipeline_text(opts: &RunArgs) -> String {
    match &opts.pass_pipeline {
        None => DEFAULT_PIPELINE.to_string(),
        Some(p) if p.trim_start().starts_with("builtin.module(") => p.clone(),
        Some(p) => format!("builtin.module({p})"),
    }
}

fn lower(rep: &Reporter, m: &mut Module, pipeline: &str) -> bool {
    let passes = services::pass_registry();
    let pm = match OpPassManager::parse(pipeline, &passes) {
        Ok(pm) => pm,
        Err(e) => {
            rep.plain(&pipeline_error_message(&e));
            return false;
        }
    };
    let manager = PassManager { pipeline: pm, config: PassManagerConfig { threading: false, ..Default::default() } };
    let result = manager.run(&rep.ctx, &mut m.ir, m.op);
    for entry in &result.log {
        match entry {
            LogEntry::Text(t) => eprint!("{t}"),
            LogEntry::Diagnostic(d) => rep.error(d),
        }
    }
    result.success
}

/// `--pass-pipeline`'s error: the message, then for a located one the pipeline text and a
/// caret under the offending position.
fn pipeline_error_message(e: &PipelineError) -> String {
    match e {
        PipelineError::Located { source, offset, message } => {
            let caret = " ".repeat(source[..(*offset).min(source.len())].chars().count());
            format!("invalid --pass-pipeline: {message}\n{source}\n{caret}^")
        }
        PipelineError::Plain(message) => format!("invalid --pass-pipeline: {message}"),
    }
}

/// The number of ranks: `--ranks`, or the default of [`default_ranks`].
fn resolve_ranks(rep: &Reporter, opts: &RunArgs, program: &Module) -> Option<usize> {
    if let Some(n) = opts.ranks {
        return Some(n);
    }
    default_ranks(&rep.ctx, &program.ir, program.op).map_err(|d| rep.error(&d)).ok()
}

/// A fresh reporter and the parsed input; `None` after reporting why not.
fn load_input(opts: &RunArgs) -> Option<(Reporter, Arc<str>, Module)> {
    let mut rep = Reporter::new(Context::new(services::dialect_registry()));
    let text: Arc<str> = match read(&opts.input) {
        Ok(t) => Arc::from(t),
        Err(e) => {
            rep.plain(&e);
            return None;
        }
    };
    let mut program = parse(&mut rep, &opts.input, &text)?;
    select_entry(&rep, opts, &mut program)?;
    Some((rep, text, program))
}

/// Reads, parses and verifies the input and the reference, resolves the rank count, lowers a
/// fusion-level input and prepares the host function; `None` after reporting why not.
fn load_and_lower(opts: &RunArgs) -> Option<Loaded> {
    let (mut rep, text, mut program) = load_input(opts)?;
    let ranks = resolve_ranks(&rep, opts, &program)?;
    let Some(func) = driver::first_function(&rep.ctx, &program.ir, program.op) else {
        rep.plain("the input has no func.func with a body to run");
        return None;
    };
    let fusion_level = driver::is_fusion_level(&rep.ctx, &program.ir, func);
    // The reference: the fusion-level input before lowering, or --reference.
    let reference = match (&opts.reference, fusion_level) {
        (Some(path), _) => {
            let rtext: Arc<str> = match read(path) {
                Ok(t) => Arc::from(t),
                Err(e) => {
                    rep.plain(&e);
                    return None;
                }
            };
            let mut m = parse(&mut rep, path, &rtext)?;
            select_entry(&rep, opts, &mut m)?;
            Some(m)
        }
        (None, true) => {
            let mut m = parse(&mut rep, &opts.input, &text)?;
            select_entry(&rep, opts, &mut m)?;
            Some(m)
        }
        (None, false) => None,
    };
    if opts.check
        && reference.as_ref().is_none_or(|m| {
            driver::first_function(&rep.ctx, &m.ir, m.op).is_none_or(|f| !driver::is_fusion_level(&rep.ctx, &m.ir, f))
        })
    {
        rep.plain("--check needs a fusion-level program: the input or --reference FILE");
        return None;
    }
    let pipeline = pipeline_text(opts);
    if fusion_level && !lower(&rep, &mut program, &pipeline) {
        return None;
    }
    let Some(func) = driver::first_function(&rep.ctx, &program.ir, program.op) else {
        rep.plain("the lowered program has no func.func with a body to run");
        return None;
    };
    if driver::is_fusion_level(&rep.ctx, &program.ir, func) {
        rep.error(&Diagnostic::error(
            program.ir.loc(func),
            "the function still takes or returns tensors after lowering",
        ));
        return None;
    }
    let prog = match prepare(&rep.ctx, &program.ir, func) {
        Ok(p) => p,
        Err((loc, message)) => {
            rep.error(&Diagnostic::error(loc, message));
            return None;
        }
    };
    Some(Loaded { rep, text, program, ranks, func, fusion_level, reference, pipeline, prog })
}

/// The input parsed, checked and lowered, ready to run: what every rank of the run needs.
struct Loaded {
    rep: Reporter,
    /// The input's text.
    text: Arc<str>,
    program: Module,
    ranks: usize,
    func: OpId,
    fusion_level: bool,
    reference: Option<Module>,
    pipeline: String,
    prog: fuser_runtime::exec::Program,
}

/// Checks everything a run needs before it starts (the input, the rank count, the reference,
/// the pipeline and the lowering, the host program) and returns the number of ranks; `None`
/// after reporting why not. `--launch` calls it before starting any process, so that a bad
/// input or pipeline is reported once rather than by every rank.
pub fn preflight(opts: &RunArgs) -> Option<usize> {
    load_and_lower(opts).map(|l| l.ranks)
}

/// Runs the tool; returns success.
pub fn run(opts: &RunArgs) -> bool {
    let Some(Loaded { rep, text, program, ranks, func, fusion_level, reference, pipeline, prog }) =
        load_and_lower(opts)
    else {
        return false;
    };
    let cfg = RunConfig {
        ranks,
        seed: opts.seed,
        warmup: opts.warmup,
        iters: opts.iters,
        trace: opts.trace.is_some(),
        timeout: Duration::from_secs_f64(opts.timeout_s),
        check_races: opts.check_races,
        progress: progress_bar(opts.warmup + opts.iters.max(1)),
        devices: opts.devices.clone(),
        cuda_graph: opts.cuda_graph,
        gemm: opts.gemm,
        input_values: opts.input_values.clone(),
        input_files: opts.input_files.clone(),
    };
    if let Some(note) = driver::graph_fallback(&prog, &cfg) {
        eprintln!("fuser-run: note: {note}");
    }
    // What explains a difference between the ranks of a multi-process run (see
    // fuser_runtime::procs::fingerprint).
    let about = [("input file text", &*text), ("pass pipeline", pipeline.as_str())];
    let outcome = match execute(&rep.ctx, &program.ir, func, &prog, &cfg, &opts.backend, &about) {
        Ok(Some(o)) => o,
        // A rank other than 0 of a multi-process run: rank 0 reports.
        Ok(None) => return true,
        Err(f) => {
            rep.failure(&f);
            return false;
        }
    };
    print_summary(&prog.name, opts, ranks, &outcome);
    for (i, path) in &opts.output_files {
        let Some(t) = outcome.outputs.get(*i) else {
            rep.plain(&format!("--output-file names output #{i}, the run has {} outputs", outcome.outputs.len()));
            return false;
        };
        if let Err(e) = std::fs::write(path, fuser_runtime::driver::raw_bytes(t)) {
            rep.plain(&format!("cannot write output #{i} to '{}': {e}", path.display()));
            return false;
        }
    }
    if opts.print_outputs {
        print_outputs(&outcome);
    }
    let mut ok = write_outputs(&rep, opts, ranks, &outcome, reference.as_ref(), (&pipeline, fusion_level));
    if opts.check
        && let Some(m) = &reference
        && let Some(rf) = driver::first_function(&rep.ctx, &m.ir, m.op)
    {
        // The run's own function is worth a note when it is not the reference itself.
        let run = opts.reference.is_some().then_some((&program.ir, func));
        ok &= check::check(&rep, (&m.ir, rf), run, &outcome);
    }
    ok
}

/// Runs the prepared program on the chosen backend; `None` for a process of a multi-process
/// run that is not rank 0 (RANK in the environment, see `fuser-run --help` on --launch).
fn execute(
    ctx: &Context,
    ir: &fuser_ir::Ir,
    func: OpId,
    prog: &fuser_runtime::exec::Program,
    cfg: &RunConfig,
    backend: &str,
    about: &[(&str, &str)],
) -> Result<Option<RunOutcome>, driver::Failure> {
    #[cfg(feature = "cuda")]
    if backend == "cuda" {
        use fuser_runtime::process::{ProcessEnv, run_as_process};
        return match ProcessEnv::from_env(|k| std::env::var(k).ok())? {
            Some(env) => run_as_process(ctx, ir, func, prog, cfg, &env, about),
            None => driver::run_on_cuda(ctx, ir, func, prog, cfg).map(Some),
        };
    }
    let _ = backend;
    match fuser_runtime::process::ProcessEnv::from_env(|k| std::env::var(k).ok())? {
        Some(env) => {
            let fault = fuser_runtime::procs::Fault::from_env(|k| std::env::var(k).ok())?;
            fuser_runtime::procs::run_cpu_process(ctx, ir, func, prog, cfg, &env, fault, about)
        }
        None => driver::run_on_cpu(ctx, ir, func, prog, cfg).map(Some),
    }
}

fn print_summary(name: &str, opts: &RunArgs, ranks: usize, o: &RunOutcome) {
    let mode = if o.iterations > opts.warmup + opts.iters.max(1) { ", measured as cuda graph replays" } else { "" };
    println!(
        "fuser-run: @{name} on {ranks} rank(s), backend {}, {} iteration(s) ({} warmup){mode}",
        opts.backend, o.iterations, opts.warmup
    );
    println!("{:>4}  {:>12}  {:>12}  {:>8}  {:>14}", "rank", "mean ms", "min ms", "ops/it", "bytes moved/it");
    let per_it = |v: u64| v / o.iterations.max(1) as u64;
    for (r, s) in o.ranks.iter().enumerate() {
        let ms: Vec<f64> = s.times_s.iter().map(|t| t * 1e3).collect();
        let (mean, _, min, _) = statistics(&ms);
        println!("{r:>4}  {mean:>12.3}  {min:>12.3}  {:>8}  {:>14}", per_it(s.stats.ops), per_it(s.stats.bytes_moved));
    }
}

/// `output #i (TYPE [SHAPE]): v v v ...`, the first 64 values of each gathered output.
fn print_outputs(o: &RunOutcome) {
    const SHOWN: usize = 64;
    for (i, t) in o.outputs.iter().enumerate() {
        let values: Vec<String> = t.data.iter().take(SHOWN).map(|v| format!("{v}")).collect();
        let more = if t.data.len() > SHOWN { format!(" ... ({} values)", t.data.len()) } else { String::new() };
        println!("output #{i} ({} {:?}): {}{more}", t.dtype.name(), t.shape, values.join(" "));
    }
}

/// The trace and CSV files; returns success.
fn write_outputs(
    rep: &Reporter,
    opts: &RunArgs,
    ranks: usize,
    o: &RunOutcome,
    reference: Option<&Module>,
    (pipeline, fusion_level): (&str, bool),
) -> bool {
    let mut ok = true;
    if let Some(path) = &opts.trace
        && let Err(e) = std::fs::write(path, chrome_trace_json(&o.trace))
    {
        rep.plain(&format!("cannot write trace '{path}': {}", io_error_text(&e)));
        ok = false;
    }
    if let Some(path) = &opts.csv {
        let (m, n, k) = reference
            .and_then(|r| {
                driver::first_function(&rep.ctx, &r.ir, r.op).and_then(|f| driver::gemm_extents(&rep.ctx, &r.ir, f))
            })
            .unwrap_or((0, 0, 0));
        // The slowest rank bounds each iteration.
        let iters = o.ranks.iter().map(|r| r.times_s.len()).min().unwrap_or(0);
        let times_ms = (0..iters).map(|i| o.ranks.iter().map(|r| r.times_s[i] * 1e3).fold(0.0, f64::max)).collect();
        let row = CsvRow {
            m,
            n,
            k,
            dtype: o.outputs.first().or(o.inputs.first()).map_or("none", |t| t.dtype.name()).to_string(),
            implementation: format!("fuser-{}{}", opts.backend, if opts.cuda_graph { "-graph" } else { "" }),
            option: if fusion_level { pipeline.to_string() } else { "host".into() },
            times_ms,
            world_size: ranks,
        };
        if let Err(e) = std::fs::write(path, format!("{CSV_HEADER}\n{}\n", row.to_line())) {
            rep.plain(&format!("cannot write CSV '{path}': {}", io_error_text(&e)));
            ok = false;
        }
    }
    ok
}

/// A progress line on stderr for runs of more than one iteration when stderr is a terminal
/// (`fuser-run: iteration 12/50 [=====     ]`), erased by the last update.
fn progress_bar(iterations: usize) -> Option<fuser_runtime::driver::Progress> {
    use std::io::IsTerminal as _;
    if iterations < 2 || !std::io::stderr().is_terminal() {
        return None;
    }
    Some(fuser_runtime::driver::Progress(std::sync::Arc::new(|done, all| {
        const WIDTH: usize = 30;
        let filled = done * WIDTH / all.max(1);
        let bar: String = (0..WIDTH).map(|i| if i < filled { '=' } else { ' ' }).collect();
        if done < all {
            eprint!("\rfuser-run: iteration {done}/{all} [{bar}]");
        } else {
            eprint!("\r{:width$}\r", "", width = 40 + WIDTH);
        }
    })))
}
