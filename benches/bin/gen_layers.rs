//! `gen-layers N [OUT]`: writes the module of N sequence-parallel MLP layers
//! ([`fuser_benches::mlp_layers`], 4 devices) to OUT, or to stdout.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(n) = args.first().and_then(|a| a.replace('_', "").parse::<usize>().ok()).filter(|&n| n > 0) else {
        eprintln!("usage: gen-layers N [OUT]   (N >= 1 layers; OUT defaults to stdout)");
        return ExitCode::from(2);
    };
    let text = fuser_benches::mlp_layers(n, fuser_benches::MlpShape::default());
    let written = match args.get(1) {
        Some(path) => std::fs::write(path, text),
        None => std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes()),
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gen-layers: {e}");
            ExitCode::FAILURE
        }
    }
}
