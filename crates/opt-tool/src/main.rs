//! fuser-opt: the MLIR-style optimizer driver. Reads MLIR text, runs a pass pipeline, prints
//! the result (see `fuser-opt --help`).
//!
//! The work runs on a thread with a 256 MiB stack (deeply nested IR may recurse that deep).
//! Exit status: 0 on success, 1 on any diagnosed error. A panic never escapes: panics inside
//! passes become diagnostics (the pass manager catches them), and any other panic is reported
//! by the hook below as an internal error with exit status 1.

mod cli;
mod driver;
mod io_error;
mod services;
mod tool_main;

use cli::Command;

const TOOL: &str = "fuser-opt";

fn main() {
    tool_main::main_of(TOOL, run)
}

fn run(args: &[String]) -> bool {
    let passes = services::pass_registry();
    match cli::parse_args(args, &passes, TOOL) {
        Err(message) => {
            eprintln!("{message}");
            false
        }
        Ok(Command::Help) => {
            let ctx_registry = services::dialect_registry();
            let dialects: Vec<&str> = ctx_registry.dialects().iter().map(|d| d.namespace).collect();
            print!("{}", cli::help_text(TOOL, &dialects, &passes));
            true
        }
        Ok(Command::Version) => {
            println!("{TOOL} {} (fuser, MLIR 19 compatible text format)", env!("CARGO_PKG_VERSION"));
            true
        }
        Ok(Command::ListPasses) => {
            print!("{}", passes.listing(""));
            true
        }
        Ok(Command::Run(opts)) => driver::run(&opts, &passes, TOOL),
    }
}
