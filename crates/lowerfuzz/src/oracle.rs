//! The oracle: everything one case is checked for, in process, through the library APIs.
//!
//! 1. The program text parses and verifies (else the generator made an invalid program).
//! 2. Its generic form re-reads: print generic, parse, print generic again, identical.
//! 3. The pipeline lowers it (the pass manager verifies after every pass and turns a panicking
//!    pass into an `internal error` diagnostic). A failure is classified by re-running pieces:
//!    a panic is a finding; if the fusion prefix of the pipeline (up to `fusion-to-host`) also
//!    fails, and still fails without verification after each pass, the program is *rejected*
//!    (a clean diagnostic, counted, not a bug); if the prefix passes only without
//!    verification, a pass broke the IR; if the prefix succeeds, a later pass refused what the
//!    fusion lowering produced (a late rejection, a finding).
//! 4. The lowered function no longer takes or returns tensors, `comm-verify` accepts it, and its
//!    generic form re-reads.
//! 5. The runtime prepares it and runs it on one cpu rank per device with the race checker,
//!    seeded inputs and a watchdog; the gathered outputs match the unsharded f64 reference.
//!
//! An autodiff case ([`Case::autodiff`]) first runs `fusion-autodiff{func=fuzz}` on the
//! program and keeps only the joint `@fuzz_vjp` ([`crate::joint`]; a clean diagnostic of the
//! pass is a rejection, a panic a finding); stages 1-5 and every confirmation and triage
//! re-run below then check the joint (of the variant program) instead of the program.
//!
//! A check failure of a program with bf16 values is confirmed on the same program in f32, and
//! any check failure on the same program in f64 ([`check_case`]): if that passes, the failure
//! was rounding (reported as noise), as it is when the f64 run's relative error, or the absolute
//! error of each output it fails, is about ε(f64)/ε(f32) times the narrow run's. A confirmed
//! check failure is then triaged by two re-runs whose outcome tags its message (and so its
//! signature): `[p2p ring only]` when `tp-overlap-collective` with the same chunks passes, and
//! `[passes with sum-partial inputs]` when the program passes once its non-sum `partial`
//! arguments reduce by sum (the inputs are built wrongly, not the program lowered wrongly),
//! and before those `[fused only]` when the same pipeline with `fuse=false` passes (the fused
//! regions compute wrongly).

use crate::generate::Case;
pub use crate::passes::parse_verified;
use crate::passes::{found, is_panic, pass_registry, run_pipeline};
use crate::pipeline::Pipeline;
use crate::program::Program;
use crate::verdict::{Finding, FindingClass, Verdict, normalized};
use fuser_ir::pass::PassRegistry;
use fuser_ir::printer::{PrintOptions, print_module};
use fuser_ir::{Context, Ir, OpId};
use fuser_runtime::driver::{self, RunConfig};
use fuser_runtime::tensor::HostTensor;
use std::collections::BTreeSet;
use std::time::Duration;

/// Settings of the oracle.
#[derive(Clone, Debug)]
pub struct OracleOptions {
    /// Watchdog deadline of every blocking wait of the run.
    pub wait_timeout: Duration,
    /// Run the race checker.
    pub check_races: bool,
}

impl Default for OracleOptions {
    fn default() -> Self {
        OracleOptions { wait_timeout: Duration::from_secs(5), check_races: true }
    }
}

/// The verdict of a case and what its lowering produced.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    /// The `comm.*` ops (and `host.for`) of the lowered program, when it lowered.
    pub lowered_ops: BTreeSet<String>,
    /// What the lowered program's `host.fused` regions hold ([`fused_features`]), when it
    /// lowered.
    pub fused: BTreeSet<String>,
}

/// How much smaller an f64 error must be than the f32 error for the failure to count as
/// rounding: ε(f64)/ε(f32) ≈ 1.9e-9, with three orders of magnitude of slack.
const PRECISION_RATIO: f64 = 1e-6;

/// The first `rel err X` of a check message.
fn rel_err_of(message: &str) -> Option<f64> {
    let rest = &message[message.find("rel err ")? + "rel err ".len()..];
    rest.split(|c: char| c.is_whitespace() || c == ',' || c == ';').next()?.parse().ok()
}

