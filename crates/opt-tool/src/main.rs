//! fuser-opt: the MLIR-style optimizer driver. Reads MLIR text, runs a pass pipeline, prints
//! the result (see `fuser-opt --help`).
//!
//! The work runs on a thread with a 256 MiB stack (deeply nested IR may recurse that deep).
//! Exit status: 0 on success, 1 on any diagnosed error. A panic never escapes: panics inside
//! passes become diagnostics (the pass manager catches them), and any other panic is reported
//! by the hook below as an internal error with exit status 1.

mod cli;
mod driver;
mod services;

use cli::Command;

const TOOL: &str = "fuser-opt";
const STACK_SIZE: usize = 256 << 20;

fn main() {
    install_panic_hook();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let worker = std::thread::Builder::new().name("fuser-opt".into()).stack_size(STACK_SIZE).spawn(move || run(&args));
    let ok = match worker.map(|h| h.join()) {
        Ok(Ok(ok)) => ok,
        Ok(Err(_)) => false,
        Err(e) => {
            eprintln!("{TOOL}: internal error: cannot start the worker thread: {e}");
            false
        }
    };
    std::process::exit(if ok { 0 } else { 1 });
}

/// Panics inside a pass are being caught and turned into diagnostics: only record them.
/// Anything else is a bug of the tool: report it as an internal error and exit with status 1.
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        if fuser_ir::pass::panic_is_being_caught() {
            fuser_ir::pass::record_panic(info);
            return;
        }
        let location = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        eprintln!("<unknown>:0: error: {TOOL} internal error: {message}{location}");
        std::process::exit(1);
    }));
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
