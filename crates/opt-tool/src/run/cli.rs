//! The command line of `fuser-run`, parsed by hand: `FILE` plus the flags of [`HELP`]. Flags
//! take their value as the next argument or after `=` (`--ranks 4`, `--ranks=4`).

/// What `fuser-run` was asked to do.
#[derive(Clone, Debug, PartialEq)]
pub struct RunArgs {
    pub input: String,
    /// `--ranks`; `None`: the device count of the input's meshes (see [`HELP`]).
    pub ranks: Option<usize>,
    pub backend: String,
    pub pass_pipeline: Option<String>,
    pub check: bool,
    pub check_races: bool,
    pub reference: Option<String>,
    pub seed: u64,
    pub warmup: usize,
    pub iters: usize,
    pub timeout_s: f64,
    pub trace: Option<String>,
    pub csv: Option<String>,
    /// Start one process per rank.
    pub launch: bool,
    /// `--devices`: the GPU of every rank (cuda).
    pub devices: Option<Vec<usize>>,
    /// `--cuda-graph`: capture one iteration per rank and replay it.
    pub cuda_graph: bool,
    /// `--gemm`: the cuda backend's GEMM library.
    pub gemm: fuser_runtime::gemm_lib::GemmLib,
    /// `--input-values I=V,V,...` (repeatable): given values of input I.
    pub input_values: Vec<(usize, Vec<f64>)>,
    /// `--print-outputs`: print the gathered output values.
    pub print_outputs: bool,
    /// `--input-file I=PATH` (repeatable): input I's values from a raw file.
    pub input_files: Vec<(usize, std::path::PathBuf)>,
    /// `--output-file I=PATH` (repeatable): write output I's gathered values to a raw file.
    pub output_files: Vec<(usize, std::path::PathBuf)>,
    /// `--entry NAME`: the function to run (default: the first with a body).
    pub entry: Option<String>,
}

// One value per process, parsed once: the size of the arguments does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Help,
    Run(RunArgs),
}

pub const HELP: &str = "\
OVERVIEW: fuser-run: runs a fuser program on N ranks and checks it against a reference

USAGE: fuser-run FILE [options]

FILE is a fusion-level program (func.func over sharded tensors; lowered to a host program
with the pass pipeline first) or a host-level program (host/comm/arith ops). The first
func.func with a body is run. Inputs are generated from the seed as global (unsharded)
tensors and each rank receives its piece (the `fusion.global_type` argument attributes say
how; without them every rank receives the whole buffer).

