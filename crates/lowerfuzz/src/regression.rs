//! A shrunk failure as a ready-to-use lit regression test in the style of `test/Run/*.mlir`:
//! a header naming the seed, pipeline, class and message, RUN lines that state the *correct*
//! behaviour (the lowered program passes `comm-verify`; `fuser-run --check --check-races`
//! prints `check: PASS`), and the program. The test fails while the bug is there and passes
//! once it is fixed; copy it into `test/Run/` with the fix.

use crate::generate::Case;
use crate::verdict::Finding;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The test file's text.
pub fn regression_test(case: &Case, finding: &Finding, original_seed: u64) -> String {
    let pipeline = case.pipeline.text();
    let devices = case.program.devices();
    let mut s = String::new();
    let _ = writeln!(s, "// Found by fuser-lowerfuzz (`fuser-lowerfuzz --seed {original_seed} --count 1`), shrunk:");
    let _ = writeln!(s, "// {} with {pipeline} on {devices} rank(s), input seed {}.", finding.class.name(), case.seed);
    for line in finding.message.lines().take(6) {
        let cut: String = line.chars().take(400).collect();
        let _ = writeln!(s, "// message: {cut}");
    }
    s.push('\n');
    let _ = writeln!(s, "// REQUIRES: fuser-run");
    let _ = writeln!(
        s,
        "// RUN: fuser-opt %s --pass-pipeline='{pipeline}' | fuser-opt --pass-pipeline='builtin.module(func.func(comm-verify))' | FileCheck %s --check-prefix=LOWERED"
    );
    let _ = writeln!(s, "// LOWERED: func.func @fuzz");
    let given: String = case
        .program
        .input_values(case.seed)
        .iter()
        .map(|(i, v)| format!(" --input-values {i}={}", v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")))
        .collect();
    let _ = writeln!(
        s,
        "// RUN: fuser-run %s --ranks {devices} --seed {}{given} --timeout 10 --check --check-races --pass-pipeline '{pipeline}' | FileCheck %s",
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
    }
}