/// The `abs err X` of each failed output of a check message, by output index.
fn abs_errs_of(message: &str) -> Vec<(usize, f64)> {
    message
        .split("; ")
        .filter_map(|part| {
            let rest = &part[part.find("output #")? + "output #".len()..];
            let index = rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()?;
            let abs = &part[part.find("abs err ")? + "abs err ".len()..];
            Some((index, abs.split(|c: char| c.is_whitespace() || c == ',').next()?.parse().ok()?))
        })
        .collect()
}

/// Whether every output failing in the wide (f64) run failed in the narrow run too, with an
/// absolute error ||out - ref|| smaller by [`PRECISION_RATIO`]: the error is rounding also
/// where the exact value is zero and the reference itself is rounding residue (the gradient
/// of a shift-invariant softmax, `sum(g*y)` cancelling: seed 1208266 of `--autodiff on`),
/// which makes the relative errors of both runs of order 1. A wrong value keeps its absolute
/// error in f64.
fn abs_err_scales(narrow: &str, wide: &str) -> bool {
    let (narrow, wide) = (abs_errs_of(narrow), abs_errs_of(wide));
    !wide.is_empty()
        && wide.iter().all(|&(i, w)| {
            narrow.iter().any(|&(j, n)| j == i && n.is_finite() && n > 0.0 && w.is_finite() && w < n * PRECISION_RATIO)
        })
}

/// Checks a case, confirming a bf16 check failure in f32.
pub fn check_case(case: &Case, opts: &OracleOptions) -> Outcome {
    let outcome = check_case_untagged_noise(case, opts);
    // Rounding noise of a fused lowering whose unfused lowering passes outright is listed as
    // such (a fused region rounding where the ops it replaced do not would hide there; the
    // summary lists the first noise cases for review).
    if let Verdict::Noise { rel_err } = &outcome.verdict
        && case.pipeline.fuse()
        && check_program(&case.program, &case.pipeline.with_fuse(false), case.seed, case.autodiff, opts).verdict
            == Verdict::Pass
    {
        return Outcome { verdict: Verdict::Noise { rel_err: format!("{FUSED_ONLY_TAG} {rel_err}") }, ..outcome };
    }
    outcome
}

fn check_case_untagged_noise(case: &Case, opts: &OracleOptions) -> Outcome {
    let outcome = check_program(&case.program, &case.pipeline, case.seed, case.autodiff, opts);
    if let Verdict::Found(f) = &outcome.verdict
        && f.class == FindingClass::CheckFail
        && (case.program.has_dtype(crate::program::DType::BF16) || case.program.has_dtype(crate::program::DType::F16))
        && check_program(&case.program.in_f32(), &case.pipeline, case.seed, case.autodiff, opts).verdict
            == Verdict::Pass
    {
        return Outcome { verdict: Verdict::Noise { rel_err: f.message.clone() }, ..outcome };
    }
    // An f32 failure is f32 rounding when the same program passes in f64 (a long sum with
    // cancellation can miss the f32 tolerance, which is relative to the result's norm: seed
    // 2012486), or when its f64 error is smaller by about the ratio of the two precisions (an
    // ill-conditioned program, e.g. a division by a computed value near zero, seed 2022820:
    // 1.3e-2 in f32, 1.6e-11 in f64). A lowering bug gives errors of one size in both.
    if let Verdict::Found(f) = &outcome.verdict
        && f.class == FindingClass::CheckFail
    {
        let wide = check_program(
            &case.program.in_dtype(crate::program::DType::F64),
            &case.pipeline,
            case.seed,
            case.autodiff,
            opts,
        );
        let scales_with_precision = match (&wide.verdict, rel_err_of(&f.message)) {
            (Verdict::Pass, _) => true,
            (Verdict::Found(g), Some(narrow)) if g.class == FindingClass::CheckFail => {
                rel_err_of(&g.message).is_some_and(|w| w < narrow * PRECISION_RATIO)
                    || abs_err_scales(&f.message, &g.message)
            }
            _ => false,
        };
        if scales_with_precision {
            return Outcome { verdict: Verdict::Noise { rel_err: f.message.clone() }, ..outcome };
        }
    }
    if let Verdict::Found(f) = &outcome.verdict
        && f.class == FindingClass::CheckFail
        && case.pipeline.fuse()
        && check_program(&case.program, &case.pipeline.with_fuse(false), case.seed, case.autodiff, opts).verdict
            == Verdict::Pass
    {
        let tagged = Finding::new(FindingClass::CheckFail, format!("{FUSED_ONLY_TAG} {}", f.message));
        return Outcome { verdict: Verdict::Found(tagged), ..outcome };
    }
    if let Verdict::Found(f) = &outcome.verdict
        && f.class == FindingClass::CheckFail
        && let Pipeline::P2p { streams, chunks, fuse, .. } = case.pipeline
        && check_program(
            &case.program,
            &Pipeline::Collective { streams, chunks, copy_engine: false, fuse },
            case.seed,
            case.autodiff,
            opts,
        )
        .verdict
            == Verdict::Pass
    {
        let tagged = Finding::new(FindingClass::CheckFail, format!("{RING_ONLY_TAG} {}", f.message));
        return Outcome { verdict: Verdict::Found(tagged), ..outcome };
    }
    if let Verdict::Found(f) = &outcome.verdict
        && f.class == FindingClass::CheckFail
        && let Some(sum_inputs) = with_sum_partial_inputs(&case.program)
        && check_program(&sum_inputs, &case.pipeline, case.seed, case.autodiff, opts).verdict == Verdict::Pass
    {
        let tagged = Finding::new(FindingClass::CheckFail, format!("{SUM_INPUTS_TAG} {}", f.message));
        return Outcome { verdict: Verdict::Found(tagged), ..outcome };
    }
    outcome
}