OPTIONS:
  --ranks N              number of ranks (threads of this process; processes with
                         --launch); rank r is device r of the mesh, so the mesh must hold
                         exactly devices 0..=N-1. Default: the
                         number of devices of the input's top-level fusion.mesh declarations
                         (with several meshes, of all their devices together; they must be
                         devices 0..=N-1), or 1 when the input declares no mesh
  --backend B            execution backend: `cpu` (the default; N simulated ranks, host
                         memory) or `cuda` (rank r on GPU r of this machine: cuBLAS GEMMs,
                         NCCL collectives, CUDA IPC copies; needs N GPUs, the NVIDIA driver
                         and the CUDA 13 libraries, loaded at run time)
  --devices LIST         cuda: the GPU of every rank, comma-separated ordinals of the visible
                         GPUs (CUDA_VISIBLE_DEVICES applies), one per rank in rank order,
                         e.g. `--ranks 2 --devices 0,0`; ranks may share a GPU (each has its
                         own streams and memory) where no NCCL op joins them: NCCL refuses
                         two members of one communicator on one GPU, so such an op fails
                         naming the two ranks. CUDA IPC transfers between ranks of one GPU
                         need --launch (one process per rank). With --launch (or another
                         launcher) every process reads its GPU at index RANK. Without
                         --devices: rank r on GPU r; a process of a multi-process run on
                         GPU LOCAL_RANK, or on its only visible GPU when CUDA_VISIBLE_DEVICES
                         shows it one
  --cuda-graph           cuda: after the warmup iterations (at least one, run eagerly: it
                         allocates the buffers, NCCL communicators and GEMM workspaces),
                         capture one iteration of every rank (all its streams, events,
                         kernels and NCCL calls) into a CUDA graph, replay it once, then time
                         --iters replays (cuGraphLaunch + synchronization each). A program
                         with an op that cannot be captured (host.synchronize, cuda_ipc
                         transfers and collectives) runs eagerly, with a note on stderr naming the op. Not
                         with --trace; an error with --backend cpu
  --gemm LIB             cuda: the GEMM library: `auto` (the default: per problem, the faster
                         of cublasGemmEx and cuBLASLt's 4 best heuristic candidates with the
                         linear's epilogue fused, timed with CUDA events at the problem's first
                         sight and kept for the process; a problem first seen during a CUDA
                         graph capture runs cublasGemmEx; FUSER_GEMM_VERBOSE=1 prints each
                         choice with its timings), `cublaslt` (every GEMM through
                         cublasLtMatmul with the heuristic's first algorithm, bias, GELU and
                         residual epilogues fused where they fit) or `cublas` (cublasGemmEx
                         throughout, a linear's epilogue as separate kernels)
  --pass-pipeline P      lowering pipeline for fusion-level input, e.g.
                         'builtin.module(tp-default{streams=2})'; a bare pass or pipeline
                         name is wrapped in builtin.module(...) (default: tp-default)
  --check                evaluate the fusion-level program unsharded in f64 and compare the
                         gathered outputs: relative error ||out-ref||/||ref|| against the
                         tolerance of the least precise float type the output is computed
                         through (its dtype, or bf16 for an f32 cast of a bf16 sum: `f32
                         computed in bf16` in reports); prints `check: PASS (max rel err X)`
                         or `check: FAIL` naming each output that differs (`output #i (result
                         #i of @f, %y, the result of 'fusion.linear')`) and exits with status 1;
                         each failed output is also an error on stderr at the line of its value
                         in the checked function (with --reference, plus a note at the value
                         the run returns)
  --reference FILE       the fusion-level program --check compares with (default: FILE
                         itself when it is fusion-level; required for host-level input)
  --seed S               seed of the random inputs (default 0)
  --entry NAME           run (and --check) the function @NAME; the other functions with a
                         body are dropped before lowering (default: the first function with
                         a body)
  --input-values I=V,... the values of input I (0-based) instead of random ones, repeated
                         in row-major order to fill it (e.g. 0=2.5,-2.5,inf,nan); floats are
                         rounded to the element type, integers must fit it; repeatable
  --print-outputs        print the values of the gathered outputs (the first 64 of each)
  --input-file I=PATH    the global values of input I from a raw file: little-endian elements
                         of the input's element type in row-major order (numpy's tofile; a
                         bf16 torch tensor as t.view(torch.int16).numpy().tofile(PATH));
                         repeatable. The size must match exactly
  --output-file I=PATH   write the gathered values of output I to PATH in the same raw format
                         (repeatable)
  --warmup W             untimed iterations before the measured ones (default 0)
  --iters K              measured iterations (default 1)
  --launch               start one process per rank, each with RANK, WORLD_SIZE, LOCAL_RANK,
                         MASTER_ADDR and MASTER_PORT set; rank 0 gathers the results and
                         reports. With --backend cuda rank r runs on GPU r (or as --devices
                         says); with --backend cpu
                         the ranks' communication meets in a hub served by rank 0 over TCP,
                         with the semantics of the in-process ranks (cuda_ipc get/put too).
                         A rank that fails, exits early, is killed, stops or never joins
                         ends the run within about --timeout: status 1 and a message naming
                         the rank; the other processes are stopped. Ranks started with
                         different programs, pipelines, seeds or options fail before
                         running (cpu). SIGTERM, SIGINT or SIGHUP to the launcher stops
                         every rank (exit status 128 + the signal); ranks die with a
                         launcher killed by SIGKILL. Without --launch, a
                         fuser-run that finds RANK in its environment (started by --launch or
                         by another launcher, e.g. one per node) runs that rank only (cuda:
                         on GPU LOCAL_RANK) and meets the others through
                         MASTER_ADDR:MASTER_PORT (cuda: NCCL ids go through rank 0's store,
                         cuda_ipc memory handles too: the CUDA IPC rings run between
                         processes, also on one shared GPU). Every rank needs the same
                         secret FUSER_STORE_TOKEN (16+ characters; --launch makes one);
                         FUSER_STORE_PORT moves the store off MASTER_PORT (under torchrun,
                         whose agent listens there). Not with --check-races
  --check-races          run the race checker: every kernel and communication is checked,
                         in program order, against the unordered accesses of other streams
                         (vector clocks joined by host.stream_wait, comm.wait and
                         host.synchronize; func.return reads the results on the current
                         stream; a communication that does not hold its stream, such as a
                         comm.group or a cuda_ipc put recv, uses its buffers until its
                         comm.wait, and one never waited for is an error); the first race
                         is an error naming both ops, their locations and streams (stream
                         0 = the main stream, stream i + 1 = host.get_stream i)
  --timeout SECS         watchdog deadline of every blocking wait (communication, stream
                         waits, host synchronize); on expiry the run fails with a report of
                         which rank waits in which op for which ranks (default 10)
  --trace FILE           write a Chrome trace JSON (one track per rank and stream; open it
                         in Perfetto or chrome://tracing); with --backend cuda the times are
                         the GPU's (timing events around every op); with --launch it holds
                         rank 0's tracks
  --csv FILE             write a CSV file with one row for this run (columns m, n, k, dtype,
                         implementation, option, mean/std/min/max time in ms, throughput in
                         TFLOP/s, world_size)
  -h, --help             print this help

Errors about a place in the input print as `FILE:LINE:COL: error: ...` with the source line;
other errors (arguments, files, the pipeline text, the mesh against --ranks) as
`fuser-run: error: ...`. A pass failure's note shows the op the pass could not handle.

Exit status: 0 on success, 1 on any error (parse, verify, pass, runtime) or failed check.
";

fn number<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.parse().map_err(|_| format!("fuser-run: error: invalid value '{v}' for {flag}"))
}

