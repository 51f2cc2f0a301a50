//! The `main` that `fuser-opt` and `fuser-run` share: the tool runs on a thread with a 256 MiB
//! stack (deeply nested IR may recurse that deep), panics inside passes become diagnostics
//! (the pass manager catches them), any other panic is reported as an internal error, and the
//! exit status is 0 on success and 1 otherwise.

const STACK_SIZE: usize = 256 << 20;

/// Runs `run` (which reports its own diagnostics and says whether it succeeded) and exits.
pub fn main_of(tool: &'static str, run: fn(&[String]) -> bool) -> ! {
    install_panic_hook(tool);
    let args: Vec<String> = std::env::args().skip(1).collect();
    let worker = std::thread::Builder::new().name(tool.into()).stack_size(STACK_SIZE).spawn(move || run(&args));
    let ok = match worker.map(|h| h.join()) {
        Ok(Ok(ok)) => ok,
        Ok(Err(_)) => false,
        Err(e) => {
            eprintln!("{tool}: internal error: cannot start the worker thread: {e}");
            false
        }
    };
    std::process::exit(if ok { 0 } else { 1 });
}

/// Panics inside a pass are being caught and turned into diagnostics: only record them.
/// Anything else is a bug of the tool: report it as an internal error and exit with status 1.
fn install_panic_hook(tool: &'static str) {
    std::panic::set_hook(Box::new(move |info| {
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
        eprintln!("{tool}: error: internal error: {message}{location}");
        std::process::exit(1);
    }));
}
