//! Tests of the pipeline grammar and the manager against a tiny registry of test ops and
//! passes (built in code, so they do not depend on the parser, the printer or any dialect).

use super::*;
use crate::diag::Diagnostic;
use crate::ir::{Ir, OpId, OperationState, WalkOrder};
use crate::registry::{DialectDef, OpDef, Registry, Traits};
use crate::{Attr, Context};

// ----- test ops ----------------------------------------------------------------------------

static MODULE: OpDef =
    OpDef::new("builtin.module", Traits::ISOLATED_FROM_ABOVE.union(Traits::SYMBOL_TABLE).union(Traits::NO_TERMINATOR));
static FUNC: OpDef = OpDef::new("func.func", Traits::ISOLATED_FROM_ABOVE.union(Traits::SYMBOL));
static PLAIN: OpDef = OpDef::new("test.plain", Traits::NONE);
static ISOLATED: OpDef = OpDef::new("test.isolated", Traits::ISOLATED_FROM_ABOVE.union(Traits::NO_TERMINATOR));
static BUILTIN: DialectDef = DialectDef {
    namespace: "builtin",
    summary: "",
    description: "",
    ops: &[&MODULE],
    types: &[],
    attrs: &[],
    opaque_attrs: false,
    materialize_constant: None,
};
static FUNC_D: DialectDef = DialectDef {
    namespace: "func",
    summary: "",
    description: "",
    ops: &[&FUNC],
    types: &[],
    attrs: &[],
    opaque_attrs: false,
    materialize_constant: None,
};
static TEST_D: DialectDef = DialectDef {
    namespace: "test",
    summary: "",
    description: "",
    ops: &[&PLAIN, &ISOLATED],
    types: &[],
    attrs: &[],
    opaque_attrs: false,
    materialize_constant: None,
};

fn context() -> Context {
    let mut r = Registry::new();
    r.register(&BUILTIN);
    r.register(&FUNC_D);
    r.register(&TEST_D);
    let ctx = Context::new(r);
    ctx.set_allow_unregistered(true);
    ctx
}

fn state(ctx: &Context, name: &str, operands: Vec<crate::Value>, results: usize, attrs: Attr) -> OperationState {
    OperationState {
        name: ctx.op_name(name),
        operands,
        result_types: vec![ctx.i64_type(); results],
        successors: vec![],
        regions: vec![],
        attrs,
        props: None,
        loc: ctx.file_loc("t.mlir", 1, 1),
    }
}

/// Creates an op with one region of one block and returns (op, block).
fn op_with_body(
    ctx: &Context,
    ir: &mut Ir,
    name: &str,
    attrs: Attr,
    operands: Vec<crate::Value>,
) -> (OpId, crate::BlockId) {
    let r = ir.create_region();
    let b = ir.create_block(&[]);
    ir.append_block(r, b);
    let mut st = state(ctx, name, operands, 0, attrs);
    st.regions = vec![r];
    (ir.create_op(st), b)
}

fn sym(ctx: &Context, name: &str) -> Attr {
    ctx.dictionary(vec![(ctx.ident("sym_name"), ctx.string_attr(name))])
}

/// A module with `n` functions, each holding `test.plain`, two `test.dead` and a return-like
/// op; plus a module-level value read by a `test.isolated` op.
fn module(ctx: &Context, ir: &mut Ir, n: usize) -> OpId {
    let (m, mb) = op_with_body(ctx, ir, "builtin.module", ctx.empty_dict(), vec![]);
    for i in 0..n {
        let (f, fb) = op_with_body(ctx, ir, "func.func", sym(ctx, &format!("f{i}")), vec![]);
        ir.append_op(mb, f);
        let p = ir.create_op(state(ctx, "test.plain", vec![], 1, ctx.empty_dict()));
        ir.append_op(fb, p);
        let v = ir.result(p, 0);
        for _ in 0..2 {
            let d = ir.create_op(state(ctx, "x.dead", vec![v], 0, ctx.empty_dict()));
            ir.append_op(fb, d);
        }
        let ret = ir.create_op(state(ctx, "x.ret", vec![v], 0, ctx.empty_dict()));
        ir.append_op(fb, ret);
    }
    let src = ir.create_op(state(ctx, "test.plain", vec![], 1, ctx.empty_dict()));
    ir.append_op(mb, src);
    let outer = ir.result(src, 0);
    let (iso, ib) = op_with_body(ctx, ir, "test.isolated", ctx.empty_dict(), vec![outer]);
    let d = ir.create_op(state(ctx, "x.dead", vec![], 0, ctx.empty_dict()));
    ir.append_op(ib, d);
    ir.append_op(mb, iso);
    let user = ir.create_op(state(ctx, "x.ret", vec![outer], 0, ctx.empty_dict()));
    ir.append_op(mb, user);
    m
}