/// `--devices`: comma-separated GPU ordinals (spaces allowed).
fn devices(v: &str) -> Result<Vec<usize>, String> {
    let list: Result<Vec<usize>, _> = v.split(',').map(|d| d.trim().parse()).collect();
    match list {
        Ok(l) if !l.is_empty() => Ok(l),
        _ => Err(format!("fuser-run: error: invalid value '{v}' for --devices (expected GPU ordinals, e.g. 0,0,1)")),
    }
}

/// Parses the arguments (without the program name).
pub fn parse_args(args: &[String]) -> Result<Command, String> {
    let mut r = RunArgs {
        input: String::new(),
        ranks: None,
        backend: "cpu".into(),
        pass_pipeline: None,
        check: false,
        check_races: false,
        reference: None,
        seed: 0,
        warmup: 0,
        iters: 1,
        timeout_s: 10.0,
        trace: None,
        csv: None,
        launch: false,
        devices: None,
        cuda_graph: false,
        gemm: Default::default(),
        input_values: Vec::new(),
        print_outputs: false,
        input_files: Vec::new(),
        output_files: Vec::new(),
        entry: None,
    };
    let mut input: Option<String> = None;
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if arg == "-h" || arg == "--help" || arg == "-help" {
            return Ok(Command::Help);
        }
        if arg == "--check" {
            r.check = true;
            continue;
        }
        if arg == "--check-races" {
            r.check_races = true;
            continue;
        }
        if arg == "--launch" {
            r.launch = true;
            continue;
        }
        if arg == "--cuda-graph" {
            r.cuda_graph = true;
            continue;
        }
        if arg == "--print-outputs" {
            r.print_outputs = true;
            continue;
        }
        if !arg.starts_with('-') || arg == "-" {
            if let Some(first) = &input {
                return Err(format!("fuser-run: error: more than one input file ('{first}' and '{arg}')"));
            }
            input = Some(arg.clone());
            continue;
        }
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) => (f.trim_start_matches('-').to_string(), Some(v.to_string())),
            None => (arg.trim_start_matches('-').to_string(), None),
        };
        let known = [
            "ranks",
            "devices",
            "backend",
            "pass-pipeline",
            "reference",
            "seed",
            "warmup",
            "iters",
            "timeout",
            "trace",
            "csv",
            "gemm",
            "input-values",
            "input-file",
            "output-file",
            "entry",
        ];
        if !known.contains(&flag.as_str()) {
            return Err(format!("fuser-run: error: unknown option '{arg}' (see --help)"));
        }
        let value = match inline {
            Some(v) => v,
            None => {
                let v =
                    args.get(i).cloned().ok_or_else(|| format!("fuser-run: error: option '{arg}' needs a value"))?;
                i += 1;
                v
            }
        };
        let name = format!("--{flag}");
        match flag.as_str() {
            "ranks" => r.ranks = Some(number(&name, &value)?),
            "backend" => r.backend = value,
            "devices" => r.devices = Some(devices(&value)?),
            "pass-pipeline" => r.pass_pipeline = Some(value),
            "reference" => r.reference = Some(value),
            "seed" => r.seed = number(&name, &value)?,
            "warmup" => r.warmup = number(&name, &value)?,
            "iters" => r.iters = number(&name, &value)?,
            "timeout" => r.timeout_s = number(&name, &value)?,
            "trace" => r.trace = Some(value),
            "entry" => r.entry = Some(value),
            "input-values" => r.input_values.push(input_values(&value)?),
            "input-file" => r.input_files.push(indexed_path(&name, &value)?),
            "output-file" => r.output_files.push(indexed_path(&name, &value)?),
            "gemm" => {
                r.gemm = fuser_runtime::gemm_lib::GemmLib::parse(&value).ok_or_else(|| {
                    format!("fuser-run: error: invalid value '{value}' for --gemm (expected auto, cublas or cublaslt)")
                })?
            }
            _ => r.csv = Some(value),
        }
    }
    r.input = input.ok_or("fuser-run: error: no input file (see --help)")?;
    if r.ranks == Some(0) {
        return Err("fuser-run: error: --ranks must be at least 1".into());
    }
    if r.iters == 0 {
        return Err("fuser-run: error: --iters must be at least 1".into());
    }
    match r.backend.as_str() {
        "cpu" => {}
        "cuda" if cfg!(feature = "cuda") => {
            if r.check_races {
                return Err("fuser-run: error: --check-races needs --backend cpu".into());
            }
        }
        "cuda" => return Err("fuser-run: error: this fuser-run was built without the `cuda` feature".into()),
        other => return Err(format!("fuser-run: error: unknown backend '{other}' (expected cpu or cuda)")),
    }
    if r.cuda_graph && r.backend != "cuda" {
        return Err("fuser-run: error: --cuda-graph needs --backend cuda (the cpu backend has no graphs)".into());
    }
    if r.cuda_graph && r.trace.is_some() {
        return Err("fuser-run: error: --cuda-graph with --trace: the trace's timing events cannot be replayed".into());
    }
    if r.devices.is_some() && r.backend != "cuda" {
        return Err("fuser-run: error: --devices needs --backend cuda".into());
    }
    if let (Some(d), Some(n)) = (&r.devices, r.ranks)
        && d.len() != n
    {
        return Err(format!("fuser-run: error: --devices names {} GPUs for --ranks {n} (one per rank)", d.len()));
    }
    if r.launch && r.check_races {
        return Err("fuser-run: error: --check-races needs the ranks in one process: drop --launch".into());
    }
    if r.launch && r.input == "-" {
        return Err("fuser-run: error: --launch needs an input file (every process reads it), not stdin".into());
    }
    if !(r.timeout_s > 0.0 && r.timeout_s.is_finite()) {
        return Err("fuser-run: error: --timeout must be a positive number of seconds".into());
    }
    Ok(Command::Run(r))
}

