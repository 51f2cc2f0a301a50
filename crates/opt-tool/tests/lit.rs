//! `cargo test` driver for the lit/FileCheck regression suite (`test/**/*.mlir`).
//!
//! A `harness = false` test target built on libtest-mimic: every `*.mlir` file under
//! `<workspace>/test` that has at least one `// RUN:` line becomes one trial, named by its
//! workspace-relative path (`test/lit-selftest/pipes.mlir`), so `cargo test --test lit
//! NAME-FILTER`, `--list`, `--exact`, `--ignored` and the usual
//! `test result: ok. N passed; ...` summary all work. See `docs/testing.md`.
//!
//! Besides the files, the binary carries
//! * `filecheck-diff/NNN-name` trials: the differential corpus proving that the in-process
//!   FileCheck agrees with LLVM FileCheck 19 (see `lit/diffcases.rs`), and
//! * `harness/...` trials: unit tests of the RUN-line lexer, substitutions and feature
//!   expressions.
//!
//! Per test: RUN lines run in order in a fresh temporary directory
//! (`target/<profile>/lit-tmp/<path>.d`, also the working directory and `%T`), and the test
//! stops at the first failing RUN line. `// XFAIL: *` (or a feature expression) inverts the
//! verdict; `// UNSUPPORTED:` and `// REQUIRES:` skip the test at run time (reported as
//! ignored). Environment: `FUSER_FILECHECK=/path/to/FileCheck` runs that binary for
//! `FileCheck`; `FUSER_LIT_VERBOSE=1` echoes every command; `FUSER_LIT_TIMEOUT=SECS`
//! bounds each external process; `FUSER_MLIR_PLUGIN=/path/to/libfuser_mlir_plugin.so`
//! enables the `mlir-plugin` feature and substitutes that path for `%mlir_plugin`.
//!
//! Invariants: discovery and execution never panic on a bad test file (it becomes a
//! failing trial with a message); a failure report always contains the RUN line, every
//! executed command with its exit status and stderr, and FileCheck's diagnostics.

#[path = "lit/diffcases.rs"]
mod diffcases;
#[path = "lit/filecheck.rs"]
mod filecheck;
#[path = "lit/run_line.rs"]
mod run_line;
#[path = "lit/shell.rs"]
mod shell;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use libtest_mimic::{Arguments, Completion, Failed, Trial};

/// Settings shared by all trials.
struct Suite {
    root: PathBuf,
    tmp_root: PathBuf,
    external_filecheck: Option<Result<PathBuf, String>>,
    verbose: bool,
    timeout: Duration,
    features: Vec<String>,
    /// `FUSER_MLIR_PLUGIN`: the fuser pass plugin for mlir-opt-19 (feature `mlir-plugin`,
    /// substituted for `%mlir_plugin` in RUN lines).
    mlir_plugin: Option<String>,
}

fn main() {
    let args = Arguments::from_args();
    let suite = Arc::new(Suite::new());
    let mut trials = Vec::new();
    discover(&suite, &mut trials);
    for case in diffcases::CASES {
        let suite = suite.clone();
        trials.push(Trial::test(case.trial_name(), move || {
            let external = match &suite.external_filecheck {
                None => None,
                Some(Ok(p)) => Some(p.as_path()),
                Some(Err(e)) => return Err(e.clone().into()),
            };
            case.run(external, &suite.tmp_root.join("filecheck-diff")).map_err(Failed::from)
        }));
    }
    for (name, f) in HARNESS_TESTS {
        trials.push(Trial::test(format!("harness/{name}"), move || f().map_err(Failed::from)));
    }
    trials.sort_by(|a, b| a.name().cmp(b.name()));
    libtest_mimic::run(&args, trials).exit();
}

