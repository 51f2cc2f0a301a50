//! fuser-opt: the MLIR-style optimizer driver (being built).
fn main() {
    eprintln!("fuser-opt: not built yet");
    std::process::exit(1);
}
