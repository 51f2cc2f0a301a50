//! `fuser-lowerfuzz`: the command line of the lowering fuzzer (see `--help`). Parses the
//! flags, runs a [`fuser_lowerfuzz::campaign`], prints progress on stderr and the summary on
//! stdout; exit status 1 when a finding was made, 2 on bad usage.

use fuser_lowerfuzz::campaign::{CampaignConfig, Stats, run};
use fuser_lowerfuzz::generate::{Autodiff, generate};
use fuser_lowerfuzz::shrink::ShrinkLimits;
use std::path::PathBuf;
use std::time::{Duration, Instant};

const HELP: &str = "\
fuser-lowerfuzz: random sharded fusion programs through every lowering pipeline

Each case is a random valid fusion program (a chain of matmul, linear, add, sub, mul, div, neg,
cast, sum, set, broadcast, reshape, permute, the elementwise math ops (exp ... gelu, maximum,
minimum, pow, compare feeding where, full), the reductions max/min/mean/var, softmax and
log_softmax, layer_norm/rms_norm (with their statistics results), sdpa (GQA, causal, lse),
slice, concat, embedding (in-range ids), dropout and cross_entropy (in-range labels), the
gradient ops sdpa_grad (of a forward sdpa or of any inputs), embedding_grad and one_hot, over
tensors sharded over a mesh of 1 to 8 devices: replicated, DIDx/DIDy splits, Stream(n) splits, partial values with every reduction)
and a random pipeline (tp-default, tp-host, tp-overlap-collective{chunks} over NCCL or the copy
engine (backend=cuda_ipc), tp-overlap-p2p with
nccl, cuda_ipc get or cuda_ipc put; random streams; host-fuse in 3 cases of 4, fuse=false in the others). It is checked in process:
  - the generic form re-reads identically (input and lowered program),
  - the pipeline lowers it with verification after every pass,
  - comm-verify accepts the lowered program,
  - it runs on one cpu rank per device with the race checker and matches the f64 reference.
A clean diagnostic of the fusion passes is a rejection (counted, not a finding); a panic, a
verifier failure after a pass, a later pass rejecting, a comm-verify error, a run error, a
race, a deadlock, a check FAIL (confirmed in f32 for bf16 programs), a round-trip mismatch or
a case past its time limit is a finding. Case N uses seed N; the same seed gives the same case.

USAGE:
  fuser-lowerfuzz [--seed S] [--count N | --seconds T] [--out DIR] [options]

OPTIONS:
  --seed S          first seed (default 0); cases use S, S+1, ...
  --count N         number of cases (default 100 unless --seconds is given)
  --seconds T       long mode: run for T seconds (with --count: whichever comes first)
  --out DIR         shrink the first case of each new finding and write it to DIR as a lit
                    regression test (<class>-<seed>.mlir, RUN lines for fuser-opt/fuser-run)
  --no-shrink       with --out: write nothing, do not shrink
  --shrink-checks N oracle calls per shrink (default 400)
  --max-ops N       ops per program (default 6)
  --max-devices N   largest mesh (1..8, default 8)
  --fuse on|off     host-fuse in every case (default: 3 cases in 4 fuse, the rest pass fuse=false)
  --autodiff on|off|mix
                    autodiff cases: the case runs fusion-autodiff{func=fuzz} on the program
                    and checks the joint @fuzz_vjp (the program's arguments and one
                    cotangent per float result; its results and one gradient per float
                    argument) through all the checks above instead of the program; a
                    clean fusion-autodiff diagnostic (an op without a rule) is a
                    rejection, a panic a finding. on: every case, off: none, mix (the
                    default): 1 case in 4, drawn from the seed (the program and pipeline
                    of a seed do not depend on it)
  --case-timeout T  seconds before a case counts as a hang (default 60)
  --wait-timeout T  runtime watchdog deadline of a blocking wait (default 5)
  --no-races        run without the race checker
  --print           print each case's program and pipeline instead of checking it
  --quiet           no progress lines
  -h, --help        this text

Exit status: 0 no finding, 1 findings (listed in the summary), 2 bad usage.
Long mode example: fuser-lowerfuzz --seed 100000 --seconds 3600 --out fuzz-out
";

struct Args {
    cfg: CampaignConfig,
    print: bool,
    quiet: bool,
}