/// `I=PATH` of `--input-file` and `--output-file`.
fn indexed_path(name: &str, v: &str) -> Result<(usize, std::path::PathBuf), String> {
    match v.split_once('=') {
        Some((i, path)) if !path.is_empty() => match i.parse::<usize>() {
            Ok(i) => Ok((i, path.into())),
            Err(_) => Err(format!("fuser-run: error: invalid value '{v}' for {name} (expected INDEX=PATH)")),
        },
        _ => Err(format!("fuser-run: error: invalid value '{v}' for {name} (expected INDEX=PATH)")),
    }
}

/// `I=V,V,...` of `--input-values`.
fn input_values(v: &str) -> Result<(usize, Vec<f64>), String> {
    let bad = || {
        format!(
            "fuser-run: error: invalid value '{v}' for --input-values (expected INDEX=V,V,..., e.g. 0=2.5,-2.5,inf)"
        )
    };
    let (index, list) = v.split_once('=').ok_or_else(bad)?;
    let index = index.trim().parse::<usize>().map_err(|_| bad())?;
    let values = list.split(',').map(|x| x.trim().parse::<f64>()).collect::<Result<Vec<_>, _>>().map_err(|_| bad())?;
    Ok((index, values))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Command, String> {
        parse_args(&s.split_whitespace().map(String::from).collect::<Vec<_>>())
    }

    #[test]
    fn input_and_output_files() {
        let Ok(Command::Run(r)) = parse("f.mlir --input-file 1=/tmp/x.bin --output-file=0=out.bin") else { panic!() };
        assert_eq!(r.input_files, vec![(1, "/tmp/x.bin".into())]);
        assert_eq!(r.output_files, vec![(0, "out.bin".into())]);
        assert!(parse("f.mlir --input-file x.bin").is_err());
        assert!(parse("f.mlir --output-file 0=").is_err());
    }

    #[test]
    fn input_values() {
        let Ok(Command::Run(r)) = parse("f.mlir --input-values 0=2.5,-2.5 --input-values=1=inf,nan,-7") else {
            panic!()
        };
        assert_eq!(r.input_values[0], (0, vec![2.5, -2.5]));
        assert!(!r.print_outputs);
        let Ok(Command::Run(printing)) = parse("f.mlir --print-outputs") else { panic!() };
        assert!(printing.print_outputs);
        assert_eq!(r.input_values[1].0, 1);
        assert!(r.input_values[1].1[0].is_infinite() && r.input_values[1].1[1].is_nan());
        for bad in [
            "f.mlir --input-values 0",
            "f.mlir --input-values x=1",
            "f.mlir --input-values 0=1,y",
            "f.mlir --input-values 0=",
        ] {
            let e = parse(bad).unwrap_err();
            assert!(e.contains("--input-values"), "{bad}: {e}");
        }
    }

    #[test]
    fn flags_and_defaults() {
        let Ok(Command::Run(r)) = parse("f.mlir --ranks 4 --check --seed=7 --iters 3 --csv out.csv") else { panic!() };
        assert_eq!((r.ranks, r.check, r.seed, r.iters, r.warmup), (Some(4), true, 7, 3, 0));
        assert_eq!(r.csv.as_deref(), Some("out.csv"));
        let Ok(Command::Run(r)) = parse("f.mlir") else { panic!() };
        assert_eq!(r.ranks, None, "without --ranks the mesh decides");
        assert_eq!(r.entry, None, "without --entry the first function runs");
        let Ok(Command::Run(r)) = parse("f.mlir --entry f_vjp") else { panic!() };
        assert_eq!(r.entry.as_deref(), Some("f_vjp"));
        assert!(parse("f.mlir --entry").is_err());
        assert!(parse("f.mlir --ranks 0").is_err());
        assert_eq!(parse("--help"), Ok(Command::Help));
        assert!(parse("f.mlir --ranks").is_err());
        assert!(parse("f.mlir --ranks x").is_err());
        assert!(parse("f.mlir --bogus 1").is_err());
        assert!(parse("f.mlir --backend tpu").is_err());
        assert!(parse("f.mlir --backend cuda --check-races").is_err());
        assert_eq!(parse("f.mlir --backend cuda").is_ok(), cfg!(feature = "cuda"));
        assert!(parse("a.mlir b.mlir").is_err());
        assert!(parse("f.mlir --launch --check-races").is_err(), "the race checker needs one process");
        assert!(parse("f.mlir --launch --ranks 2").is_ok(), "--launch runs cpu ranks as processes");
        assert!(parse("- --launch --backend cuda").is_err(), "--launch cannot share stdin");
        if cfg!(feature = "cuda") {
            let Ok(Command::Run(r)) = parse("f.mlir --launch --backend cuda --ranks 2") else { panic!() };
            assert!(r.launch);
        }
        assert!(parse("--ranks 2").is_err());
        let graph = parse("f.mlir --cuda-graph").unwrap_err();
        assert!(graph.contains("--cuda-graph needs --backend cuda"), "{graph}");
        assert!(parse("f.mlir --gemm cutlass").is_err());
        let Ok(Command::Run(r)) = parse("f.mlir --gemm=cublas") else { panic!() };
        assert_eq!(r.gemm, fuser_runtime::gemm_lib::GemmLib::Cublas);
        if cfg!(feature = "cuda") {
            let Ok(Command::Run(r)) = parse("f.mlir --backend cuda --cuda-graph --iters 5") else { panic!() };
            assert!(r.cuda_graph);
            assert!(parse("f.mlir --backend cuda --cuda-graph --trace t.json").is_err());
        }
        assert!(parse("f.mlir --devices 0,0").is_err(), "--devices is for the cuda backend");
        if cfg!(feature = "cuda") {
            let Ok(Command::Run(r)) = parse("f.mlir --launch --backend cuda --ranks 2 --devices 0,0") else { panic!() };
            assert_eq!(r.devices, Some(vec![0, 0]));
            assert!(parse("f.mlir --backend cuda --ranks 3 --devices 0,0").is_err(), "one GPU per rank");
            assert!(parse("f.mlir --backend cuda --devices 0,x").is_err());
            assert!(parse("f.mlir --backend cuda --devices=").is_err());
        }
    }
}
