//! Differential test matrix of `fuser-run --check`: every seed program of the lowering and
//! comm-pipeline work, lowered by every pipeline that applies to it, for team sizes
//! d ∈ {1, 2, 3, 4, 8}, worker streams ∈ {1, 2, 4, 8}, element types f32 and bf16, and square
//! and non-square extents (plus d ∈ {5, 6, 7} with 2 streams in f32, so every size from 1 to 8
//! runs; the copy-engine collective pipeline, `tp-overlap-collective{backend=cuda_ipc}`, with 4
//! worker streams only), must run on d cpu ranks and match the unsharded f64 reference (`check: PASS`, exit
//! status 0), with the race checker on (`--check-races`: every lowering orders its streams and
//! waits for its communications; the cpu backend with the ranks in one process only: launched
//! cases run without it).
//!
//! The programs are templates in `test/Run/matrix/*.mlir.in`; `${DEVICES}`, `${DT}`, `${M}`,
//! `${K}`, `${N}`, `${H}` and `${S}` (stream chunks as written) are substituted per case and
//! the instance is piped into the `fuser-run` binary. Each case is one named libtest-mimic
//! trial, `program/pipeline/d4/w2/bf16/square`, so `cargo test -p fuser-opt-tool --test
//! fuser_run_matrix -- row_parallel` runs a subset and a failure names its case and prints how
//! to reproduce it by hand.
//!
//! Extents are chosen per case so that every split divides: M by S·d (stream chunks of a
//! device split) and by 2·d (the re-chunking of `tp-overlap-collective{chunks=2}`), K by d,
//! N and H by S and by 2. Square cases use S = 4 and M = K = N = H; non-square ones use S = 3.
//! Programs whose ring needs one chunk per device use S = d.
//!
//! Cases the cpu backend cannot run are listed in [`known_failure`] (none today); they would be
//! registered as ignored trials with the reason (run them with `-- --ignored`).
//!
//! On a GPU machine the same matrix runs on the cuda backend (`benches/gpu/device-run.sh` does
//! this): `FUSER_RUN_MATRIX_BACKEND=cuda` passes `--backend cuda`, keeps the cases of at most
//! `FUSER_RUN_MATRIX_MAX_RANKS` ranks (the GPUs there) and worker streams {1, 4};
//! `FUSER_RUN_BIN` and `FUSER_REPO_ROOT` point at the binary and the checkout when the test
//! executable was built on another machine. `FUSER_RUN_MATRIX_LAUNCH=1` adds `--launch` to
//! every case (one process per rank; on the cuda backend the CUDA IPC pipelines exchange memory
//! handles through the store, on the cpu backend they run through rank 0's hub).
//! `FUSER_RUN_MATRIX_EXTRA_ARGS` adds its whitespace-separated flags to every case (e.g.
//! `--cuda-graph --iters 3`: the outputs checked are those of the last graph replay).
//! `FUSER_RUN_MATRIX_ONE_GPU=1` (cuda, with `FUSER_RUN_MATRIX_LAUNCH=1`) runs every rank on
//! GPU 0 (`--devices 0,0,...`), so a one-GPU machine checks cases of up to
//! `FUSER_RUN_MATRIX_MAX_RANKS` ranks; it keeps the CUDA IPC pipelines only (NCCL refuses two
//! ranks on one GPU).
//!
//! Without it, a subset runs launched on the cpu backend as well, as the cases
//! `launch/program/pipeline/d3/w2/f32/nonsquare`: every program with every pipeline, on 3
//! processes (the process paths of `fuser-run --launch --backend cpu` under `cargo test`), and
//! the CUDA IPC pipelines (every communication cuda_ipc) on 1, 2, 4 and 8 processes too.

use libtest_mimic::{Arguments, Failed, Trial};
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Team sizes (devices of the mesh = ranks).
const DEVICES: [usize; 5] = [1, 2, 3, 4, 8];
/// Team sizes run in one configuration each (2 worker streams, f32, both shapes), so that every
/// pipeline is checked on 1 to 8 ranks.
const MORE_DEVICES: [usize; 3] = [5, 6, 7];
/// Values of the pipelines' `streams` option.
const WORKER_STREAMS: [usize; 4] = [1, 2, 4, 8];
const DTYPES: [&str; 2] = ["f32", "bf16"];
/// Watchdog deadline per case: a hang fails in seconds instead of the default minute.
const TIMEOUT_S: &str = "10";

/// How a program's stream chunk count relates to the team.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Chunking {
    /// Any count: 4 for square cases, 3 for non-square ones.
    Free,
    /// One chunk per device (a DID→Stream ring or a reduce onto each chunk's owner).
    PerDevice,
}

