//! fuser-run: runs a fuser program (fusion-level, lowered first, or host-level) on N ranks of
//! the embedded CPU backend, optionally checks it against the unsharded f64 reference, and
//! reports timings (see `fuser-run --help`).
//!
//! The work runs on a thread with a 256 MiB stack. Exit status: 0 on success, 1 on any
//! diagnosed error or failed check; a panic is reported as an internal error (status 1).

mod cli;
#[path = "../services.rs"]
mod services;
mod tool;
#[path = "../tool_main.rs"]
mod tool_main;

const TOOL: &str = "fuser-run";

fn main() {
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
        Ok(cli::Command::Run(opts)) => tool::run(&opts),
    }
}