/// Marks a check failure of a fused lowering that the same pipeline with `fuse=false` does
/// not have: a fused region computes something else than the ops it replaced.
pub const FUSED_ONLY_TAG: &str = "[fused only]";

/// Marks a check failure of a `tp-overlap-p2p` lowering that `tp-overlap-collective` with the
/// same chunks does not have: the ring rewrite is wrong.
pub const RING_ONLY_TAG: &str = "[p2p ring only]";

/// Marks a check failure that goes away when the `partial` arguments reduce by `sum`: the
/// inputs or outputs of non-sum partial values are built or read wrongly, not the lowering.
pub const SUM_INPUTS_TAG: &str = "[passes with sum-partial inputs]";

/// The program with every non-sum `partial` argument reducing by `sum`, if it has one.
fn with_sum_partial_inputs(p: &Program) -> Option<Program> {
    let mut q = p.clone();
    let mut changed = false;
    for a in &mut q.args {
        if let Some(s) = &mut a.shard
            && !s.partial.is_empty()
            && s.reduce != crate::program::Reduce::Sum
        {
            s.reduce = crate::program::Reduce::Sum;
            changed = true;
        }
    }
    changed.then_some(q)
}

/// Checks one program lowered by one pipeline; input seed `seed`. With `autodiff`, the
/// program's joint `@fuzz_vjp` ([`crate::joint`]) is checked instead: `fusion-autodiff`
/// runs first (a clean diagnostic of it is a rejection), then stages 1-5 run on the joint,
/// the program's given input values applying to its first arguments.
pub fn check_program(
    program: &Program,
    pipeline: &Pipeline,
    seed: u64,
    autodiff: bool,
    opts: &OracleOptions,
) -> Outcome {
    let mut lowered = (BTreeSet::new(), BTreeSet::new());
    if let Err(e) = program.well_formed() {
        return Outcome { verdict: found(FindingClass::InvalidProgram, e), lowered_ops: lowered.0, fused: lowered.1 };
    }
    let given = program.input_values(seed);
    let text = match autodiff {
        false => Ok(program.to_mlir()),
        true => crate::joint::joint_text(&program.to_mlir()),
    };
    let verdict =
        match text.and_then(|text| run_stages(&text, pipeline, program.devices(), (seed, given), opts, &mut lowered)) {
            Ok(()) => Verdict::Pass,
            Err(v) => v,
        };
    Outcome { verdict, lowered_ops: lowered.0, fused: lowered.1 }
}

