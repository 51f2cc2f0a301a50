//! Running a module on the cpu backend: the global inputs (NumPy arrays, passed as f64 bytes)
//! are sharded for the ranks, the ranks run as threads of this process, the outputs are
//! gathered into global tensors; optionally each output is compared with the reference
//! evaluation of the fusion-level program, as `fuser-run --check` does.
//!
//! The module is lowered through the facade (a copy; the caller's module is left alone),
//! printed with its locations and parsed into the runtime's context, so run errors point at
//! the same places (Python lines for a `FusionDefinition`) as compile errors.

use crate::compiler::Module;
use crate::errors::{self, Diagnostic, Sources};
use fuser_ir::diag::SourceFile;
use fuser_ir::{Attr, Context, Ir, OpId};
use fuser_runtime::cpu::CpuBackend;
use fuser_runtime::driver::{self, Failure, RunConfig, RunIo};
use fuser_runtime::dtype::DType;
use fuser_runtime::tensor::HostTensor;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::Arc;
use std::time::Duration;

/// A parsed module in the runtime's context.
pub(crate) struct Parsed {
    pub ir: Ir,
    pub op: OpId,
}

/// Why a run failed: diagnostics not yet turned into a Python exception (they are made while
/// the GIL is released).
pub(crate) type Fail = Vec<Diagnostic>;