/// A structural description (names, attributes, operand positions) for comparing IR.
fn describe(ctx: &Context, ir: &Ir, root: OpId) -> String {
    let ops = ir.collect_ops(root, WalkOrder::PreOrder);
    let mut out = String::new();
    for &o in &ops {
        let operands: Vec<String> = ir
            .operands(o)
            .iter()
            .map(|&v| match ir.defining_op(v) {
                Some(d) => format!("op{}", ops.iter().position(|&x| x == d).map_or(-1, |i| i as i64)),
                None => "arg".to_string(),
            })
            .collect();
        let attrs: Vec<String> =
            ctx.dict_entries(ir.attrs(o)).iter().map(|(k, v)| format!("{}={v:?}", ctx.ident_str(*k))).collect();
        out += &format!("{} {{{}}} ({})\n", ctx.op_name_str(ir.op_name(o)), attrs.join(","), operands.join(","));
    }
    out
}

// ----- test passes -------------------------------------------------------------------------

macro_rules! test_pass {
    ($ty:ident, $info:ident, $name:literal, $display:literal, $anchor:expr, $opts:expr, |$ctx:ident, $ir:ident, $op:ident| $body:block) => {
        struct $ty(OptionValues);
        static $info: PassInfo = PassInfo {
            name: $name,
            display: $display,
            summary: concat!("Test pass ", $name),
            description: "",
            anchor: $anchor,
            options: $opts,
            create: |o| Ok(Box::new($ty(o.clone()))),
        };
        impl Pass for $ty {
            fn info(&self) -> &'static PassInfo {
                &$info
            }
            fn options(&self) -> OptionValues {
                self.0.clone()
            }
            #[allow(unused_variables)]
            fn run(&self, $ctx: &Context, $ir: &mut Ir, $op: OpId) -> Result<PassOutcome, Diagnostic> {
                let _ = &self.0;
                $body
            }
        }
    };
}

static REGION_CASES: &[EnumCase] =
    &[EnumCase { name: "disabled", description: "Off" }, EnumCase { name: "normal", description: "Simple" }];
static CANON_OPTS: &[OptionDef] = &[
    OptionDef::new("top-down", OptionType::Bool, "true", "Top down"),
    OptionDef::new("max-iterations", OptionType::Int, "10", "Max iterations"),
    OptionDef::new("max-num-rewrites", OptionType::Int, "-1", "Max rewrites"),
    OptionDef::new("region-simplify", OptionType::Enum(REGION_CASES), "normal", "Region simplification"),
    OptionDef::new("test-convergence", OptionType::Bool, "false", "Test convergence"),
    OptionDef::list("disable-patterns", OptionType::String, "", "Disabled"),
    OptionDef::list("enable-patterns", OptionType::String, "", "Enabled"),
];

test_pass!(Noop, NOOP, "cse", "CSE", None, &[], |ctx, ir, op| { Ok(PassOutcome::unchanged()) });
test_pass!(Canon, CANON, "canonicalize", "Canonicalizer", None, CANON_OPTS, |ctx, ir, op| {
    Ok(PassOutcome::unchanged())
});
test_pass!(EraseDead, ERASE_DEAD, "test-erase-dead", "TestEraseDead", None, &[], |ctx, ir, op| {
    let dead: Vec<OpId> =
        ir.nested_ops(op).into_iter().filter(|&o| ctx.op_name_str(ir.op_name(o)) == "x.dead").collect();
    for &d in &dead {
        ir.erase_op(d);
    }
    let marked = ctx.dict_set(ir.attrs(op), "visited", Some(ctx.unit_attr()));
    ir.set_attrs(op, marked);
    Ok(PassOutcome::changed())
});
test_pass!(Panics, PANICS, "test-panic", "TestPanic", None, &[], |ctx, ir, op| {
    if ctx.dict_get(ir.attrs(op), "sym_name").and_then(|a| ctx.attr_str(a)) == Some("f1") {
        panic!("deliberate failure in f1");
    }
    Ok(PassOutcome::unchanged())
});
test_pass!(Fails, FAILS, "test-fail", "TestFail", None, &[], |ctx, ir, op| {
    Err(Diagnostic::error(ir.loc(op), "test-fail always fails"))
});
test_pass!(OnFunc, ON_FUNC, "test-func-only", "TestFuncOnly", Some("func.func"), &[], |ctx, ir, op| {
    Ok(PassOutcome::unchanged())
});