/// What the `host.fused` regions under `root` hold, one key per feature for the coverage
/// tables: `region`, `reduction` (a sum, max, min, mean, var, softmax or norm in a body),
/// `norm or softmax`, `broadcast`, `dropout`, `compare/where`, `cast`, `several outputs`
/// (a body yielding more than one value) and `in a stream loop` (a region nested in a
/// `host.for`).
pub fn fused_features(ctx: &Context, ir: &Ir, root: OpId) -> BTreeSet<String> {
    use fuser_ir::ir::{WalkOrder, WalkResult};
    let name = |op: OpId| ctx.op_name_str(ir.op_name(op)).to_string();
    let mut regions = Vec::new();
    ir.walk(root, WalkOrder::PreOrder, |op| {
        if name(op) == "host.fused" {
            regions.push(op);
            return WalkResult::Skip;
        }
        WalkResult::Advance
    });
    let mut out = BTreeSet::new();
    for region in regions {
        out.insert("region".to_string());
        let mut parent = ir.parent_op(region);
        while let Some(p) = parent {
            if name(p) == "host.for" {
                out.insert("in a stream loop".to_string());
            }
            parent = ir.parent_op(p);
        }
        ir.walk(region, WalkOrder::PreOrder, |op| {
            let key = match name(op).as_str() {
                "fusion.sum" | "fusion.max" | "fusion.min" | "fusion.mean" | "fusion.var" => Some("reduction"),
                "fusion.softmax" | "fusion.log_softmax" | "fusion.layer_norm" | "fusion.rms_norm" => {
                    out.insert("reduction".to_string());
                    Some("norm or softmax")
                }
                "fusion.broadcast" => Some("broadcast"),
                "fusion.dropout" => Some("dropout"),
                "fusion.compare" | "fusion.where" => Some("compare/where"),
                "fusion.cast" => Some("cast"),
                "host.yield" if ir.operands(op).len() > 1 => Some("several outputs"),
                _ => None,
            };
            if let Some(k) = key {
                out.insert(k.to_string());
            }
            WalkResult::Advance
        });
    }
    out
}

/// The `comm.*` op names and `host.for` in a generic printout.
fn communication_ops(generic_text: &str, into: &mut BTreeSet<String>) {
    for (i, _) in generic_text.match_indices("\"comm.") {
        let name: String = generic_text[i + 1..].chars().take_while(|&c| c != '"').collect();
        into.insert(name);
    }
    if generic_text.contains("\"host.for\"") {
        into.insert("host.for".into());
    }
}

fn generic(ctx: &Context, ir: &Ir, op: OpId) -> String {
    print_module(ctx, ir, op, &PrintOptions { generic: true, ..Default::default() })
}

/// Print generic, parse, print generic again: the two texts must be identical.
fn round_trip(ctx: &Context, ir: &Ir, op: OpId, what: &str) -> Result<(), Verdict> {
    let first = generic(ctx, ir, op);
    let (ir2, op2) = parse_verified(ctx, &first)
        .map_err(|e| found(FindingClass::RoundTrip, format!("the generic form of the {what} does not re-read: {e}")))?;
    let second = generic(ctx, &ir2, op2);
    if first != second {
        let line = first.lines().zip(second.lines()).position(|(a, b)| a != b).unwrap_or(0);
        return Err(found(
            FindingClass::RoundTrip,
            format!("the generic form of the {what} prints differently after re-reading (line {})", line + 1),
        ));
    }
    Ok(())
}

/// Classifies a failed lowering of `text` (see the module doc).
fn classify_lowering_failure(
    ctx: &Context,
    registry: &PassRegistry,
    text: &str,
    pipeline: &Pipeline,
    error: String,
) -> Verdict {
    if is_panic(&error) {
        return found(FindingClass::Panic, error);
    }
    let fresh = || parse_verified(ctx, text);
    let Ok((mut ir, op)) = fresh() else { return found(FindingClass::InvalidProgram, "re-parse failed") };
    let prefix = pipeline.fusion_prefix();
    match run_pipeline(ctx, registry, &mut ir, op, &prefix, true) {
        Err(e) if is_panic(&e) => found(FindingClass::Panic, e),
        Err(e) => {
            let Ok((mut ir, op)) = fresh() else { return found(FindingClass::InvalidProgram, "re-parse failed") };
            if run_pipeline(ctx, registry, &mut ir, op, &prefix, false).is_ok() {
                return found(FindingClass::VerifierAfterPass, e);
            }
            Verdict::Rejected { reason: normalized(&e, 90) }
        }
        Ok(()) => {
            let Ok((mut ir, op)) = fresh() else { return found(FindingClass::InvalidProgram, "re-parse failed") };
            if run_pipeline(ctx, registry, &mut ir, op, &pipeline.text(), false).is_ok() {
                return found(FindingClass::VerifierAfterPass, error);
            }
            found(FindingClass::LateRejection, error)
        }
    }
}