/// A lowering pipeline, as a function of the worker streams and the team size.
#[derive(Clone, Copy, Debug)]
enum Pipeline {
    /// `tp-default{streams=W}`.
    Default,
    /// `tp-overlap-collective{streams=W chunks=C}`, C = d for per-device programs, else 2.
    Collective,
    /// The same with `backend=cuda_ipc`: copy-engine allgather/allreduce/reduce_scatter
    /// (docs/dev/copy-engine.md); run with [`COPY_ENGINE_STREAMS`] worker streams only.
    CollectiveCopyEngine,
    /// `tp-overlap-p2p{streams=W chunks=d backend=.. protocol=..}`.
    P2p { backend: &'static str, protocol: &'static str },
}

impl Pipeline {
    fn label(self) -> String {
        match self {
            Pipeline::Default => "tp-default".into(),
            Pipeline::Collective => "tp-overlap-collective".into(),
            Pipeline::CollectiveCopyEngine => "tp-overlap-collective-cuda_ipc".into(),
            Pipeline::P2p { backend: "nccl", .. } => "tp-overlap-p2p-nccl".into(),
            Pipeline::P2p { backend, protocol } => format!("tp-overlap-p2p-{backend}-{protocol}"),
        }
    }

    /// The `--pass-pipeline` text.
    fn text(self, streams: usize, d: usize, chunking: Chunking) -> String {
        match self {
            Pipeline::Default => format!("builtin.module(tp-default{{streams={streams}}})"),
            Pipeline::Collective => {
                let chunks = if chunking == Chunking::PerDevice { d } else { 2 };
                format!("builtin.module(tp-overlap-collective{{streams={streams} chunks={chunks}}})")
            }
            Pipeline::CollectiveCopyEngine => {
                let chunks = if chunking == Chunking::PerDevice { d } else { 2 };
                format!("builtin.module(tp-overlap-collective{{streams={streams} chunks={chunks} backend=cuda_ipc}})")
            }
            Pipeline::P2p { backend, protocol } => format!(
                "builtin.module(tp-overlap-p2p{{streams={streams} chunks={d} backend={backend} protocol={protocol}}})"
            ),
        }
    }
}

/// A template of test/Run/matrix and the pipelines that lower it.
struct Program {
    file: &'static str,
    chunking: Chunking,
    pipelines: &'static [Pipeline],
}

const COLLECTIVE: &[Pipeline] = &[Pipeline::Default, Pipeline::Collective, Pipeline::CollectiveCopyEngine];

/// Worker streams of the copy-engine collective pipeline's cases (with every team size and
/// element type; [`MORE_DEVICES`] keep their 2 streams): one value, to bound the matrix.
const COPY_ENGINE_STREAMS: usize = 4;

/// The collective pipelines and every ring (NCCL, CUDA IPC get and put).
const RING: &[Pipeline] = &[
    Pipeline::Default,
    Pipeline::Collective,
    Pipeline::CollectiveCopyEngine,
    Pipeline::P2p { backend: "nccl", protocol: "get" },
    Pipeline::P2p { backend: "cuda_ipc", protocol: "get" },
    Pipeline::P2p { backend: "cuda_ipc", protocol: "put" },
];

const PROGRAMS: &[Program] = &[
    Program { file: "stream_parallel_matmul", chunking: Chunking::Free, pipelines: COLLECTIVE },
    Program { file: "row_parallel_linear", chunking: Chunking::Free, pipelines: COLLECTIVE },
    Program { file: "row_parallel_linear_bias", chunking: Chunking::Free, pipelines: COLLECTIVE },
    Program { file: "column_parallel_linear", chunking: Chunking::PerDevice, pipelines: RING },
    Program { file: "matmul_reduce_scatter", chunking: Chunking::PerDevice, pipelines: RING },
    Program { file: "linear_reduce_scatter", chunking: Chunking::Free, pipelines: COLLECTIVE },
    Program { file: "allgather_before_linear", chunking: Chunking::Free, pipelines: COLLECTIVE },
    Program { file: "allgather_after_linear", chunking: Chunking::Free, pipelines: COLLECTIVE },
    Program { file: "two_matmuls_inlinable", chunking: Chunking::Free, pipelines: COLLECTIVE },
    Program { file: "two_matmuls_not_inlinable", chunking: Chunking::Free, pipelines: COLLECTIVE },
    Program { file: "all_to_all", chunking: Chunking::Free, pipelines: COLLECTIVE },
    // Issue 11: the ring's receive buffer also returned (defect 3); a gather loop that also
    // reduces each chunk to its owner (defect 1) or to every rank (defect 2).
    Program { file: "gather_linear_return_gathered", chunking: Chunking::PerDevice, pipelines: RING },
    Program { file: "mlp_reduce_in_gather_loop", chunking: Chunking::PerDevice, pipelines: RING },
    Program { file: "mlp_allreduce_in_gather_loop", chunking: Chunking::PerDevice, pipelines: RING },
];

