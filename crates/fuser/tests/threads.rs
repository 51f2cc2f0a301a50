//! One compiler shared by several threads: each parses and lowers its own module at the same
//! time, and every result equals the single-threaded one.

mod support;

use fuser::{Compiler, PrintOptions};

#[test]
fn threads_share_one_compiler() {
    let compiler = Compiler::new();
    let file = "examples/row_parallel_linear.mlir";
    let text = support::read_repo_file(file);
    let lower = |compiler: &Compiler| {
        let mut module = compiler.parse(file, &text).expect("parses");
        compiler.run_pipeline(&mut module, "builtin.module(tp-default)").expect("lowers");
        module.print(&PrintOptions::default())
    };
    let expected = lower(&compiler);
    let results: Vec<String> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..4).map(|_| s.spawn(|| lower(&compiler))).collect();
        workers.into_iter().map(|w| w.join().expect("no panic")).collect()
    });
    assert!(results.iter().all(|r| *r == expected));
}
