//! A shrunk failure as a ready-to-use lit regression test in the style of `test/Run/*.mlir`:
//! a header naming the seed, pipeline, class and message, RUN lines that state the *correct*
//! behaviour (the lowered program passes `comm-verify`; `fuser-run --check --check-races`
//! prints `check: PASS`), and the program. The test fails while the bug is there and passes
//! once it is fixed; copy it into `test/Run/` with the fix. The RUN lines of an autodiff case
//! ([`Case::autodiff`]) first run `fusion-autodiff{func=fuzz}` and check the joint `@fuzz_vjp`
//! (`fuser-run - --entry fuzz_vjp`); its `comm-verify` line lowers every function that
//! `fusion-autodiff` leaves (`@fuzz`, `@fuzz_vjp`, `@fuzz_fwd`, `@fuzz_bwd`).

use crate::generate::Case;
use crate::verdict::Finding;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The test file's text.
pub fn regression_test(case: &Case, finding: &Finding, original_seed: u64) -> String {
    let pipeline = case.pipeline.text();
    let devices = case.program.devices();
    let mut s = String::new();
    let flag = if case.autodiff { " --autodiff on" } else { "" };
    let _ =
        writeln!(s, "// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed {original_seed} --count 1{flag}`), shrunk:");
    let what = if case.autodiff { " of the joint @fuzz_vjp of fusion-autodiff{func=fuzz}" } else { "" };
    let _ = writeln!(
        s,
        "// {}{what} with {pipeline} on {devices} rank(s), input seed {}.",
        finding.class.name(),
        case.seed
    );
    for line in finding.message.lines().take(6) {
        let cut: String = line.chars().take(400).collect();
        let _ = writeln!(s, "// message: {cut}");
    }
    s.push('\n');
    let _ = writeln!(s, "// REQUIRES: fuser-run");
    // An autodiff case differentiates the program first; fuser-run runs only the joint.
    let (input, differentiate, entry, func) = match case.autodiff {
        true => (
            "-",
            format!("fuser-opt %s --pass-pipeline='{}' | ", crate::joint::AUTODIFF_PIPELINE),
            format!(" --entry {}", crate::joint::JOINT),
            crate::joint::JOINT,
        ),
        false => ("%s", String::new(), String::new(), crate::joint::FUNC),
    };
    let lower = match case.autodiff {
        true => format!("fuser-opt --pass-pipeline='{pipeline}'"),
        false => format!("fuser-opt %s --pass-pipeline='{pipeline}'"),
    };
    let _ = writeln!(
        s,
        "// RUN: {differentiate}{lower} | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED"
    );
    let _ = writeln!(s, "// LOWERED: func.func @{func}");
    let given: String = case
        .program
        .input_values(case.seed)
        .iter()
        .map(|(i, v)| format!(" --input-values {i}={}", v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")))
        .collect();
    let _ = writeln!(
        s,
        "// RUN: {differentiate}fuser-run {input}{entry} --ranks {devices} --seed {}{given} --timeout 10 --check --check-races --pass-pipeline '{pipeline}' | FileCheck %s",
        case.seed
    );
    let _ = writeln!(s, "// CHECK: check: PASS");
    s.push('\n');
    s.push_str(&case.program.to_mlir());
    s
}

/// Writes the test to `dir/<class>-<seed>.mlir`; returns the path.
pub fn write_regression_test(
    dir: &Path,
    case: &Case,
    finding: &Finding,
    original_seed: u64,
) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(format!("{}-{original_seed}.mlir", finding.class.name()));
    std::fs::write(&path, regression_test(case, finding, original_seed))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{GenConfig, generate};
    use crate::verdict::FindingClass;

    #[test]
    fn test_text_has_run_lines_and_the_program() {
        let case = generate(11, &GenConfig::default());
        let f = Finding::new(FindingClass::Race, "race on buffer #1");
        let t = regression_test(&case, &f, 11);
        assert!(t.contains("// REQUIRES: fuser-run\n"));
        assert!(t.contains(&format!("--ranks {} --seed 11", case.program.devices())));
        assert!(t.contains("// CHECK: check: PASS\n"));
        assert!(t.contains("// message: race on buffer #1\n"));
        assert!(t.ends_with(&case.program.to_mlir()));
        assert!(!t.contains("fusion-autodiff") && !t.contains("--entry"), "{t}");
        assert!(t.contains("// RUN: fuser-opt %s --pass-pipeline='"), "{t}");
        assert!(t.contains("// LOWERED: func.func @fuzz\n"), "{t}");
        assert!(t.contains("// RUN: fuser-run %s --ranks"), "{t}");
    }

    #[test]
    fn an_autodiff_test_differentiates_first_and_runs_the_joint() {
        let case = Case { autodiff: true, ..generate(11, &GenConfig::default()) };
        let f = Finding::new(FindingClass::CheckFail, "output #1 (f32): rel err 1e-1 > tolerance 1e-5");
        let t = regression_test(&case, &f, 11);
        let pipeline = case.pipeline.text();
        let ad = "fuser-opt %s --pass-pipeline='builtin.module(fusion-autodiff{func=fuzz})' | ";
        assert!(t.contains("of the joint @fuzz_vjp of fusion-autodiff{func=fuzz}"), "{t}");
        assert!(t.contains("--seed 11 --count 1 --autodiff on`"), "{t}");
        assert!(
            t.contains(&format!(
                "// RUN: {ad}fuser-opt --pass-pipeline='{pipeline}' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED\n"
            )),
            "{t}"
        );
        assert!(t.contains("// LOWERED: func.func @fuzz_vjp\n"), "{t}");
        let run = format!("// RUN: {ad}fuser-run - --entry fuzz_vjp --ranks {} --seed 11", case.program.devices());
        assert!(t.contains(&run), "{t}");
        assert!(t.contains(&format!("--check --check-races --pass-pipeline '{pipeline}' | FileCheck %s\n")), "{t}");
        assert!(t.ends_with(&case.program.to_mlir()));
    }
}