/// One output: shape, element type name, values as native-endian f64 bytes.
type Output = (Vec<usize>, &'static str, Vec<u8>);

/// An output's comparison with the reference: relative error, tolerance.
type Check = (f64, f64);

/// A diagnostic at `loc` (an attribute of `ctx`) rendered against `sources`.
pub(crate) fn diagnostic(ctx: &Context, sources: &Sources, loc: Option<Attr>, message: &str) -> Diagnostic {
    let loc = loc.unwrap_or_else(|| ctx.unknown_loc());
    let resolved = fuser_ir::diag::file_line_col(ctx, loc);
    match resolved {
        Some((file, line, column)) => {
            let d = fuser_ir::Diagnostic::error(loc, message);
            let rendered = fuser_ir::diag::render(ctx, &errors::source_mgr(sources), &d);
            Diagnostic {
                severity: "error".into(),
                file: Some(file),
                line,
                column,
                message: message.to_string(),
                notes: Vec::new(),
                rendered,
            }
        }
        None => errors::located(None, message, sources),
    }
}

pub(crate) fn failure(ctx: &Context, sources: &Sources, f: &Failure) -> Diagnostic {
    let message = match f.error.rank {
        Some(r) if f.loc.is_some() => format!("rank {r}: {}", f.error.message),
        _ => f.error.to_string(),
    };
    diagnostic(ctx, sources, f.loc, &message)
}

/// Parses the text of a module printed with its locations.
pub(crate) fn parse(ctx: &Context, sources: &Sources, text: &str) -> Result<Parsed, Fail> {
    let mut ir = Ir::new();
    let source = SourceFile::new("<fuser module>", Arc::from(text));
    match fuser_ir::parser::parse_source_all(ctx, &mut ir, &source) {
        Ok(op) => Ok(Parsed { ir, op }),
        Err(ds) => Err(ds.iter().map(|d| diagnostic(ctx, sources, Some(d.loc), &d.message)).collect()),
    }
}

/// The module's text with locations, and, lowered by `pipeline` when it is fusion-level, the
/// text of the host program; diagnostics of the lowering on failure.
pub(crate) fn lowered_texts(module: &Module, pipeline: &str) -> Result<(String, Option<String>), Fail> {
    let with_locs = fuser::PrintOptions { debug_info: true, ..fuser::PrintOptions::default() };
    let text = module.inner.print(&with_locs);
    let ctx = Context::new(fuser_dialects::registry());
    let parsed = parse(&ctx, &module.sources, &text)?;
    let fusion_level = driver::first_function(&ctx, &parsed.ir, parsed.op)
        .is_some_and(|f| driver::is_fusion_level(&ctx, &parsed.ir, f));
    if !fusion_level {
        return Ok((text, None));
    }
    let mut lowered = module.inner.clone();
    module
        .compiler
        .run_pipeline(&mut lowered, pipeline)
        .map_err(|e| e.diagnostics().iter().map(Diagnostic::from).collect::<Vec<_>>())?;
    Ok((text, Some(lowered.print(&with_locs))))
}

/// The number of ranks of a module without an explicit count: the devices of its top-level
/// meshes (rank r runs device r), 1 without mesh.
pub(crate) fn default_ranks(ctx: &Context, p: &Parsed) -> usize {
    let Some(block) = p.ir.regions(p.op).first().and_then(|&r| p.ir.region_entry(r)) else { return 1 };
    let mut devices: Vec<i64> =
        p.ir.block_ops(block)
            .filter_map(|op| fuser_dialects::fusion::Mesh::of_op(ctx, &p.ir, op))
            .flat_map(|m| m.devices)
            .collect();
    devices.sort_unstable();
    devices.dedup();
    devices.len().max(1)
}

/// The first function of `p` with a body, or an error.
pub(crate) fn function(ctx: &Context, sources: &Sources, p: &Parsed) -> Result<OpId, Fail> {
    driver::first_function(ctx, &p.ir, p.op)
        .ok_or_else(|| vec![diagnostic(ctx, sources, None, "the module has no func.func with a body to run")])
}

/// The longest time limit a run takes (a year): longer ones overflow the clock arithmetic.
pub(crate) const MAX_TIMEOUT_S: f64 = 365.0 * 24.0 * 3600.0;

/// A time limit given in seconds, checked: positive, finite, at most [`MAX_TIMEOUT_S`];
/// otherwise a `FuserValueError` naming `what` (`timeout`).
pub(crate) fn timeout(py: Python<'_>, what: &str, seconds: f64, sources: &Sources) -> PyResult<Duration> {
    if seconds.is_finite() && seconds > 0.0 && seconds <= MAX_TIMEOUT_S {
        return Ok(Duration::from_secs_f64(seconds));
    }
    let msg = format!(
        "{what} must be a positive, finite number of seconds of at most {MAX_TIMEOUT_S} (a year), got {seconds}"
    );
    Err(errors::argument(py, errors::ErrorKind::Value, None, &msg, sources))
}

/// Compares the shapes of the given inputs with the arguments of the fusion-level function; an
/// input's error is reported at the argument's location (the `define_tensor` line of a
/// `FusionDefinition`). Inputs of any element type run (i1 included: `x != 0`).
fn check_input_shapes(
    ctx: &Context,
    sources: &Sources,
    reference: &Parsed,
    inputs: &[(Vec<usize>, Vec<f64>)],
) -> Result<(), Fail> {
    let func = function(ctx, sources, reference)?;
    let Some(entry) = reference.ir.regions(func).first().and_then(|&r| reference.ir.region_entry(r)) else {
        return Ok(());
    };
    for (i, &arg) in reference.ir.block_args(entry).iter().enumerate() {
        let fuser_ir::types::TypeKind::RankedTensor { shape, .. } = ctx.type_kind(reference.ir.value_type(arg)) else {
            continue;
        };
        let loc = reference.ir.value_loc(arg).or(Some(reference.ir.loc(func)));
        let Some((given, _)) = inputs.get(i) else { continue };
        if shape.len() != given.len() || shape.iter().zip(given).any(|(&s, &g)| s < 0 || s as u64 != g as u64) {
            let msg = format!("input #{i}: shape {given:?} given, the function takes {shape:?}");
            return Err(vec![diagnostic(ctx, sources, loc, &msg)]);
        }
    }
    Ok(())
}

fn run_cpu_inner(
    module: &Module,
    inputs: Vec<(Vec<usize>, Vec<f64>)>,
    ranks: Option<usize>,
    pipeline: &str,
    check: bool,
    timeout_s: Duration,
) -> Result<(Vec<Output>, Vec<Check>), Fail> {
    let sources = &module.sources;
    let (text, lowered) = lowered_texts(module, pipeline)?;
    let ctx = Context::new(fuser_dialects::registry());
    let reference = parse(&ctx, sources, &text)?;
    let program = match &lowered {
        Some(t) => parse(&ctx, sources, t)?,
        None => parse(&ctx, sources, &text)?,
    };
    if check && lowered.is_none() {
        let msg = "check=True needs a fusion-level program (a host program has no reference evaluation)";
        return Err(vec![diagnostic(&ctx, sources, None, msg)]);
    }
    if lowered.is_some() {
        check_input_shapes(&ctx, sources, &reference, &inputs)?;
    }
    let func = function(&ctx, sources, &program)?;
    if driver::is_fusion_level(&ctx, &program.ir, func) {
        let msg = "the function still takes or returns tensors after lowering";
        return Err(vec![diagnostic(&ctx, sources, Some(program.ir.loc(func)), msg)]);
    }
    let prog = fuser_runtime::exec::prepare(&ctx, &program.ir, func)
        .map_err(|(loc, m)| vec![diagnostic(&ctx, sources, Some(loc), &m)])?;
    let ranks = ranks.unwrap_or_else(|| default_ranks(&ctx, &reference));
    let cfg = RunConfig { ranks, timeout: timeout_s, ..RunConfig::default() };
    let fail = |f: Failure| vec![failure(&ctx, sources, &f)];
    let given = inputs
        .into_iter()
        .map(|(shape, data)| HostTensor::new(DType::F64, shape, data))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| fail(e.into()))?;
    let io = RunIo::with_inputs(&ctx, &program.ir, func, &cfg, given).map_err(fail)?;
    let backend = CpuBackend::new(ranks, false, cfg.timeout);
    let per_rank = driver::run_ranks(&backend, 0..ranks, &prog, &io, &cfg).map_err(fail)?;
    let outcome = io.assemble(per_rank, &cfg, backend.trace_events()).map_err(fail)?;
    let mut checks = Vec::new();
    if check {
        let rf = function(&ctx, sources, &reference)?;
        let results = driver::check_against_reference(&ctx, &reference.ir, rf, &outcome.inputs, &outcome.outputs)
            .map_err(fail)?;
        let failed: Vec<Diagnostic> = results
            .iter()
            .enumerate()
            .filter(|(_, c)| !c.passed())
            .map(|(i, c)| {
                let what = c.origin.as_ref().map_or_else(|| format!("output #{i}"), |o| o.describe());
                let msg = format!(
                    "check: {what} differs from the reference: rel err {:.3e} > tolerance {:.0e} ({})",
                    c.rel_err,
                    c.tolerance,
                    c.type_text()
                );
                diagnostic(&ctx, sources, c.origin.as_ref().map(|o| o.loc), &msg)
            })
            .collect();
        if !failed.is_empty() {
            return Err(failed);
        }
        checks = results.iter().map(|c| (c.rel_err, c.tolerance)).collect();
    }
    let outputs = outcome
        .outputs
        .into_iter()
        .map(|t| (t.shape, t.dtype.name(), t.data.iter().flat_map(|v| v.to_ne_bytes()).collect()))
        .collect();
    Ok((outputs, checks))
}