/// The substituted values of one case.
#[derive(Clone, Debug)]
struct Instance {
    devices: usize,
    dtype: &'static str,
    chunks: usize,
    m: usize,
    k: usize,
    n: usize,
    h: usize,
}

impl Instance {
    fn new(devices: usize, dtype: &'static str, square: bool, chunking: Chunking) -> Instance {
        let chunks = match (chunking, square) {
            (Chunking::PerDevice, _) => devices,
            (Chunking::Free, true) => 4,
            (Chunking::Free, false) => 3,
        };
        // M must split into S·d and 2·d pieces, K into d, N and H into S and 2.
        let unit = lcm(lcm(chunks * devices, 2 * devices), lcm(chunks, 2));
        if square {
            let side = unit * 16usize.div_ceil(unit);
            Instance { devices, dtype, chunks, m: side, k: side, n: side, h: side }
        } else {
            let nh = lcm(chunks, 2);
            Instance { devices, dtype, chunks, m: unit * 2, k: 7 * devices, n: 3 * nh, h: 5 * nh }
        }
    }

    fn mesh(&self) -> String {
        (0..self.devices).map(|i| i.to_string()).collect::<Vec<_>>().join(", ")
    }

    fn substitutions(&self) -> Vec<(&'static str, String)> {
        vec![
            ("${DEVICES}", self.mesh()),
            ("${DT}", self.dtype.to_string()),
            ("${M}", self.m.to_string()),
            ("${K}", self.k.to_string()),
            ("${N}", self.n.to_string()),
            ("${H}", self.h.to_string()),
            ("${S}", self.chunks.to_string()),
        ]
    }

    fn instantiate(&self, template: &str) -> String {
        self.substitutions().iter().fold(template.to_string(), |text, (key, value)| text.replace(key, value))
    }

    /// A shell command that rebuilds the instance from its template.
    fn sed_command(&self, file: &str) -> String {
        let edits: Vec<String> = self
            .substitutions()
            .iter()
            .map(|(key, value)| format!("-e 's/\\${{{}}}/{value}/g'", &key[2..key.len() - 1]))
            .collect();
        format!("sed {} test/Run/matrix/{file}.mlir.in", edits.join(" "))
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

fn lcm(a: usize, b: usize) -> usize {
    a / gcd(a, b) * b
}

/// The reasons of [`known_failure`], printed with the case count.
const KNOWN_FAILURES: &[&str] = &[];

/// Why a case is known not to pass yet, if it is.
fn known_failure(_program: &Program, _pipeline: Pipeline, _devices: usize) -> Option<&'static str> {
    None
}

fn root() -> PathBuf {
    match std::env::var_os("FUSER_REPO_ROOT") {
        Some(r) => PathBuf::from(r),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.."),
    }
}

fn fuser_run_binary() -> PathBuf {
    std::env::var_os("FUSER_RUN_BIN").map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_fuser-run")), PathBuf::from)
}

/// The backend the cases run on (`cpu` unless `FUSER_RUN_MATRIX_BACKEND` says otherwise).
fn backend() -> String {
    std::env::var("FUSER_RUN_MATRIX_BACKEND").unwrap_or_else(|_| "cpu".into())
}

/// The flags of `FUSER_RUN_MATRIX_EXTRA_ARGS` (module doc).
fn extra_args() -> Vec<String> {
    std::env::var("FUSER_RUN_MATRIX_EXTRA_ARGS")
        .map_or_else(|_| Vec::new(), |v| v.split_whitespace().map(String::from).collect())
}

/// Whether the cases run as one process per rank (`FUSER_RUN_MATRIX_LAUNCH=1`).
fn launched() -> bool {
    std::env::var("FUSER_RUN_MATRIX_LAUNCH").is_ok_and(|v| v == "1")
}

/// Whether every rank runs on GPU 0 (`FUSER_RUN_MATRIX_ONE_GPU=1`, module doc).
fn one_gpu() -> bool {
    std::env::var("FUSER_RUN_MATRIX_ONE_GPU").is_ok_and(|v| v == "1")
}

/// `--devices 0,...,0` for `d` ranks when they share GPU 0.
fn devices_args(d: usize) -> Vec<String> {
    match one_gpu() {
        true => vec!["--devices".into(), vec!["0"; d].join(",")],
        false => Vec::new(),
    }
}

/// The configuration of the launched subset (module doc): (ranks, worker streams, type, square).
const LAUNCHED_SUBSET: (usize, usize, &str, bool) = (3, 2, "f32", false);

/// The CUDA IPC pipelines also run launched with these team sizes (the subset's other
/// settings): their every communication is cuda_ipc (no NCCL), through rank 0's hub.
const LAUNCHED_CUDA_IPC_DEVICES: [usize; 4] = [1, 2, 4, 8];

/// Whether a case of `d` ranks and `streams` worker streams runs on the chosen backend.
fn runs_here(d: usize, streams: usize) -> bool {
    if backend() == "cpu" {
        return true;
    }
    let max: usize = std::env::var("FUSER_RUN_MATRIX_MAX_RANKS").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    d <= max && (streams == 1 || streams == 4)
}

/// Everything one trial needs.
struct Case {
    file: &'static str,
    template: String,
    instance: Instance,
    pipeline: String,
    seed: u64,
    /// One process per rank (`--launch`).
    launch: bool,
}

impl Case {
    fn reproduce(&self) -> String {
        let devices = devices_args(self.instance.devices).join(" ");
        let command = format!(
            "fuser-run - --ranks {}{}{} --check{}{} --seed {} --pass-pipeline '{}'",
            self.instance.devices,
            if devices.is_empty() { "" } else { " " },
            devices,
            if self.checks_races() { " --check-races" } else { "" },
            extra_args().iter().map(|a| format!(" {a}")).collect::<String>(),
            self.seed,
            self.pipeline
        );
        match self.launch {
            // --launch reads a file in every process.
            true => format!(
                "{} > /tmp/case.mlir && {} --launch",
                self.instance.sed_command(self.file),
                command.replacen(" - ", " /tmp/case.mlir ", 1)
            ),
            false => format!("{} | {command}", self.instance.sed_command(self.file)),
        }
    }