static PIPE: PipelineInfo = PipelineInfo {
    name: "test-pipe",
    summary: "A named pipeline",
    description: "",
    options: &[OptionDef::new("erase", OptionType::Bool, "false", "Erase dead ops")],
    build: |o, reg, pm| {
        let text = if o.get_bool("erase") { "func.func(test-erase-dead),cse" } else { "cse" };
        pm.add_pipeline_text(text, reg).map_err(|e| e.to_string())
    },
};

fn registry() -> PassRegistry {
    let mut r = PassRegistry::new();
    for p in [&NOOP, &CANON, &ERASE_DEAD, &PANICS, &FAILS, &ON_FUNC] {
        r.register_pass(p).unwrap();
    }
    r.register_pipeline(&PIPE).unwrap();
    r
}

fn parse(text: &str) -> Result<OpPassManager, PipelineError> {
    OpPassManager::parse(text, &registry())
}

fn parse_err(text: &str) -> String {
    match parse(text) {
        Ok(pm) => panic!("expected an error for {text}, got {pm}"),
        Err(e) => e.to_string(),
    }
}

// ----- grammar -----------------------------------------------------------------------------

#[test]
fn canonical_dump_matches_mlir() {
    let pm = parse("builtin.module(func.func(cse,canonicalize{max-iterations=3}),cse)").unwrap();
    assert_eq!(
        pm.to_pipeline_string(),
        "builtin.module(func.func(cse,canonicalize{  max-iterations=3 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=true}),cse)"
    );
    assert_eq!(pm.len(), 2);
    assert_eq!(parse(&pm.to_pipeline_string()).unwrap().to_pipeline_string(), pm.to_pipeline_string());
}

#[test]
fn whitespace_any_anchor_nesting_and_empty() {
    let pm = parse(" builtin.module( cse , func.func (canonicalize {top-down=false}) , any(any(cse)) )").unwrap();
    assert_eq!(
        pm.to_pipeline_string(),
        "builtin.module(cse,func.func(canonicalize{  max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false top-down=false}),any(any(cse)))"
    );
    assert_eq!(parse("builtin.module()").unwrap().to_pipeline_string(), "builtin.module()");
    assert_eq!(parse("any(cse)").unwrap().anchor(), &Anchor::Any);
}

#[test]
fn named_pipeline_expands_with_options() {
    let pm = parse("builtin.module(test-pipe{erase=true},test-pipe)").unwrap();
    assert_eq!(pm.to_pipeline_string(), "builtin.module(func.func(test-erase-dead),cse,cse)");
}

#[test]
fn located_errors_like_mlir() {
    assert_eq!(
        parse_err("builtin.module(func.func(cse),  fuse-all)"),
        "MLIR Textual PassPipeline Parser:1:18: error: 'fuse-all' does not refer to a registered pass or pass pipeline\nfunc.func(cse),  fuse-all\n                 ^\n"
    );
    assert!(parse_err("builtin.module(cse))").starts_with(
        "MLIR Textual PassPipeline Parser:1:4: error: encountered extra closing ')' creating unbalanced parentheses while parsing pipeline\ncse)\n   ^"
    ));
    assert!(parse_err("builtin.module(func.func(cse)").starts_with(
        "MLIR Textual PassPipeline Parser:1:11: error: encountered unbalanced parentheses while parsing pipeline"
    ));
    assert!(
        parse_err("builtin.module(cse{a=1)").starts_with(
            "MLIR Textual PassPipeline Parser:1:4: error: missing closing '}' while processing pass options"
        )
    );
    assert!(parse_err("builtin.module(cse,)").starts_with(
        "MLIR Textual PassPipeline Parser:1:5: error: '' does not refer to a registered pass or pass pipeline"
    ));
    assert!(parse_err("builtin.module(func.func())").contains(":1:11: error: '' does not refer"));
    assert!(parse_err("builtin.module(cse canonicalize)").contains(":1:1: error: 'cse canonicalize' does not"));
    assert!(parse_err("builtin.module(func.func(cse,fuse-all))").contains(":1:15: error: 'fuse-all'"));
    for bad in ["cse", "", "builtin.module(cse)x", "(cse)"] {
        assert_eq!(
            parse_err(bad),
            "expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'"
        );
    }
}