/// Runs `module` on `ranks` cpu ranks (default: the devices of its meshes) with the global
/// `inputs` (`(shape, f64 bytes)` each); returns the gathered outputs `(shape, dtype, f64
/// bytes)` and, with `check`, each output's `(relative error, tolerance)` against the
/// reference (a failed check raises `FuserError` at the op behind the output).
#[pyfunction]
#[pyo3(signature = (module, inputs, *, ranks = None, pipeline = "builtin.module(tp-default)", check = false, timeout_s = 60.0))]
#[allow(clippy::type_complexity)]
pub fn run_cpu<'py>(
    py: Python<'py>,
    module: &Module,
    inputs: Vec<(Vec<usize>, Bound<'py, PyBytes>)>,
    ranks: Option<usize>,
    pipeline: &str,
    check: bool,
    timeout_s: f64,
) -> PyResult<(Vec<(Vec<usize>, &'static str, Bound<'py, PyBytes>)>, Vec<Check>)> {
    let inputs: Vec<(Vec<usize>, Vec<f64>)> = inputs
        .iter()
        .map(|(shape, bytes)| {
            let data =
                bytes.as_bytes().chunks_exact(8).map(|c| f64::from_ne_bytes(c.try_into().unwrap_or([0; 8]))).collect();
            (shape.clone(), data)
        })
        .collect();
    if ranks == Some(0) {
        return Err(errors::argument(py, errors::ErrorKind::Value, None, "ranks must be at least 1", &module.sources));
    }
    let timeout_s = timeout(py, "timeout", timeout_s, &module.sources)?;
    let result = py.detach(|| run_cpu_inner(module, inputs, ranks, pipeline, check, timeout_s));
    match result {
        Ok((outputs, checks)) => {
            let outputs =
                outputs.into_iter().map(|(shape, dtype, bytes)| (shape, dtype, PyBytes::new(py, &bytes))).collect();
            Ok((outputs, checks))
        }
        Err(diagnostics) => Err(errors::raise(py, diagnostics)),
    }
}
