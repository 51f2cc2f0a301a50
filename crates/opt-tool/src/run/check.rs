//! `fuser-run --check`: compares the gathered outputs with the reference evaluation and
//! reports. stdout gets one summary line (`check: PASS (max rel err X)` or `check: FAIL` with
//! each failed output); stderr gets one error per failed output at the value behind it in the
//! checked (reference) function, with its source line, and, when the run's program is another
//! file (`--reference`), a note at the value the run returns for it.

use crate::report::Reporter;
use crate::source_name::source_value_name;
use fuser_ir::{Diagnostic, Ir, OpId};
use fuser_runtime::driver::{self, OutputCheck, RunOutcome};
use fuser_runtime::origin::output_origin;

/// `output #0 (result #0 of @f, %y, the result of 'fusion.linear')` (`%y` when the source
/// names the value so), or `output #0` alone when the reference does not say where it comes
/// from.
fn output_name(rep: &Reporter, index: usize, c: &OutputCheck) -> String {
    let Some(o) = &c.origin else { return format!("output #{index}") };
    let name = o.op_result.and_then(|r| source_value_name(&rep.ctx, &rep.sources, o.loc, r));
    o.describe_named(name.as_deref())
}

/// `rel err 1.2e-1 > tolerance 2e-2 (bf16)`, `... (f32 computed in bf16)`.
fn excess(c: &OutputCheck) -> String {
    format!("rel err {:.3e} > tolerance {:.0e} ({})", c.rel_err, c.tolerance, c.type_text())
}

/// The error for a failed output, at its value in the reference; with a note at the value the
/// run returns when `run` (the run's module and function) is given.
fn failure_diagnostic(rep: &Reporter, index: usize, c: &OutputCheck, run: Option<(&Ir, OpId)>) -> Diagnostic {
    let loc = c.origin.as_ref().map_or_else(|| rep.ctx.unknown_loc(), |o| o.loc);
    let message = format!("check: {} differs from the reference: {}", output_name(rep, index, c), excess(c));
    let mut d = Diagnostic::error(loc, message);
    if let Some(o) = run.and_then(|(ir, func)| output_origin(&rep.ctx, ir, func, index)) {
        let name = o.op_result.and_then(|r| source_value_name(&rep.ctx, &rep.sources, o.loc, r));
        let value = name.map_or_else(|| o.value.clone(), |n| format!("{n}, {}", o.value));
        d = d.with_note(o.loc, format!("the run returns it as result #{index} of @{}, {value}", o.func));
    }
    d
}

/// Compares and reports; returns whether every output is within its tolerance.
pub fn check(rep: &Reporter, (ref_ir, ref_func): (&Ir, OpId), run: Option<(&Ir, OpId)>, o: &RunOutcome) -> bool {
    let checks = match driver::check_against_reference(&rep.ctx, ref_ir, ref_func, &o.inputs, &o.outputs) {
        Ok(checks) => checks,
        Err(f) => {
            rep.failure(&f);
            println!("check: FAIL (the reference could not be evaluated)");
            return false;
        }
    };
    let failed: Vec<(usize, &OutputCheck)> = checks.iter().enumerate().filter(|(_, c)| !c.passed()).collect();
    if failed.is_empty() {
        let max = checks.iter().map(|c| c.rel_err).fold(0.0, f64::max);
        println!("check: PASS (max rel err {max:.3e})");
        return true;
    }
    for &(i, c) in &failed {
        rep.error(&failure_diagnostic(rep, i, c, run));
    }
    let summary: Vec<String> =
        failed.iter().map(|&(i, c)| format!("{}: {}", output_name(rep, i, c), excess(c))).collect();
    println!("check: FAIL {}", summary.join("; "));
    false
}
