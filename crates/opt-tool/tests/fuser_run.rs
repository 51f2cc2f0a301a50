//! End-to-end tests of the `fuser-run` binary: the seed examples pass `--check`, `--help`
//! documents every flag, bad arguments and bad input are diagnosed with exit status 1.

use std::path::PathBuf;
use std::process::{Command, Output};

/// The checkout (`FUSER_REPO_ROOT` when the test binary runs on another machine, e.g. a GPU one).
fn root() -> PathBuf {
    std::env::var_os("FUSER_REPO_ROOT")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.."), PathBuf::from)
}

fn fuser_run(args: &[&str]) -> Output {
    let bin =
        std::env::var_os("FUSER_RUN_BIN").map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_fuser-run")), PathBuf::from);
    Command::new(bin).args(args).current_dir(root()).output().expect("fuser-run starts")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn examples_pass_the_reference_check() {
    for (file, ranks) in
        [("stream_parallel_matmul", "1"), ("row_parallel_linear", "4"), ("column_parallel_linear", "4")]
    {
        let o = fuser_run(&[&format!("examples/{file}.mlir"), "--ranks", ranks, "--check", "--seed", "11"]);
        assert!(o.status.success(), "{file}: {}{}", stdout(&o), String::from_utf8_lossy(&o.stderr));
        assert!(stdout(&o).contains("check: PASS (max rel err"), "{file}: {}", stdout(&o));
    }
}

#[test]
fn help_lists_every_flag() {
    let o = fuser_run(&["--help"]);
    assert!(o.status.success());
    let help = stdout(&o);
    for flag in [
        "--ranks",
        "--devices",
        "--backend",
        "--pass-pipeline",
        "--check",
        "--reference",
        "--seed",
        "--warmup",
        "--iters",
        "--trace",
        "--csv",
    ] {
        assert!(help.contains(flag), "--help does not mention {flag}");
    }
    for rule in ["or 1 when the input declares no mesh", "of all their devices together", "`fuser-run: error: ...`"] {
        assert!(help.contains(rule), "--help does not say {rule:?}");
    }
}

#[test]
fn bad_arguments_and_inputs_exit_with_status_1() {
    for args in [
        vec!["examples/row_parallel_linear.mlir", "--ranks", "0"],
        vec!["examples/row_parallel_linear.mlir", "--backend", "gpu"],
        vec!["examples/row_parallel_linear.mlir", "--pass-pipeline", "no-such-pass"],
        vec!["does/not/exist.mlir"],
        vec!["examples/row_parallel_linear.mlir", "--ranks", "3"],
    ] {
        let o = fuser_run(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(!o.stderr.is_empty(), "{args:?}: no message");
    }
}

/// Errors that are not about a place in the input (arguments, files, the pipeline, the mesh
/// against --ranks) read `fuser-run: error: ...`, never `<unknown>:0: error: ...`.
#[test]
fn errors_without_a_location_name_the_tool() {
    for args in [
        vec!["examples/row_parallel_linear.mlir", "--ranks", "0"],
        vec!["examples/row_parallel_linear.mlir", "--bogus"],
        vec!["does/not/exist.mlir"],
        vec!["examples/row_parallel_linear.mlir", "--pass-pipeline", "no-such-pass"],
        vec!["examples/row_parallel_linear.mlir", "--ranks", "1"],
        vec!["examples/row_parallel_linear.mlir", "--check", "--reference", "does/not/exist.mlir"],
        vec!["test/Run/errors.mlir", "--check"],
    ] {
        let o = fuser_run(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(err.starts_with("fuser-run: error: "), "{args:?}: {err}");
        assert!(!err.contains("<unknown>"), "{args:?}: {err}");
    }
}

/// Without --ranks, the run has one rank per device of the program's mesh.
#[test]
fn ranks_default_to_the_devices_of_the_mesh() {
    for (file, ranks) in [("examples/row_parallel_linear.mlir", 4), ("test/Run/inputs/row_parallel_linear_2.mlir", 2)] {
        let o = fuser_run(&[file, "--check"]);
        assert_passed(&o);
        assert!(stdout(&o).contains(&format!("on {ranks} rank(s)")), "{file}: {}", stdout(&o));
    }
}

/// Asserts a successful run with `check: PASS`.
fn assert_passed(o: &Output) {
    assert!(
        o.status.success() && stdout(o).contains("check: PASS"),
        "{}{}",
        stdout(o),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Prints a skip note past libtest's capture (it swallows `eprintln!` of passing tests).
fn note_skip(message: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "skipped: {message}");
}

/// Whether `o` is the cuda backend's refusal on a machine without a GPU stack.
fn no_cuda(o: &Output) -> bool {
    let err = String::from_utf8_lossy(&o.stderr);
    err.contains("cannot load") && err.contains("the cuda backend needs")
}

/// The cuda backend end to end: on a GPU machine the stream-parallel matmul (1 rank) and a
/// 2-rank row-parallel linear (where 2 GPUs exist; in one process, then one process per GPU)
/// pass `--check`; elsewhere (CI) the run must fail cleanly with the loader message, and the
/// test says it skipped.
#[test]
fn cuda_backend_passes_the_check_or_skips_cleanly() {
    let o = fuser_run(&["examples/stream_parallel_matmul.mlir", "--backend", "cuda", "--check"]);
    if no_cuda(&o) {
        assert_eq!(o.status.code(), Some(1));
        note_skip("no CUDA driver/libraries here (fuser-run --backend cuda refused cleanly)");
        return;
    }
    assert_passed(&o);
    let two = ["test/Run/inputs/row_parallel_linear_2.mlir", "--ranks", "2", "--backend", "cuda", "--check"];
    let o = fuser_run(&two);
    if String::from_utf8_lossy(&o.stderr).contains("needs 2 GPUs") {
        note_skip("the 2-rank cuda cases: one GPU here");
        return;
    }
    assert_passed(&o);
    assert_passed(&fuser_run(&[&two[..], &["--launch"]].concat()));
}

/// The column-parallel linear of the matrix on 2 ranks (f32, 32×32 operands, 2 chunks), in a
/// temporary file (`--launch` reads it in every process).
fn column_parallel_linear_2(tag: &str) -> PathBuf {
    let template = std::fs::read_to_string(root().join("test/Run/matrix/column_parallel_linear.mlir.in")).unwrap();
    let text =
        [("${DEVICES}", "0, 1"), ("${DT}", "f32"), ("${M}", "32"), ("${K}", "32"), ("${N}", "32"), ("${S}", "2")]
            .iter()
            .fold(template, |t, (k, v)| t.replace(k, v));
    let path = std::env::temp_dir().join(format!("fuser-run-{tag}-{}.mlir", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// Ranks sharing one GPU (`--devices 0,0`): the CUDA IPC rings (get and put) pass `--check` as
/// two processes on GPU 0; in one process such a transfer is refused (its flag wait and
/// release would share the GPU's queues), and so is a NCCL op between the two ranks (NCCL
/// refuses two members on one GPU). Without a GPU stack the run fails with the loader message
/// and the test says it skipped.
#[test]
fn ranks_sharing_a_gpu_run_cuda_ipc_as_processes_and_refuse_nccl() {
    let file = column_parallel_linear_2("share");
    let f = file.to_str().unwrap();
    let ipc = |protocol: &str| {
        format!("builtin.module(tp-overlap-p2p{{streams=1 chunks=2 backend=cuda_ipc protocol={protocol}}})")
    };
    let (get, put) = (ipc("get"), ipc("put"));
    let base = [f, "--backend", "cuda", "--ranks", "2", "--devices", "0,0", "--check", "--timeout", "20"];
    let o = fuser_run(&[&base[..], &["--launch", "--pass-pipeline", &get]].concat());
    if no_cuda(&o) {
        let _ = std::fs::remove_file(&file);
        assert_eq!(o.status.code(), Some(1));
        note_skip("ranks sharing a GPU: no CUDA driver/libraries here (fuser-run --backend cuda refused cleanly)");
        return;
    }
    assert_passed(&o);
    assert_passed(&fuser_run(&[&base[..], &["--launch", "--pass-pipeline", &put]].concat()));
    let one_process = fuser_run(&[&base[..], &["--pass-pipeline", &get]].concat());
    let nccl = "builtin.module(tp-overlap-p2p{streams=1 chunks=2 backend=nccl protocol=get})";
    let with_nccl = fuser_run(&[&base[..], &["--launch", "--pass-pipeline", nccl]].concat());
    let _ = std::fs::remove_file(&file);
    let err = String::from_utf8_lossy(&one_process.stderr);
    assert!(!one_process.status.success() && err.contains("share GPU 0"), "{err}");
    let err = String::from_utf8_lossy(&with_nccl.stderr);
    assert!(!with_nccl.status.success() && err.contains("NCCL refuses two members"), "{err}");
}

/// The copy-engine collectives (`tp-overlap-collective{backend=cuda_ipc}`, docs/dev/copy-engine.md)
/// on ranks sharing one GPU: the row-parallel linear (an allreduce per chunk) and the
/// allgather before a linear pass `--check` as two processes on GPU 0; in one process the
/// transfer between the two ranks of GPU 0 is refused as for the p2p rings. Without a GPU stack
/// the run fails with the loader message and the test says it skipped.
#[test]
fn copy_engine_collectives_run_as_processes_sharing_a_gpu() {
    let pipeline = "builtin.module(tp-overlap-collective{streams=2 chunks=2 backend=cuda_ipc})";
    let mut files = Vec::new();
    for program in ["row_parallel_linear", "allgather_before_linear"] {
        let template = std::fs::read_to_string(root().join(format!("test/Run/matrix/{program}.mlir.in"))).unwrap();
        let subs = [
            ("${DEVICES}", "0, 1"),
            ("${DT}", "f32"),
            ("${M}", "64"),
            ("${K}", "32"),
            ("${N}", "32"),
            ("${H}", "32"),
            ("${S}", "2"),
        ];
        let text = subs.iter().fold(template, |t, (k, v)| t.replace(k, v));
        let path = std::env::temp_dir().join(format!("fuser-run-ce-{program}-{}.mlir", std::process::id()));
        std::fs::write(&path, text).unwrap();
        files.push(path);
    }
    let run = |file: &PathBuf, launch: bool| {
        let f = file.to_str().unwrap();
        let base = [f, "--backend", "cuda", "--ranks", "2", "--devices", "0,0", "--check", "--timeout", "20"];
        let extra: &[&str] =
            if launch { &["--launch", "--pass-pipeline", pipeline] } else { &["--pass-pipeline", pipeline] };
        fuser_run(&[&base[..], extra].concat())
    };
    let first = run(&files[0], true);
    if no_cuda(&first) {
        files.iter().for_each(|f| drop(std::fs::remove_file(f)));
        assert_eq!(first.status.code(), Some(1));
        note_skip("copy-engine collectives: no CUDA driver/libraries here (fuser-run --backend cuda refused cleanly)");
        return;
    }
    assert_passed(&first);
    assert_passed(&run(&files[1], true));
    let one_process = run(&files[0], false);
    files.iter().for_each(|f| drop(std::fs::remove_file(f)));
    let err = String::from_utf8_lossy(&one_process.stderr);
    assert!(!one_process.status.success() && err.contains("share GPU 0"), "{err}");
}
