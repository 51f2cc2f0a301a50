//! `fuser-run --launch --backend cpu` end to end: one process per rank, communication through
//! rank 0's hub. A clean run passes `--check`; a rank that exits early, is killed with
//! SIGKILL mid-run (rank 1, and rank 0 which serves the hub) or never joins ends the run with
//! status 1 within the bound of `--timeout`, a message naming the rank, and no process of the
//! run left behind (every process of a run carries a marker variable that the test looks for
//! in /proc afterwards). Faults are injected with the test-only FUSER_TEST_RANK_FAULT
//! (docs/dev/runtime.md).

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const TIMEOUT_S: u64 = 4;

fn root() -> PathBuf {
    std::env::var_os("FUSER_REPO_ROOT")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.."), PathBuf::from)
}

/// A value no other run of this test shares (marks the processes of one run).
fn marker(name: &str) -> String {
    format!("{name}-{}-{:?}", std::process::id(), Instant::now())
}

/// Runs `fuser-run --launch` on the 4-rank row-parallel example with `fault` injected; the
/// output, the time it took and the marker of its processes.
fn launch(fault: Option<&str>, name: &str) -> (Output, Duration, String) {
    launch_file("examples/row_parallel_linear.mlir", &["--check", "--iters", "2"], fault, name)
}

/// Runs `fuser-run FILE --launch --ranks 4 --timeout TIMEOUT_S ARGS` with `fault` injected.
fn launch_file(file: &str, args: &[&str], fault: Option<&str>, name: &str) -> (Output, Duration, String) {
    let bin =
        std::env::var_os("FUSER_RUN_BIN").map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_fuser-run")), PathBuf::from);
    let mark = marker(name);
    let mut cmd = Command::new(bin);
    cmd.args([file, "--ranks", "4", "--launch"])
        .args(args)
        .args(["--timeout", &TIMEOUT_S.to_string()])
        .current_dir(root())
        .env("FUSER_TEST_RUN_MARKER", &mark)
        .env_remove("FUSER_TEST_RANK_FAULT");
    if let Some(f) = fault {
        cmd.env("FUSER_TEST_RANK_FAULT", f);
    }
    let start = Instant::now();
    let out = cmd.output().expect("fuser-run starts");
    (out, start.elapsed(), mark)
}

/// The processes (other than this one) whose environment holds `mark`.
fn processes_marked(mark: &str) -> Vec<String> {
    let needle = format!("FUSER_TEST_RUN_MARKER={mark}");
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()))
        .filter(|&pid| pid != std::process::id())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.split(|&b| b == 0).any(|v| v == needle.as_bytes()))
        })
        .map(|pid| pid.to_string())
        .collect()
}

