//! `gen-layers [--chain] N [OUT]`: writes the module of N sequence-parallel MLP layers
//! ([`fuser_benches::mlp_layers`], 4 devices), or with `--chain` a chain of N stream-chunked
//! linears ([`fuser_benches::stream_chain`]), to OUT or to stdout.

use std::process::ExitCode;

const USAGE: &str = "usage: gen-layers [--chain] N [OUT]   (N >= 1; OUT defaults to stdout)";

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let chain = args.first().is_some_and(|a| a == "--chain");
    if chain {
        args.remove(0);
    }
    let Some(n) = args.first().and_then(|a| a.replace('_', "").parse::<usize>().ok()).filter(|&n| n > 0) else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let text = if chain {
        fuser_benches::stream_chain(n)
    } else {
        fuser_benches::mlp_layers(n, fuser_benches::MlpShape::default())
    };
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