/// Stages 1-5 of the module doc on `text`; the first failure as a verdict.
fn run_stages(
    text: &str,
    pipeline: &Pipeline,
    devices: usize,
    (seed, input_values): (u64, Vec<(usize, Vec<f64>)>),
    opts: &OracleOptions,
    (lowered_ops, fused): &mut (BTreeSet<String>, BTreeSet<String>),
) -> Result<(), Verdict> {
    let ctx = Context::new(fuser_dialects::registry());
    let registry = pass_registry();
    let (mut ir, module) = parse_verified(&ctx, text).map_err(|e| found(FindingClass::InvalidProgram, e))?;
    round_trip(&ctx, &ir, module, "input program")?;
    let (ref_ir, ref_module) = parse_verified(&ctx, text).map_err(|e| found(FindingClass::InvalidProgram, e))?;
    let func = lower_and_verify(&ctx, &registry, text, pipeline, &mut ir, module)?;
    communication_ops(&generic(&ctx, &ir, module), lowered_ops);
    *fused = fused_features(&ctx, &ir, module);
    let cfg = RunConfig {
        ranks: devices,
        seed,
        timeout: opts.wait_timeout,
        check_races: opts.check_races,
        input_values,
        ..Default::default()
    };
    let (inputs, outputs) = run_on_cpu_ranks(&ctx, &ir, func, &cfg)?;
    compare_with_reference(&ctx, &ref_ir, ref_module, &inputs, &outputs)
}

/// Lowers the module with `pipeline`, checks that the function is a host function, that
/// `comm-verify` accepts it and that its generic form re-reads; returns the function.
fn lower_and_verify(
    ctx: &Context,
    registry: &PassRegistry,
    text: &str,
    pipeline: &Pipeline,
    ir: &mut Ir,
    module: OpId,
) -> Result<OpId, Verdict> {
    if let Err(e) = run_pipeline(ctx, registry, ir, module, &pipeline.text(), true) {
        return Err(classify_lowering_failure(ctx, registry, text, pipeline, e));
    }
    let func = driver::first_function(ctx, ir, module)
        .ok_or_else(|| found(FindingClass::NotLowered, "the lowered module has no function"))?;
    if driver::is_fusion_level(ctx, ir, func) {
        return Err(found(FindingClass::NotLowered, "the function still takes or returns tensors after lowering"));
    }
    let verify = "builtin.module(func.func(comm-verify))";
    run_pipeline(ctx, registry, ir, module, verify, true).map_err(|e| {
        let class = if is_panic(&e) { FindingClass::Panic } else { FindingClass::CommVerify };
        found(class, e)
    })?;
    round_trip(ctx, ir, module, "lowered program")?;
    Ok(func)
}

/// Prepares and runs the host function on the cpu backend; the global inputs and outputs.
fn run_on_cpu_ranks(
    ctx: &Context,
    ir: &Ir,
    func: OpId,
    cfg: &RunConfig,
) -> Result<(Vec<HostTensor>, Vec<HostTensor>), Verdict> {
    let prog = fuser_runtime::exec::prepare(ctx, ir, func).map_err(|(_, m)| found(FindingClass::Prepare, m))?;
    let outcome = driver::run_on_cpu(ctx, ir, func, &prog, cfg).map_err(|f| classify_run_error(f.error.to_string()))?;
    Ok((outcome.inputs, outcome.outputs))
}

fn classify_run_error(message: String) -> Verdict {
    if message.contains("race on buffer") {
        found(FindingClass::Race, message)
    } else if message.contains("deadlock") {
        found(FindingClass::Deadlock, message)
    } else if message.contains("panicked") {
        let detail = crate::watchdog::take_rank_panic().unwrap_or_default();
        found(FindingClass::Panic, format!("{message}: {detail}"))
    } else {
        found(FindingClass::RunError, message)
    }
}