impl Suite {
    fn new() -> Suite {
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
        let root = manifest.join("../..");
        let root = root.canonicalize().unwrap_or(root);
        // The binary lives in target/<profile>/; keep our scratch space next to it.
        let bin_dir = Path::new(env!("CARGO_BIN_EXE_fuser-opt")).parent().map(Path::to_path_buf);
        let tmp_root = bin_dir.unwrap_or_else(std::env::temp_dir).join("lit-tmp");
        let external_filecheck = std::env::var("FUSER_FILECHECK").ok().filter(|s| !s.is_empty()).map(|s| {
            let p = PathBuf::from(&s);
            let found = if s.contains('/') { p.is_file().then_some(p) } else { shell::find_on_path(&s) };
            found.ok_or_else(|| format!("FUSER_FILECHECK={s}: no such program"))
        });
        let verbose = std::env::var("FUSER_LIT_VERBOSE").is_ok_and(|v| !v.is_empty() && v != "0");
        let timeout = std::env::var("FUSER_LIT_TIMEOUT")
            .ok()
            .and_then(|v| v.parse().ok())
            .map_or(Duration::from_secs(300), Duration::from_secs);
        let mut features =
            vec!["fuser-opt".to_string(), std::env::consts::OS.to_string(), std::env::consts::ARCH.to_string()];
        if option_env!("CARGO_BIN_EXE_fuser-run").is_some() {
            features.push("fuser-run".into());
        }
        if shell::find_on_path("mlir-opt").or_else(|| shell::find_on_path("mlir-opt-19")).is_some() {
            features.push("mlir-opt".into());
        }
        if external_filecheck.is_some() {
            features.push("llvm-filecheck".into());
        }
        if cfg!(debug_assertions) {
            features.push("debug".into());
        }
        // Python scripts that a RUN line starts (examples/transformer/grad_vs_torch.py --smoke)
        // need NumPy; CI's python3 may not have it.
        let numpy = std::process::Command::new("python3")
            .args(["-c", "import numpy"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if numpy {
            features.push("numpy".into());
        }
        let mlir_plugin = std::env::var("FUSER_MLIR_PLUGIN").ok().filter(|p| Path::new(p).is_file());
        if mlir_plugin.is_some() {
            features.push("mlir-plugin".into());
        }
        Suite { root, tmp_root, external_filecheck, verbose, timeout, features, mlir_plugin }
    }
}

/// Directories under `test/` that hold no tests of ours: `upstream/` is MLIR's own test files,
/// unmodified, used as a differential corpus by `.ci/mlir-upstream.sh` (their RUN lines name
/// mlir-opt and its test passes).
const NOT_TESTS: &[&str] = &["upstream"];

/// Adds one trial per `test/**/*.mlir` file that has RUN lines (or that cannot be read).
fn discover(suite: &Arc<Suite>, trials: &mut Vec<Trial>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    let test_root = suite.root.join("test");
    let skip: Vec<PathBuf> = NOT_TESTS.iter().map(|d| test_root.join(d)).collect();
    walk(&test_root, &skip, &mut files, &mut errors);
    for (dir, err) in errors {
        trials.push(Trial::test(format!("discovery/{}", rel_name(&suite.root, &dir)), move || {
            Err(format!("cannot list test directory: {err}").into())
        }));
    }
    files.sort();
    for path in files {
        let name = rel_name(&suite.root, &path);
        let text = match std::fs::read(&path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                trials.push(Trial::test(name, move || Err(format!("cannot read test file: {e}").into())));
                continue;
            }
        };
        // Files without RUN lines are inputs of other tests, not tests.
        if let Ok(spec) = run_line::parse_test_file(&text)
            && spec.run_lines.is_empty()
        {
            continue;
        }
        let suite = suite.clone();
        let trial_name = name.clone();
        trials.push(Trial::ignorable_test(name, move || run_file(&suite, &trial_name, &path, &text)));
    }
}

fn walk(dir: &Path, skip: &[PathBuf], files: &mut Vec<PathBuf>, errors: &mut Vec<(PathBuf, String)>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            if dir.exists() {
                errors.push((dir.to_path_buf(), e.to_string()));
            }
            return;
        }
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || name == "Output" {
            continue;
        }
        if path.is_dir() {
            if !skip.contains(&path) {
                walk(&path, skip, files, errors);
            }
        } else if name.ends_with(".mlir") {
            files.push(path);
        }
    }
}