    /// The race checker runs on the cpu backend with the ranks in one process (its clocks do
    /// not cross processes: `--launch` refuses it).
    fn checks_races(&self) -> bool {
        backend() == "cpu" && !self.launch
    }

    fn run(&self) -> Result<(), Failed> {
        let ranks = self.instance.devices.to_string();
        let seed = self.seed.to_string();
        let backend = backend();
        let args = ["--ranks", &ranks, "--check", "--seed", &seed, "--timeout", TIMEOUT_S, "--backend", &backend];
        let races = self.checks_races().then_some("--check-races");
        let text = self.instance.instantiate(&self.template);
        // --launch starts several processes that each read the input: give them a file.
        let input = if self.launch {
            let path = std::env::temp_dir().join(format!("fuser-matrix-{}-{}.mlir", std::process::id(), self.seed));
            std::fs::write(&path, &text).map_err(|e| e.to_string())?;
            path.display().to_string()
        } else {
            "-".to_string()
        };
        let mut child = Command::new(fuser_run_binary())
            .arg(&input)
            .args(args)
            .args(self.launch.then_some("--launch"))
            .args(devices_args(self.instance.devices))
            .args(races)
            .args(extra_args())
            .arg("--pass-pipeline")
            .arg(&self.pipeline)
            .current_dir(root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start fuser-run: {e}"))?;
        if input == "-" {
            child.stdin.take().ok_or("no stdin")?.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
        }
        let out = child.wait_with_output().map_err(|e| e.to_string())?;
        if input != "-" {
            let _ = std::fs::remove_file(&input);
        }
        let stdout = String::from_utf8_lossy(&out.stdout);
        if out.status.success() && stdout.contains("check: PASS (max rel err") {
            return Ok(());
        }
        Err(format!(
            "fuser-run exited with {} (want 0 and `check: PASS`)\nreproduce: {}\n--- stdout\n{}--- stderr\n{}",
            out.status,
            self.reproduce(),
            tail(&stdout, 40),
            tail(&String::from_utf8_lossy(&out.stderr), 40)
        )
        .into())
    }
}

fn tail(s: &str, lines: usize) -> String {
    let all: Vec<&str> = s.lines().collect();
    all[all.len().saturating_sub(lines)..].iter().map(|l| format!("{l}\n")).collect()
}

fn load_template(file: &str) -> String {
    let path = root().join("test/Run/matrix").join(format!("{file}.mlir.in"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Every case of the matrix, as trials.
fn trials() -> Vec<Trial> {
    let mut trials = Vec::new();
    let mut seed = 0u64;
    for program in PROGRAMS {
        let template = load_template(program.file);
        for &pipeline in program.pipelines {
            let cuda_ipc =
                matches!(pipeline, Pipeline::P2p { backend: "cuda_ipc", .. } | Pipeline::CollectiveCopyEngine);
            if one_gpu() && !cuda_ipc {
                continue;
            }
            if backend() == "cpu" && !launched() {
                // Seeds of their own, so that the other cases keep theirs.
                let subset_seed = 1_000_000 + trials.len() as u64;
                trials.push(launched_subset_case(program, &template, pipeline, subset_seed, LAUNCHED_SUBSET.0));
                if cuda_ipc {
                    for d in LAUNCHED_CUDA_IPC_DEVICES {
                        let seed = 2_000_000 + trials.len() as u64;
                        trials.push(launched_subset_case(program, &template, pipeline, seed, d));
                    }
                }
            }
            let configs = DEVICES
                .iter()
                .flat_map(|&d| WORKER_STREAMS.iter().flat_map(move |&w| DTYPES.iter().map(move |&t| (d, w, t))))
                .chain(MORE_DEVICES.iter().map(|&d| (d, 2, "f32")));
            let copy_engine = matches!(pipeline, Pipeline::CollectiveCopyEngine);
            let configs = configs
                .filter(|&(d, w, _)| !copy_engine || w == COPY_ENGINE_STREAMS || (MORE_DEVICES.contains(&d) && w == 2));
            for (d, streams, dtype) in configs.filter(|&(d, w, _)| runs_here(d, w)) {
                {
                    {
                        for square in [true, false] {
                            seed += 1;
                            let instance = Instance::new(d, dtype, square, program.chunking);
                            let name = format!(
                                "{}/{}/d{d}/w{streams}/{dtype}/{}",
                                program.file,
                                pipeline.label(),
                                if square { "square" } else { "nonsquare" }
                            );
                            let case = Case {
                                file: program.file,
                                template: template.clone(),
                                pipeline: pipeline.text(streams, d, program.chunking),
                                instance,
                                seed,
                                launch: launched(),
                            };
                            let known = known_failure(program, pipeline, d);
                            let trial = Trial::test(name, move || case.run());
                            trials.push(match known {
                                Some(_) => trial.with_kind("known-failure").with_ignored_flag(true),
                                None => trial,
                            });
                        }
                    }
                }
            }
        }
    }
    trials
}

/// The case of `program` lowered by `pipeline` in the [`LAUNCHED_SUBSET`] configuration, run
/// with `--launch`.
fn launched_subset_case(program: &Program, template: &str, pipeline: Pipeline, seed: u64, d: usize) -> Trial {
    let (_, streams, dtype, square) = LAUNCHED_SUBSET;
    let shape = if square { "square" } else { "nonsquare" };
    let name = format!("launch/{}/{}/d{d}/w{streams}/{dtype}/{shape}", program.file, pipeline.label());
    let case = Case {
        file: program.file,
        template: template.to_string(),
        pipeline: pipeline.text(streams, d, program.chunking),
        instance: Instance::new(d, dtype, square, program.chunking),
        seed,
        launch: true,
    };
    Trial::test(name, move || case.run())
}

fn main() {
    let mut args = Arguments::from_args();
    // The cases wait on each other's ranks and streams as much as they compute: run more of
    // them than there are cores.
    if args.test_threads.is_none() {
        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
        args.test_threads = Some(cores * 2);
    }
    let mut trials = trials();
    let ignored = trials.iter().filter(|t| t.has_ignored_flag()).count();
    eprintln!("fuser_run_matrix: {} cases, {ignored} of them known failures (ignored):", trials.len());
    for reason in KNOWN_FAILURES {
        eprintln!("  {reason}");
    }
    trials.push(Trial::test("extents_divide_for_every_case", extents_divide_for_every_case));
    libtest_mimic::run(&args, trials).exit();
}

/// Checks [`Instance::new`] against the divisibility rules of the module doc.
fn extents_divide_for_every_case() -> Result<(), Failed> {
    for d in DEVICES.into_iter().chain(MORE_DEVICES) {
        for square in [true, false] {
            for chunking in [Chunking::Free, Chunking::PerDevice] {
                let i = Instance::new(d, "f32", square, chunking);
                let divides = i.m.is_multiple_of(i.chunks * d)
                    && i.m.is_multiple_of(2 * d)
                    && i.k.is_multiple_of(d)
                    && [i.n, i.h].iter().all(|e| e.is_multiple_of(i.chunks) && e.is_multiple_of(2));
                if !divides || square != (i.m == i.k && i.k == i.n && i.n == i.h) {
                    return Err(format!("bad extents {i:?}").into());
                }
            }
        }
    }
    Ok(())
}
