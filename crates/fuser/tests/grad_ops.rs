//! fusion.sdpa_grad and fusion.embedding_grad built through the facade's generic op builder
//! (their `infer_result_types` hooks: three results for sdpa_grad) and fusion.one_hot through
//! the explicit-types builder (its element type is not a function of its operands) print as the
//! same program parsed from text; bad operands and properties are errors naming the op.

use fuser::builder::{Attribute, ElementType, TensorType};
use fuser::{Compiler, PrintOptions};

const TEXT: &str = r#"func.func @f(%q: tensor<1x4x6x8xf32>, %k: tensor<1x2x7x8xf32>, %do: tensor<1x4x6x8xf32>,
    %lse: tensor<1x4x6xf32>, %ids: tensor<2x3xi64>, %g: tensor<2x3x5xbf16>)
    -> (tensor<1x4x6x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32>, tensor<9x5xbf16>, tensor<2x3x9xf16>) {
  %dq, %dk, %dv = fusion.sdpa_grad %q, %k, %k, %do, %lse, %do causal scale = 5.000000e-01 : (tensor<1x4x6x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32>, tensor<1x4x6x8xf32>, tensor<1x4x6xf32>, tensor<1x4x6x8xf32>) -> (tensor<1x4x6x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32>)
  %t = fusion.embedding_grad %ids, %g num_rows = 9 : (tensor<2x3xi64>, tensor<2x3x5xbf16>) -> tensor<9x5xbf16>
  %o = fusion.one_hot %ids num_classes = 9 : (tensor<2x3xi64>) -> tensor<2x3x9xf16>
  return %dq, %dk, %dv, %t, %o : tensor<1x4x6x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32>, tensor<9x5xbf16>, tensor<2x3x9xf16>
}
"#;

#[test]
fn generic_builds_print_as_the_parsed_text() {
    let compiler = Compiler::new();
    let mut program = compiler.program();
    let args = [
        TensorType::new(&[1, 4, 6, 8], ElementType::F32),
        TensorType::new(&[1, 2, 7, 8], ElementType::F32),
        TensorType::new(&[1, 4, 6, 8], ElementType::F32),
        TensorType::new(&[1, 4, 6], ElementType::F32),
        TensorType::new(&[2, 3], ElementType::I64),
        TensorType::new(&[2, 3, 5], ElementType::BF16),
    ];
    let mut f = program.function("f", &args).unwrap();
    let a: Vec<_> = (0..6).map(|i| f.arg(i).unwrap()).collect();
    let attention = [("causal", Attribute::Flag), ("scale", Attribute::Float(0.5))];
    let grads = f.op("fusion.sdpa_grad", &[a[0], a[1], a[1], a[2], a[3], a[2]], &attention, &[]).unwrap();
    assert_eq!(grads.len(), 3);
    assert_eq!(f.shape(grads[1]).unwrap(), vec![1, 2, 7, 8]);
    let t = f.op("fusion.embedding_grad", &[a[4], a[5]], &[("num_rows", Attribute::Int(9))], &[]).unwrap();
    let classes = [TensorType::new(&[2, 3, 9], ElementType::F16)];
    let o = f.op_with_types("fusion.one_hot", &[a[4]], &[("num_classes", Attribute::Int(9))], &classes).unwrap();
    // Bad operands and properties are errors naming the op (and nothing is built).
    let err = |r: Result<Vec<_>, fuser::Error>| r.unwrap_err().to_string();
    assert!(err(f.op("fusion.sdpa_grad", &[a[0], a[1], a[1], a[2], a[2], a[2]], &[], &[])).contains("lse must"));
    assert!(err(f.op("fusion.embedding_grad", &[a[4], a[5]], &[], &[])).contains("num_rows"));
    assert!(
        err(f.op("fusion.embedding_grad", &[a[4], a[3]], &[("num_rows", Attribute::Int(9))], &[]))
            .contains("fusion.embedding_grad")
    );
    assert!(err(f.op("fusion.one_hot", &[a[4]], &[("num_classes", Attribute::Int(9))], &[])).contains("cannot infer"));
    f.finish(&[grads[0], grads[1], grads[2], t[0], o[0]]).unwrap();
    let built = program.finish().unwrap();
    let parsed = compiler.parse("text.mlir", TEXT).unwrap();
    for options in [PrintOptions::default(), PrintOptions::generic()] {
        assert_eq!(built.print(&options), parsed.print(&options));
    }
}
