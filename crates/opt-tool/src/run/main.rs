//! fuser-run: runs a fuser program (fusion-level, lowered first, or host-level) on N ranks of
//! the embedded CPU backend or of this machine's GPUs, optionally checks it against the
//! unsharded f64 reference, and reports timings (see `fuser-run --help`).
//!
//! NVLink multicast (NVLS) stays off in NCCL unless the caller sets `NCCL_NVLS_ENABLE`: it is
//! not needed for the transfers fuser makes and a failure in it can take shared GPUs down.
//!
//! The work runs on a thread with a 256 MiB stack. Exit status: 0 on success, 1 on any
//! diagnosed error or failed check; a panic is reported as an internal error (status 1).

mod check;
mod cli;
mod entry;
mod exits;
#[path = "../io_error.rs"]
mod io_error;
mod launch;
mod ranks;
mod report;
#[path = "../services.rs"]
mod services;
mod signals;
mod source_name;
mod tool;
#[path = "../tool_main.rs"]
mod tool_main;

const TOOL: &str = "fuser-run";

fn main() {
    if std::env::var_os("NCCL_NVLS_ENABLE").is_none() {
        // SAFETY: still single-threaded here: nothing else reads the environment concurrently.
        unsafe { std::env::set_var("NCCL_NVLS_ENABLE", "0") };
    }
    tool_main::main_of(TOOL, run)
}

fn run(args: &[String]) -> bool {
    match cli::parse_args(args) {
        Err(message) => {
            eprintln!("{message}");
            false
        }
        Ok(cli::Command::Help) => {
            print!("{}", cli::HELP);
            true
        }
        Ok(cli::Command::Run(opts)) if opts.launch => {
            let grace = launch::grace(&opts.backend, std::time::Duration::from_secs_f64(opts.timeout_s));
            tool::preflight(&opts).is_some_and(|n| launch::launch(args, n, grace))
        }
        Ok(cli::Command::Run(opts)) => tool::run(&opts),
    }
}