#[test]
fn option_errors_name_the_pass() {
    assert_eq!(
        parse_err("builtin.module(canonicalize{max-iteration=3})"),
        "<Pass-Options-Parser>: no such option max-iteration\n\nfailed to add `canonicalize` with options `max-iteration=3`"
    );
    assert_eq!(
        parse_err("builtin.module(func.func(cse{a=1}))"),
        "<Pass-Options-Parser>: no such option a\n\nfailed to add `cse` with options `a=1`\nfailed to add `func.func` with options `` to inner pipeline"
    );
    assert!(parse_err("builtin.module(test-func-only)")
        .starts_with("Can't add pass 'TestFuncOnly' restricted to 'func.func' on a PassManager intended to run on 'builtin.module', did you intend to nest?"));
    assert!(parse("builtin.module(func.func(test-func-only),any(test-func-only))").is_ok());
}

// ----- execution ---------------------------------------------------------------------------

fn run(text: &str, threading: bool, n: usize) -> (Context, Ir, OpId, RunOutput) {
    let ctx = context();
    let mut ir = Ir::new();
    let m = module(&ctx, &mut ir, n);
    let mut pm = PassManager::new(parse(text).unwrap());
    pm.config.threading = threading;
    pm.config.print_op_on_diagnostic = false;
    let out = pm.run(&ctx, &mut ir, m);
    if let Some(d) = out
        .diagnostics()
        .find(|d| !d.message.contains("test-") && !d.message.contains("schedule") && !d.message.contains("can't run"))
    {
        panic!("unexpected diagnostic: {d:?}");
    }
    (ctx, ir, m, out)
}

#[test]
fn nested_pipeline_runs_on_direct_children_only() {
    let (ctx, ir, m, out) = run("builtin.module(func.func(test-erase-dead))", false, 3);
    assert!(out.success);
    let text = describe(&ctx, &ir, m);
    assert_eq!(text.matches("x.dead").count(), 1, "only the isolated op keeps its dead op:\n{text}");
    assert_eq!(text.matches("visited").count(), 3);
}

#[test]
fn parallel_and_sequential_give_identical_ir() {
    for pipeline in ["builtin.module(func.func(test-erase-dead,cse))", "builtin.module(any(test-erase-dead))"] {
        let (ctx, ir_seq, m_seq, out_seq) = run(pipeline, false, 8);
        let (ctx2, ir_par, m_par, out_par) = run(pipeline, true, 8);
        assert!(out_seq.success && out_par.success);
        // Same registry and insertion order: uniqued numbers agree across the two contexts.
        assert_eq!(describe(&ctx, &ir_seq, m_seq), describe(&ctx2, &ir_par, m_par), "{pipeline}");
        assert_eq!(ir_seq.num_ops(), ir_par.num_ops());
    }
}

#[test]
fn any_skips_non_isolated_and_named_anchor_rejects() {
    let (ctx, ir, m, out) = run("builtin.module(any(test-erase-dead))", true, 2);
    assert!(out.success);
    // The two functions and the isolated op are visited; test.plain/test.ret are skipped.
    assert_eq!(describe(&ctx, &ir, m).matches("visited").count(), 3);
    let (_, _, _, out) = run("builtin.module(test.plain(cse))", true, 1);
    assert!(!out.success);
    let msg = &out.diagnostics().next().unwrap().message;
    assert_eq!(msg, "'test.plain' op trying to schedule a pass on an operation not marked as 'IsolatedFromAbove'");
    let (_, _, _, out) = run("builtin.module(x.ret(cse))", true, 1);
    assert_eq!(
        out.diagnostics().next().unwrap().message,
        "'x.ret' op trying to schedule a pass on an unregistered operation"
    );
    let (_, _, _, out) = run("func.func(cse)", true, 1);
    assert_eq!(out.diagnostics().next().unwrap().message, "can't run 'func.func' pass manager on 'builtin.module' op");
}

