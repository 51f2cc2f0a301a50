//! Outside dialects and passes: the `embed` example's `trace` dialect and pass run next to
//! fuser's own in one pipeline (in a test and in the built example); failures and panics of
//! outside passes come back as data.

mod support;
#[path = "../examples/embed/trace.rs"]
mod trace;

use fuser::extend::{Context, Diagnostic as IrDiagnostic, Ir, OpId, Pass, PassInfo, PassOutcome};
use fuser::{Compiler, PrintOptions, Severity};

const TAGGED: &str = r#"func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = fusion.neg %x : (tensor<4xf32>) -> tensor<4xf32>
  %t = "trace.tag"(%y) <{name = "neg.out"}> : (tensor<4xf32>) -> tensor<4xf32>
  return %t : tensor<4xf32>
}
"#;

const UNTAGGED: &str = r#"func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = fusion.neg %x : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
"#;

fn with_trace() -> Compiler {
    Compiler::builder().dialect(&trace::TRACE).pass(&trace::STRIP_TAGS).build().expect("no clash")
}

#[test]
fn outside_pass_runs_before_our_lowering() {
    let compiler = with_trace();
    let mut tagged = compiler.parse("tagged.mlir", TAGGED).expect("trace.tag is registered");
    let remarks = compiler.run_pipeline(&mut tagged, "builtin.module(trace-strip-tags, tp-default)").expect("runs");
    let mut plain = compiler.parse("plain.mlir", UNTAGGED).unwrap();
    compiler.run_pipeline(&mut plain, "builtin.module(tp-default)").unwrap();
    assert_eq!(tagged.print(&PrintOptions::default()), plain.print(&PrintOptions::default()));

    let [remark] = &remarks[..] else { panic!("one remark expected: {remarks:?}") };
    assert_eq!(remark.severity, Severity::Remark);
    assert_eq!(remark.message, "removed tag 'neg.out'");
    let loc = remark.location.as_ref().unwrap();
    assert_eq!((loc.file.as_str(), loc.line, loc.column), ("tagged.mlir", 3, 8));
}

#[test]
fn without_registration_the_outside_op_and_pass_are_unknown() {
    let compiler = Compiler::new();
    let err = compiler.parse("tagged.mlir", TAGGED).unwrap_err();
    assert!(err.to_string().contains("trace.tag"), "{err}");
    let mut m = compiler.parse("plain.mlir", UNTAGGED).unwrap();
    let err = compiler.run_pipeline(&mut m, "builtin.module(trace-strip-tags)").unwrap_err();
    assert!(err.to_string().contains("trace-strip-tags"), "{err}");
}

#[test]
fn clashing_registrations_fail_the_build() {
    static OTHER_TRACE: fuser::extend::DialectDef = fuser::extend::DialectDef { ops: &[], ..trace::TRACE };
    let err = Compiler::builder().dialect(&trace::TRACE).dialect(&OTHER_TRACE).build().unwrap_err();
    assert!(err.to_string().contains("a dialect named 'trace' is already registered"), "{err}");
    static OTHER_STRIP: PassInfo = PassInfo { display: "Other", ..trace::STRIP_TAGS };
    let err = Compiler::builder().pass(&trace::STRIP_TAGS).pass(&OTHER_STRIP).build().unwrap_err();
    assert!(err.to_string().contains("'trace-strip-tags' is already registered"), "{err}");
}

struct Failing;
impl Pass for Failing {
    fn info(&self) -> &'static PassInfo {
        &FAILING
    }
    fn run(&self, _: &Context, ir: &mut Ir, op: OpId) -> Result<PassOutcome, IrDiagnostic> {
        let loc = ir.loc(op);
        Err(IrDiagnostic::error(loc, "this pass always fails").with_note(loc, "on purpose"))
    }
}
static FAILING: PassInfo = PassInfo {
    name: "test-fail",
    display: "TestFail",
    summary: "fails",
    description: "",
    anchor: Some("func.func"),
    options: &[],
    create: |_| Ok(Box::new(Failing)),
};

struct Panicking;
impl Pass for Panicking {
    fn info(&self) -> &'static PassInfo {
        &PANICKING
    }
    fn run(&self, _: &Context, _: &mut Ir, _: OpId) -> Result<PassOutcome, IrDiagnostic> {
        panic!("boom from an outside pass")
    }
}
static PANICKING: PassInfo = PassInfo {
    name: "test-panic",
    display: "TestPanic",
    summary: "panics",
    description: "",
    anchor: None,
    options: &[],
    create: |_| Ok(Box::new(Panicking)),
};

#[test]
fn a_failing_pass_returns_its_error_with_notes() {
    let compiler = Compiler::builder().pass(&FAILING).build().unwrap();
    let mut m = compiler.parse("plain.mlir", UNTAGGED).unwrap();
    let err = compiler.run_pipeline(&mut m, "builtin.module(func.func(test-fail))").unwrap_err();
    let d = &err.diagnostics()[0];
    assert_eq!((d.severity, d.message.as_str()), (Severity::Error, "this pass always fails"));
    assert_eq!(d.location.as_ref().map(|l| l.line), Some(1));
    let note = d.notes.iter().find(|n| n.message == "on purpose").expect("the pass's note");
    assert_eq!(note.location.as_ref().map(|l| (l.line, l.column)), Some((1, 1)));
    assert!(d.rendered.contains("plain.mlir:1:1: note: on purpose"), "{}", d.rendered);
}

#[test]
fn a_panicking_pass_becomes_an_error() {
    let compiler = Compiler::builder().pass(&PANICKING).build().unwrap();
    let mut m = compiler.parse("plain.mlir", UNTAGGED).unwrap();
    let err = compiler.run_pipeline(&mut m, "builtin.module(test-panic)").unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("internal error: pass 'TestPanic' (test-panic) panicked: boom from an outside pass"),
        "{text}"
    );
}

#[test]
fn modules_stay_with_their_compiler() {
    let (a, b) = (Compiler::new(), Compiler::new());
    let mut m = a.parse("plain.mlir", UNTAGGED).unwrap();
    assert!(b.verify(&m).unwrap_err().to_string().contains("another Compiler"));
    assert!(b.run_pipeline(&mut m, "builtin.module(cse)").is_err());
    assert!(a.clone().run_pipeline(&mut m, "builtin.module(cse)").is_ok());
}

/// `cargo run -p fuser --example embed` works: the outside pass removed the tag (its remark on
/// stderr) and fuser's lowering produced the host program on stdout.
#[test]
fn the_embed_example_runs() {
    let exe = support::cargo_build_artifact(&["-p", "fuser", "--example", "embed"], "\"executable\":\"");
    let out = std::process::Command::new(exe).output().expect("run the example");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(stderr.starts_with("traced.mlir:9:8: remark: removed tag 'mlp.down'"), "{stderr}");
    assert!(stdout.contains("comm.allreduce sum") && !stdout.contains("trace.tag"), "{stdout}");
}