fn rel_name(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// Runs one test file.
fn run_file(suite: &Suite, name: &str, path: &Path, text: &str) -> Result<Completion, Failed> {
    let spec = run_line::parse_test_file(text).map_err(|e| format!("{name}: {e}"))?;
    let has = |f: &str| suite.features.iter().any(|x| x == f);
    let eval = |list: &[String], what: &str| -> Result<Vec<String>, Failed> {
        let mut hits = Vec::new();
        for expr in list {
            if run_line::eval_feature_expr(expr, &has).map_err(|e| format!("{name}: {what}: {e}"))? {
                hits.push(expr.clone());
            }
        }
        Ok(hits)
    };
    let missing: Vec<String> =
        spec.requires.iter().filter(|e| !run_line::eval_feature_expr(e, &has).unwrap_or(false)).cloned().collect();
    if !missing.is_empty() {
        return Ok(Completion::ignored_with(format!("UNSUPPORTED: REQUIRES {} not met", missing.join(", "))));
    }
    let unsupported = eval(&spec.unsupported, "UNSUPPORTED")?;
    if !unsupported.is_empty() {
        return Ok(Completion::ignored_with(format!("UNSUPPORTED: {}", unsupported.join(", "))));
    }
    let xfail = !eval(&spec.xfail, "XFAIL")?.is_empty();

    let tmp_dir = suite.tmp_root.join(format!("{name}.d"));
    let _ = std::fs::remove_dir_all(&tmp_dir);
    std::fs::create_dir_all(&tmp_dir).map_err(|e| format!("cannot create {}: {e}", tmp_dir.display()))?;
    let stem = path.file_name().map_or("test".into(), |s| s.to_string_lossy().into_owned());
    let source_dir = path.parent().unwrap_or(Path::new("/"));
    let subst = run_line::Substitutions {
        source: path.display().to_string(),
        source_dir: source_dir.display().to_string(),
        temp: tmp_dir.join(format!("{stem}.tmp")).display().to_string(),
        temp_dir: tmp_dir.display().to_string(),
    };
    let mut ctx = shell::Context {
        name: name.to_string(),
        cwd: tmp_dir.clone(),
        tmp_root: suite.tmp_root.clone(),
        external_filecheck: match &suite.external_filecheck {
            None => None,
            Some(Ok(p)) => Some(p.clone()),
            Some(Err(e)) => return Err(e.clone().into()),
        },
        verbose: suite.verbose,
        timeout: suite.timeout,
        log: String::new(),
    };

    let mut failure: Option<String> = None;
    for run in &spec.run_lines {
        let header = format!("RUN: at line {}: {}\n", run.line, run.text);
        if suite.verbose {
            eprintln!("[{name}] {}", header.trim_end());
        }
        let script = run_line::lex(&run.text).and_then(|t| run_line::parse(&t)).map(|mut s| {
            run_line::substitute_script(&mut s, &subst);
            if let Some(plugin) = &suite.mlir_plugin {
                let words = s.items.iter_mut().flat_map(|(_, p)| p.commands.iter_mut()).flat_map(|c| c.argv.iter_mut());
                words.for_each(|w| *w = w.replace("%mlir_plugin", plugin));
            }
            // The binaries' paths, for programs a RUN line starts that start them in turn.
            let words = s.items.iter_mut().flat_map(|(_, p)| p.commands.iter_mut()).flat_map(|c| c.argv.iter_mut());
            words.for_each(|w| {
                *w = w.replace("%fuser_opt", env!("CARGO_BIN_EXE_fuser-opt"));
                if let Some(run) = option_env!("CARGO_BIN_EXE_fuser-run") {
                    *w = w.replace("%fuser_run", run);
                }
            });
            s
        });
        let script = match script {
            Ok(s) => s,
            Err(e) => {
                // A malformed RUN line is a test bug: fail even under XFAIL.
                return Err(format!("{name}:{}: malformed RUN line: {e}\n  {}", run.line, run.text).into());
            }
        };
        ctx.log.push_str(&header);
        match ctx.run_script(&script) {
            Ok(true) => {}
            Ok(false) => {
                failure = Some(format!("{name}:{}: RUN line failed", run.line));
                break;
            }
            Err(e) => {
                return Err(format!("{}\n{name}:{}: error: {e}", ctx.log.trim_end(), run.line).into());
            }
        }
    }
    match (failure, xfail) {
        (None, false) => Ok(Completion::Completed),
        (Some(_), true) => Ok(Completion::Completed),
        (None, true) => Err(format!("{name}: XPASS: the test passed but is marked XFAIL\n{}", ctx.log).into()),
        (Some(msg), false) => Err(format!(
            "{}\n{msg}\n(temporary directory: {}; run with FUSER_LIT_VERBOSE=1 to echo commands)",
            ctx.log.trim_end(),
            tmp_dir.display()
        )
        .into()),
    }
}

// ---------------------------------------------------------------------------------------
// Unit tests of the harness itself
// ---------------------------------------------------------------------------------------

type HarnessTest = fn() -> Result<(), String>;

const HARNESS_TESTS: &[(&str, HarnessTest)] = &[
    ("lex-quotes", lex_quotes),
    ("lex-operators", lex_operators),
    ("lex-errors", lex_errors),
    ("parse-continuations", parse_continuations),
    ("substitutions", substitutions),
    ("feature-expressions", feature_expressions),
    ("canonicalize", canonicalize),
    ("negated-classes", negated_classes),
];

fn words(s: &str) -> Result<Vec<String>, String> {
    Ok(run_line::lex(s)?
        .into_iter()
        .map(|t| match t {
            run_line::Tok::Word(w) => w,
            other => format!("<{other:?}>"),
        })
        .collect())
}

fn expect<T: PartialEq + std::fmt::Debug>(what: &str, got: T, want: T) -> Result<(), String> {
    if got == want { Ok(()) } else { Err(format!("{what}: got {got:?}, want {want:?}")) }
}

fn lex_quotes() -> Result<(), String> {
    expect(
        "pipeline option",
        words("fuser-opt %s --pass-pipeline='builtin.module(cse, canonicalize)'")?,
        vec!["fuser-opt".into(), "%s".into(), "--pass-pipeline=builtin.module(cse, canonicalize)".into()],
    )?;
    expect(
        "double quotes",
        words(r#"echo "a \"b\" | c" x\ y"#)?,
        vec!["echo".into(), "a \"b\" | c".into(), "x y".into()],
    )?;
    expect("glued", words(r#"a'b'"c"d"#)?, vec!["abcd".to_string()])?;
    expect("empty string", words("echo ''")?, vec!["echo".to_string(), String::new()])
}

fn lex_operators() -> Result<(), String> {
    expect(
        "operators",
        words("a|b&&c||d;e <f >g >>h 2>i 2>>j 2>&1 &>k")?,
        [
            "a",
            "<Pipe>",
            "b",
            "<AndAnd>",
            "c",
            "<OrOr>",
            "d",
            "<Semi>",
            "e",
            "<Redir(In)>",
            "f",
            "<Redir(Out)>",
            "g",
            "<Redir(Append)>",
            "h",
            "<Redir(Err)>",
            "i",
            "<Redir(ErrAppend)>",
            "j",
            "<Redir(ErrToOut)>",
            "<Redir(Both)>",
            "k",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>(),
    )?;
    expect("count 2", words("count 2")?, vec!["count".to_string(), "2".to_string()])?;
    let script = run_line::parse(&run_line::lex("not cat x 2>&1 | FileCheck %s && true")?)?;
    expect("items", script.items.len(), 2)?;
    expect("stages", script.items[0].1.commands.len(), 2)
}

fn lex_errors() -> Result<(), String> {
    for bad in ["echo 'x", "echo \"x", "a &", "a | | b", "a |", "a >", "", "x >&2"] {
        let r = run_line::lex(bad).and_then(|t| run_line::parse(&t));
        if r.is_ok() {
            return Err(format!("'{bad}' should be rejected"));
        }
    }
    Ok(())
}

fn parse_continuations() -> Result<(), String> {
    let spec = run_line::parse_test_file(
        "// RUN: fuser-opt %s \\\n// RUN:   | FileCheck %s\n// CHECK: RUN: no\n  // XFAIL: *\n//RUN:true\n",
    )?;
    expect("runs", spec.run_lines.len(), 2)?;
    expect("joined", spec.run_lines[0].text.as_str(), "fuser-opt %s    | FileCheck %s")?;
    expect("line", spec.run_lines[1].line, 5)?;
    expect("xfail", spec.xfail, vec!["*".to_string()])?;
    if run_line::parse_test_file("// RUN: a \\\n").is_ok() {
        return Err("dangling continuation should be an error".into());
    }
    Ok(())
}

fn substitutions() -> Result<(), String> {
    let s = run_line::Substitutions {
        source: "/w/t/a b.mlir".into(),
        source_dir: "/w/t".into(),
        temp: "/tmp/x/a.tmp".into(),
        temp_dir: "/tmp/x".into(),
    };
    expect(
        "all",
        run_line::substitute("%s|%S|%p|%t.1|%T|%%s|%x|100%", &s),
        "/w/t/a b.mlir|/w/t|/w/t|/tmp/x/a.tmp.1|/tmp/x|%s|%x|100%".to_string(),
    )
}

fn feature_expressions() -> Result<(), String> {
    let has = |f: &str| f == "linux" || f == "fuser-opt";
    for (e, want) in [
        ("*", true),
        ("linux", true),
        ("windows", false),
        ("!windows && linux", true),
        ("windows || (fuser-opt && !false)", true),
    ] {
        expect(e, run_line::eval_feature_expr(e, &has)?, want)?;
    }
    if run_line::eval_feature_expr("a &&", &has).is_ok() {
        return Err("incomplete expression accepted".into());
    }
    Ok(())
}

fn canonicalize() -> Result<(), String> {
    expect("runs", filecheck::canonicalize("a \t  b\r\n\tc\r", false), "a b\n c\r".to_string())?;
    expect("strict", filecheck::canonicalize("a \t b\r\n", true), "a \t b\n".to_string())
}

fn negated_classes() -> Result<(), String> {
    for (pattern, want) in [
        ("a [[V:[^ ]+]] b", r"a [[V:[^ \n]+]] b"),
        ("{{[^])]*}} [[X]] [[#N+1]]", r"{{[^])\n]*}} [[X]] [[#N+1]]"),
        ("{{[^[:digit:]]+}}{{[a-z]}}", r"{{[^[:digit:]\n]+}}{{[a-z]}}"),
        (r"{{\[^x}}", r"{{\[^x}}"),
        ("plain [^x] text", "plain [^x] text"),
        ("{{[^x", "{{[^x"),
        ("x{{a|b}}y", "x{{(?:a|b)}}y"),
    ] {
        expect(pattern, filecheck::rewrite_for_litcheck(pattern), want.to_string())?;
    }
    Ok(())
}
