//! `fuser-contention`: the GEMM-contention microbenchmark (see
//! `fuser_runtime::cuda::contention`). Prints CSV on stdout, one row per transfer kind.
//!
//! ```text
//! fuser-contention [--device D] [--m M --n N --k K] [--reps R] [--trials T] [--kinds a,b]
//! ```
//! Exit status: 0 after printing the rows, 2 on bad arguments, 1 when no GPU is usable (the
//! message says why, e.g. no CUDA driver on a CI machine).

use fuser_runtime::cuda::contention::{self, Config, Row};

fn parse() -> Result<(usize, Config), String> {
    let mut cfg = Config { m: 8192, n: 8192, k: 16384, reps: 5, trials: 3, kinds: Vec::new() };
    let mut device = 0;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{a} needs a value"));
        let mut number = || -> Result<usize, String> {
            let v = value()?;
            v.parse().map_err(|_| format!("{a}: expected a number, got '{v}'"))
        };
        match a.as_str() {
            "--device" => device = number()?,
            "--m" => cfg.m = number()?,
            "--n" => cfg.n = number()?,
            "--k" => cfg.k = number()?,
            "--reps" => cfg.reps = number()?.max(1),
            "--trials" => cfg.trials = number()?.max(1),
            "--kinds" => cfg.kinds = value()?.split(',').map(str::to_string).collect(),
            "-h" | "--help" => {
                println!(
                    "usage: fuser-contention [--device D] [--m M --n N --k K] [--reps R] [--trials T] [--kinds a,b]\n\
                     kinds: ce_d2d ce_d2d_overlap ce_d2h_pinned ce_h2d_pinned ce_peer sm_copy sm_reduce"
                );
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    Ok((device, cfg))
}

fn main() {
    let (device, cfg) = match parse() {
        Ok(x) => x,
        Err(e) => {
            eprintln!("fuser-contention: error: {e}");
            std::process::exit(2);
        }
    };
    println!("{}", Row::CSV_HEADER);
    if let Err(e) = contention::run(device, &cfg) {
        eprintln!("fuser-contention: error: {}", e.message);
        std::process::exit(1);
    }
}