fn value<T: std::str::FromStr>(it: &mut impl Iterator<Item = String>, flag: &str) -> Result<T, String> {
    let v = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
    v.parse().map_err(|_| format!("{flag}: bad value '{v}'"))
}

fn parse_args(args: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let mut cfg = CampaignConfig { count: None, ..Default::default() };
    cfg.generator.autodiff = Autodiff::Mix;
    let (mut print, mut quiet, mut no_shrink) = (false, false, false);
    let mut shrink_checks = ShrinkLimits::default().max_checks;
    let mut it = args;
    while let Some(a) = it.next() {
        match a.as_str() {
            "-h" | "--help" => return Ok(None),
            "--seed" => cfg.first_seed = value(&mut it, &a)?,
            "--count" => cfg.count = Some(value(&mut it, &a)?),
            "--seconds" => cfg.duration = Some(Duration::from_secs_f64(value(&mut it, &a)?)),
            "--out" => cfg.out_dir = Some(PathBuf::from(value::<String>(&mut it, &a)?)),
            "--no-shrink" => no_shrink = true,
            "--shrink-checks" => shrink_checks = value(&mut it, &a)?,
            "--max-ops" => cfg.generator.max_ops = value(&mut it, &a)?,
            "--max-devices" => cfg.generator.max_devices = value(&mut it, &a)?,
            "--fuse" => {
                cfg.generator.fuse = match value::<String>(&mut it, &a)?.as_str() {
                    "on" => Some(true),
                    "off" => Some(false),
                    other => return Err(format!("--fuse: bad value '{other}' (on or off)")),
                }
            }
            "--autodiff" => {
                cfg.generator.autodiff = match value::<String>(&mut it, &a)?.as_str() {
                    "on" => Autodiff::On,
                    "off" => Autodiff::Off,
                    "mix" => Autodiff::Mix,
                    other => return Err(format!("--autodiff: bad value '{other}' (on, off or mix)")),
                }
            }
            "--case-timeout" => cfg.case_timeout = Duration::from_secs_f64(value(&mut it, &a)?),
            "--wait-timeout" => cfg.oracle.wait_timeout = Duration::from_secs_f64(value(&mut it, &a)?),
            "--no-races" => cfg.oracle.check_races = false,
            "--print" => print = true,
            "--quiet" => quiet = true,
            other => return Err(format!("unknown argument '{other}' (see --help)")),
        }
    }
    if !(1..=8).contains(&cfg.generator.max_devices) || cfg.generator.max_ops == 0 {
        return Err("--max-devices must be in 1..=8 and --max-ops at least 1".into());
    }
    if cfg.count.is_none() && cfg.duration.is_none() {
        cfg.count = Some(100);
    }
    if cfg.out_dir.is_some() && !no_shrink {
        cfg.shrink = Some(ShrinkLimits { max_checks: shrink_checks, ..Default::default() });
    }
    if no_shrink {
        cfg.out_dir = None;
    }
    Ok(Some(Args { cfg, print, quiet }))
}

fn print_cases(cfg: &CampaignConfig) {
    for i in 0..cfg.count.unwrap_or(1) {
        let case = generate(cfg.first_seed.wrapping_add(i), &cfg.generator);
        let ad = if case.autodiff { " (autodiff: checks @fuzz_vjp of fusion-autodiff{func=fuzz})" } else { "" };
        println!("// seed {}: {} on {} device(s){ad}", case.seed, case.pipeline.text(), case.program.devices());
        println!("{}", case.program.to_mlir());
    }
}

fn main() {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(Some(a)) => a,
        Ok(None) => {
            print!("{HELP}");
            return;
        }
        Err(e) => {
            eprintln!("fuser-lowerfuzz: {e}");
            std::process::exit(2);
        }
    };
    if args.print {
        print_cases(&args.cfg);
        return;
    }
    let mut last = Instant::now();
    let quiet = args.quiet;
    let mut progress = |s: &Stats| {
        if !quiet && last.elapsed() >= Duration::from_secs(10) {
            last = Instant::now();
            eprintln!("fuser-lowerfuzz: {}", s.progress_line());
        }
    };
    let stats = run(&args.cfg, &mut progress);
    print!("{}", stats.summary());
    if !stats.findings.is_empty() {
        std::process::exit(1);
    }
}