fn text(o: &Output) -> String {
    format!("--- stdout\n{}--- stderr\n{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// A failed run: status 1, every `expected` line part in stderr, within `bound`, no process
/// of the run left.
fn assert_failed_cleanly(fault: &str, expected: &[&str], bound: Duration) {
    let (out, took, mark) = launch(Some(fault), fault);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{fault}: {}", text(&out));
    for e in expected {
        assert!(stderr.contains(e), "{fault}: stderr lacks '{e}'\n{}", text(&out));
    }
    assert!(!stderr.contains("panicked"), "{fault}: {}", text(&out));
    assert!(took < bound, "{fault}: took {took:?} (bound {bound:?})\n{}", text(&out));
    assert_eq!(processes_marked(&mark), Vec::<String>::new(), "{fault}: processes of the run are left");
}

#[test]
fn a_launched_cpu_run_gathers_every_rank_and_passes_the_check() {
    let (out, _, mark) = launch(None, "clean");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && stdout.contains("check: PASS"), "{}", text(&out));
    assert!(stdout.contains("on 4 rank(s), backend cpu"), "{}", text(&out));
    // One row per rank, each with its own counters (gathered from the other processes):
    // `rank mean-ms min-ms ops/it bytes/it`, every rank ran ops and moved bytes.
    for r in 0..4 {
        let row: Vec<&str> = stdout
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .find(|cols| cols.len() == 5 && cols[0] == r.to_string())
            .unwrap_or_else(|| panic!("no row for rank {r}: {}", text(&out)));
        let positive = |c: &str| c.parse::<f64>().is_ok_and(|v| v > 0.0);
        assert!(positive(row[3]) && positive(row[4]), "rank {r}: {row:?}");
    }
    assert!(processes_marked(&mark).is_empty());
}

/// A rank that leaves or dies is detected by the hub at once: the run ends in about a second.
const PROMPT: Duration = Duration::from_secs(TIMEOUT_S);

#[test]
fn a_rank_that_exits_early_is_named() {
    assert_failed_cleanly("1:exit", &["rank 1 left the run before finishing"], PROMPT);
}

#[test]
fn a_rank_killed_mid_run_is_named_with_its_signal() {
    assert_failed_cleanly(
        "2:kill",
        &["rank 2 was killed by signal 9 (SIGKILL)", "rank 2 left the run before finishing"],
        PROMPT,
    );
}

#[test]
fn rank_0_killed_mid_run_ends_the_others() {
    assert_failed_cleanly(
        "0:kill",
        &["rank 0 was killed by signal 9 (SIGKILL)", "the connection to rank 0's hub ended"],
        PROMPT,
    );
}

#[test]
fn a_rank_that_never_joins_is_named_after_the_timeout() {
    // The others give up at --timeout; the launcher stops the missing one 2 s later.
    assert_failed_cleanly(
        "3:never-join",
        &["rank 3 never joined the run within 4s", "rank 3 killed after another rank failed"],
        Duration::from_secs(TIMEOUT_S + 3),
    );
}

/// The ring of test/Run/seeded-swapped-peer.mlir with the right peers but without its
/// comm.group (the lit test's HANG variant): every rank's NCCL send blocks its stream.
fn ring_without_group() -> String {
    let text = std::fs::read_to_string(root().join("test/Run/seeded-swapped-peer.mlir")).expect("the seeded ring");
    text.replace("comm.send %arg0 to %6", "comm.send %arg0 to %8")
        .replace("comm.recv %9 from %8", "comm.recv %9 from %6")
        .replace("comm.wait %11", "comm.wait %13, %14")
        .lines()
        .filter(|l| !l.contains("%11 = comm.group {") && *l != "        }")
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn a_deadlock_across_processes_is_reported_by_the_watchdog() {
    let path = std::env::temp_dir().join(format!("fuser-procs-hang-{}.mlir", std::process::id()));
    std::fs::write(&path, ring_without_group()).unwrap();
    let (out, took, mark) = launch_file(path.to_str().unwrap(), &[], None, "hang");
    let _ = std::fs::remove_file(&path);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(stderr.contains(&format!("deadlock or timeout after {TIMEOUT_S}s: rank ")), "{}", text(&out));
    assert!(stderr.contains("waits in send to rank"), "{}", text(&out));
    // Rank 0 adds the other processes' side: the sends nobody received.
    assert!(stderr.contains("unmatched at rank 0's hub: rank 0 send to rank "), "{}", text(&out));
    assert!(took < Duration::from_secs(3 * TIMEOUT_S), "took {took:?}\n{}", text(&out));
    assert!(processes_marked(&mark).is_empty());
}

/// A bad pipeline is an error of the launcher, reported once before any rank starts (before,
/// every rank parsed the pipeline and printed the same error).
#[test]
fn a_bad_pipeline_is_reported_once_and_starts_no_rank() {
    let bad = "builtin.module(tp-overlap-collective{streams=2 chunks=4 transport=pigeon})";
    let (out, _, mark) = launch_file("examples/row_parallel_linear.mlir", &["--pass-pipeline", bad], None, "badpipe");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(stderr.matches("invalid --pass-pipeline").count(), 1, "{}", text(&out));
    assert!(!stderr.contains("rank "), "no rank ran:\n{}", text(&out));
    assert!(processes_marked(&mark).is_empty());
}