/// Evaluates the fusion program on the inputs and compares every output.
fn compare_with_reference(
    ctx: &Context,
    ref_ir: &Ir,
    ref_module: OpId,
    inputs: &[HostTensor],
    outputs: &[HostTensor],
) -> Result<(), Verdict> {
    let ref_func = driver::first_function(ctx, ref_ir, ref_module)
        .ok_or_else(|| found(FindingClass::Reference, "the program has no function"))?;
    let checks = driver::check_against_reference(ctx, ref_ir, ref_func, inputs, outputs)
        .map_err(|f| found(FindingClass::Reference, f.error.to_string()))?;
    if checks.iter().all(|c| c.passed()) {
        return Ok(());
    }
    // The absolute errors of the failed outputs, for the f64 confirmation (abs_err_scales).
    let expected = fuser_runtime::reference::evaluate(ctx, ref_ir, ref_func, inputs).ok();
    let failed: Vec<String> = checks
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.passed())
        .map(|(i, c)| {
            let abs = match expected.as_ref().and_then(|e| e.get(i)).zip(outputs.get(i)) {
                Some((r, o)) => format!(", abs err {:.3e}", abs_err(o, r)),
                None => String::new(),
            };
            format!("output #{i} ({}): rel err {:.3e} > tolerance {:.0e}{abs}", c.type_text(), c.rel_err, c.tolerance)
        })
        .collect();
    if !failed.is_empty() {
        return Err(found(FindingClass::CheckFail, failed.join("; ")));
    }
    Ok(())
}

/// ||out - ref|| over the elements finite in both (infinite when one is finite and the other
/// not, or the shapes differ).
fn abs_err(out: &HostTensor, reference: &HostTensor) -> f64 {
    if out.shape != reference.shape {
        return f64::INFINITY;
    }
    let mut sum = 0.0;
    for (&a, &b) in out.data.iter().zip(&reference.data) {
        if a.is_finite() && b.is_finite() {
            sum += (a - b) * (a - b);
        } else if a.is_finite() != b.is_finite() {
            return f64::INFINITY;
        }
    }
    sum.sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rel_err_is_read_from_check_messages() {
        assert_eq!(rel_err_of("output #0 (f32): rel err 1.273e-2 > tolerance 1e-5"), Some(1.273e-2));
        assert_eq!(rel_err_of("check: FAIL output #0 (x): rel err 1.5e-11 > tolerance 1e-12 (f64)"), Some(1.5e-11));
        assert_eq!(rel_err_of("replicated output differs"), None);
        // A wrong value stays a finding: its f64 error is of the f32 error's size.
        const { assert!(1.4 * PRECISION_RATIO < 1.3) };
    }

    #[test]
    fn abs_errs_decide_for_zero_references() {
        let f32_msg = "output #0 (f32): rel err 4.872e-1 > tolerance 1e-5, abs err 3.500e-8; output #2 (f32): rel err 1e0 > tolerance 1e-5, abs err 2.000e-8";
        assert_eq!(abs_errs_of(f32_msg), vec![(0, 3.5e-8), (2, 2e-8)]);
        assert_eq!(abs_errs_of("output #1 (f32): rel err 4.872e-1 > tolerance 1e-5"), vec![]);
        // Residue of an exact zero: the f64 error is ~1e9 times smaller.
        assert!(abs_err_scales(f32_msg, "output #0 (f64): rel err 9.1e-1 > tolerance 1e-12, abs err 6.1e-17"));
        // A wrong value keeps its size; an output failing only in f64 is no rounding.
        assert!(!abs_err_scales(f32_msg, "output #0 (f64): rel err 9.1e-1 > tolerance 1e-12, abs err 3.4e-8"));
        assert!(!abs_err_scales(f32_msg, "output #1 (f64): rel err 9.1e-1 > tolerance 1e-12, abs err 1e-20"));
        assert!(!abs_err_scales(f32_msg, "output #0 (f64): rel err 9.1e-1 > tolerance 1e-12"));
        let z = |v: Vec<f64>| HostTensor { data: v, ..HostTensor::zeros(fuser_runtime::dtype::DType::F32, &[2]) };
        assert_eq!(abs_err(&z(vec![3.0, 0.0]), &z(vec![0.0, 4.0])), 5.0);
        assert_eq!(abs_err(&z(vec![f64::NAN, 1.0]), &z(vec![f64::NAN, 1.0])), 0.0);
        assert_eq!(abs_err(&z(vec![f64::INFINITY, 1.0]), &z(vec![1.0, 1.0])), f64::INFINITY);
    }
}