#[test]
fn panic_becomes_diagnostic_in_both_modes() {
    for threading in [false, true] {
        let (_, _, _, out) = run("builtin.module(func.func(test-panic))", threading, 3);
        assert!(!out.success);
        let msgs: Vec<&str> = out.diagnostics().map(|d| d.message.as_str()).collect();
        assert_eq!(msgs.len(), 1, "{msgs:?}");
        assert!(
            msgs[0].starts_with("internal error: pass 'TestPanic' (test-panic) panicked: deliberate failure in f1")
        );
    }
}

#[test]
fn failure_stops_sequential_but_not_parallel_runs() {
    let (_, _, _, seq) = run("builtin.module(func.func(test-fail))", false, 3);
    let (_, _, _, par) = run("builtin.module(func.func(test-fail))", true, 3);
    assert_eq!(seq.diagnostics().count(), 1);
    assert_eq!(par.diagnostics().count(), 3);
    assert!(!seq.success && !par.success);
}

#[test]
fn ir_printing_headers_and_change_filter() {
    let ctx = context();
    let mut ir = Ir::new();
    let m = module(&ctx, &mut ir, 2);
    let mut pm = PassManager::new(parse("builtin.module(func.func(cse,test-erase-dead),cse)").unwrap());
    pm.config.ir_printing.before.add_names(["test-erase-dead".to_string()]);
    pm.config.ir_printing.after = PassFilter::All;
    pm.config.ir_printing.after_only_on_change = true;
    let out = pm.run(&ctx, &mut ir, m);
    let headers: Vec<&str> = out
        .log
        .iter()
        .filter_map(|e| match e {
            LogEntry::Text(t) => t.lines().next(),
            _ => None,
        })
        .collect();
    assert_eq!(
        headers,
        [
            "// -----// IR Dump Before TestEraseDead (test-erase-dead) //----- //",
            "// -----// IR Dump After TestEraseDead (test-erase-dead) //----- //",
            "// -----// IR Dump Before TestEraseDead (test-erase-dead) //----- //",
            "// -----// IR Dump After TestEraseDead (test-erase-dead) //----- //",
        ]
    );
    let first = match &out.log[0] {
        LogEntry::Text(t) => t.clone(),
        _ => unreachable!(),
    };
    assert!(first.ends_with("}\n\n") || first.ends_with(")\n\n"), "{first:?}");
}

#[test]
fn after_failure_dump_and_reproducer() {
    let dir = std::env::temp_dir().join(format!("fuser-repro-{}", std::process::id()));
    let path = dir.to_string_lossy().to_string();
    let ctx = context();
    let mut ir = Ir::new();
    let m = module(&ctx, &mut ir, 2);
    let mut pm = PassManager::new(parse("builtin.module(cse,func.func(test-fail))").unwrap());
    pm.config.threading = false;
    pm.config.print_op_on_diagnostic = false;
    pm.config.ir_printing.after_failure = true;
    pm.config.crash_reproducer = Some(path.clone());
    let out = pm.run(&ctx, &mut ir, m);
    assert!(!out.success);
    assert!(
        matches!(&out.log[0], LogEntry::Text(t) if t.starts_with("// -----// IR Dump After TestFail Failed (test-fail) //----- //\n"))
    );
    let diags: Vec<&Diagnostic> = out.diagnostics().collect();
    assert_eq!(diags[0].message, "test-fail always fails");
    assert_eq!(diags[1].message, "Failures have been detected while processing an MLIR pass pipeline");
    assert_eq!(
        diags[1].notes[0].message,
        format!(
            "Pipeline failed while executing [`TestFail` on 'func.func' operation: @f0]: reproducer generated at `{path}`"
        )
    );
    let written = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).ok();
    assert!(written.contains("pipeline: \"builtin.module(cse, func.func(test-fail))\",\n      disable_threading: true,\n      verify_each: true"));
}

#[test]
fn timing_tree_has_pipeline_and_pass_nodes() {
    for threading in [false, true] {
        let ctx = context();
        let mut ir = Ir::new();
        let m = module(&ctx, &mut ir, 4);
        let mut pm = PassManager::new(parse("builtin.module(func.func(cse,test-erase-dead),cse)").unwrap());
        pm.config.threading = threading;
        pm.config.timing = true;
        let out = pm.run(&ctx, &mut ir, m);
        let t = out.timing.unwrap();
        let names: Vec<&str> = t.children.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["'func.func' Pipeline", "CSE"]);
        let inner: Vec<&str> = t.children[0].children.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(inner, ["CSE", "TestEraseDead"]);
    }
}
