//! `Compiler::autodiff`: the three modules of a sharded program (one function each, gradients
//! sharded like their arguments, each lowering by `tp-default`), the saved values' names, the
//! resolved `wrt` and cotangent flags, the source module left alone, and the errors (unknown
//! function, empty or repeated `wrt`, an op without a rule at its line).

use fuser::{Compiler, PrintOptions};

/// A tensor-parallel MLP: column-parallel fc1 (rows of `w1` over DIDx), tanh, row-parallel fc2
/// (columns of `w2` over DIDx), a replicated result; an integer mask result takes no cotangent.
const MLP: &str = r#"fusion.mesh @tp = [0, 1]
func.func @mlp(%x: tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>,
               %w1: tensor<16x8xf32, #fusion.shard<@tp, [[DIDx], []]>>,
               %w2: tensor<8x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>)
    -> (tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>, tensor<4x8xi1, #fusion.shard<@tp, [[], []]>>) {
  %h = fusion.linear %x, %w1 : (tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>, tensor<16x8xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<4x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %t = fusion.tanh %h : (tensor<4x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<4x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>
  %y = fusion.linear %t, %w2 : (tensor<4x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>, tensor<8x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>) -> tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>
  %m = fusion.compare gt %y, %x : (tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>, tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>) -> tensor<4x8xi1, #fusion.shard<@tp, [[], []]>>
  return %y, %m : tensor<4x8xf32, #fusion.shard<@tp, [[], []]>>, tensor<4x8xi1, #fusion.shard<@tp, [[], []]>>
}
"#;

fn functions(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix("func.func @"))
        .map(|l| l.split('(').next().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn a_sharded_program_gives_three_modules_that_lower() {
    let compiler = Compiler::new();
    let module = compiler.parse("mlp.mlir", MLP).unwrap();
    let before = module.print(&PrintOptions::default());
    let g = compiler.autodiff(&module, "mlp", None).unwrap();
    assert_eq!(module.print(&PrintOptions::default()), before, "the source module is left alone");
    assert_eq!(g.wrt, vec![0, 1, 2], "every floating-point argument");
    assert_eq!(g.cotangents, vec![true, false], "the i1 result takes no cotangent");
    assert!(!g.saved.is_empty() && g.saved.iter().any(|s| s == "argument 0"), "{:?}", g.saved);

    let vjp = g.vjp.print(&PrintOptions::default());
    assert_eq!(functions(&vjp), vec!["mlp_vjp"]);
    assert!(vjp.contains("fusion.mesh @tp"));
    // The signature: 3 arguments and 1 cotangent in; 2 results and 3 gradients out, each
    // gradient sharded like its argument.
    let sig = vjp.lines().find(|l| l.contains("func.func @mlp_vjp(")).unwrap();
    assert_eq!(sig.matches("%arg").count(), 4, "{sig}");
    let results = sig.split(") -> (").nth(1).unwrap();
    assert_eq!(results.matches("tensor<").count(), 5, "{results}");
    assert!(results.contains("tensor<16x8xf32, #fusion.shard<@tp, [[DIDx], []]>>"), "{results}");
    assert!(results.contains("tensor<8x16xf32, #fusion.shard<@tp, [[], [DIDx]]>>"), "{results}");
    assert_eq!(functions(&g.fwd.print(&PrintOptions::default())), vec!["mlp_fwd"]);
    assert!(g.fwd.print(&PrintOptions::default()).contains("fusion.saved = ["));
    assert_eq!(functions(&g.bwd.print(&PrintOptions::default())), vec!["mlp_bwd"]);

    for (name, m) in [("vjp", &g.vjp), ("fwd", &g.fwd), ("bwd", &g.bwd)] {
        let mut lowered = m.clone();
        compiler.run_pipeline(&mut lowered, "builtin.module(tp-default)").unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = lowered.print(&PrintOptions::default());
        // fwd: fc2's partial sums; bwd: the partial dx of fc1 (contracting the split rows of w1).
        assert!(text.contains("comm.allreduce"), "{name}:\n{text}");
    }
}

#[test]
fn wrt_selects_the_gradients() {
    let compiler = Compiler::new();
    let module = compiler.parse("mlp.mlir", MLP).unwrap();
    let g = compiler.autodiff(&module, "mlp", Some(&[2, 1])).unwrap();
    assert_eq!(g.wrt, vec![2, 1]);
    let vjp = g.vjp.print(&PrintOptions::default());
    let sig = vjp.lines().find(|l| l.contains("func.func @mlp_vjp(")).unwrap();
    let results = sig.split(") -> (").nth(1).unwrap();
    // The results, then d/dw2 and d/dw1 in wrt's order.
    let w2 = results.find("tensor<8x16xf32").unwrap();
    let w1 = results.find("tensor<16x8xf32").unwrap();
    assert!(w2 < w1, "{results}");
}

#[test]
fn errors_name_what_is_wrong() {
    let compiler = Compiler::new();
    let module = compiler.parse("mlp.mlir", MLP).unwrap();
    let err = compiler.autodiff(&module, "nope", None).unwrap_err().to_string();
    assert!(err.contains("fusion-autodiff: no function @nope with a body (functions: mlp)"), "{err}");
    let err = compiler.autodiff(&module, "mlp", Some(&[])).unwrap_err().to_string();
    assert!(err.contains("autodiff: wrt is empty"), "{err}");
    let err = compiler.autodiff(&module, "mlp", Some(&[1, 1])).unwrap_err().to_string();
    assert!(err.contains("autodiff: wrt names argument 1 twice"), "{err}");
    let err = compiler.autodiff(&module, "mlp", Some(&[7])).unwrap_err().to_string();
    assert!(err.contains("wrt names argument 7, but @mlp has 3 arguments"), "{err}");
    let err = compiler.autodiff(&module, "", None).unwrap_err().to_string();
    assert!(err.contains("the function name is empty"), "{err}");
    let other = Compiler::new();
    let err = other.autodiff(&module, "mlp", None).unwrap_err().to_string();
    assert!(err.contains("made by another Compiler"), "{err}");
}

#[test]
fn an_op_without_a_rule_is_reported_at_its_line() {
    let text = "func.func @f(%ids: tensor<3xi64>, %g: tensor<3x2xf32>) -> tensor<5x2xf32> {\n\
                  %t = fusion.embedding_grad %ids, %g num_rows = 5 : (tensor<3xi64>, tensor<3x2xf32>) -> tensor<5x2xf32>\n\
                  return %t : tensor<5x2xf32>\n}\n";
    let compiler = Compiler::new();
    let module = compiler.parse("eg.mlir", text).unwrap();
    let err = compiler.autodiff(&module, "f", None).unwrap_err();
    let d = &err.diagnostics()[0];
    assert_eq!(d.message, "fusion-autodiff: no gradient rule for 'fusion.embedding_grad' yet");
    let at = d.location.as_ref().unwrap();
    assert_eq!((at.file.as_str(), at.line), ("eg.mlir", 2));
}
