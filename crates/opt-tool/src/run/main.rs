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

const TOOL: &str = "fuser-run";
const STACK_SIZE: usize = 256 << 20;

fn main() {
    install_panic_hook();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let worker = std::thread::Builder::new().name(TOOL.into()).stack_size(STACK_SIZE).spawn(move || run(&args));
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

/// Panics inside passes become diagnostics (the pass manager catches them); any other panic
/// is a bug of the tool: report it and exit with status 1.
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
