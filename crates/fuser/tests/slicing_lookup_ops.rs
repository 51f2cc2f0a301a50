//! fusion.slice, fusion.concat, fusion.embedding and fusion.dropout built through the facade's
//! generic op builder (their `infer_result_types` hooks) print as the same program parsed from
//! text, and bad properties are errors naming the op.

use fuser::builder::{Attribute, ElementType, Split, TensorType};
use fuser::{Compiler, PrintOptions};

const TEXT: &str = r#"fusion.mesh @tp = [0, 1]
func.func @f(%qkv: tensor<8x48xf32, #fusion.shard<@tp, [[DIDx], []]>>, %table: tensor<64x16xf32, #fusion.shard<@tp, [[DIDx], []]>>,
    %ids: tensor<4xi32>, %seed: tensor<i64>, %off: tensor<i64>)
    -> (tensor<8x32xf32>, tensor<4x16xf32>, tensor<8x48xf32>) {
  %q = fusion.slice %qkv offsets = [0, 0] sizes = [8, 16] : (tensor<8x48xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x16xf32>
  %v = fusion.slice %qkv offsets = [0, 1] sizes = [8, 16] strides = [1, 3] : (tensor<8x48xf32, #fusion.shard<@tp, [[DIDx], []]>>) -> tensor<8x16xf32>
  %c = fusion.concat %q, %v dim = 1 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x32xf32>
  %e = fusion.embedding %table, %ids : (tensor<64x16xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<4xi32>) -> tensor<4x16xf32>
  %d = fusion.dropout %qkv, %seed, %off p = 2.500000e-01 : (tensor<8x48xf32, #fusion.shard<@tp, [[DIDx], []]>>, tensor<i64>, tensor<i64>) -> tensor<8x48xf32>
  return %c, %e, %d : tensor<8x32xf32>, tensor<4x16xf32>, tensor<8x48xf32>
}
"#;

#[test]
fn generic_builds_print_as_the_parsed_text() {
    let compiler = Compiler::new();
    let mut program = compiler.program();
    let tp = program.mesh("tp", &[0, 1]).unwrap();
    let rows = tp.sharding(2).split(0, Split::DIDX);
    let args = [
        TensorType::new(&[8, 48], ElementType::F32).sharded(rows.clone()),
        TensorType::new(&[64, 16], ElementType::F32).sharded(rows),
        TensorType::new(&[4], ElementType::I32),
        TensorType::new(&[], ElementType::I64),
        TensorType::new(&[], ElementType::I64),
    ];
    let mut f = program.function("f", &args).unwrap();
    let a: Vec<_> = (0..5).map(|i| f.arg(i).unwrap()).collect();
    let ints = |v: &[i64]| Attribute::Ints(v.to_vec());
    let q = f.op("fusion.slice", &[a[0]], &[("offsets", ints(&[0, 0])), ("sizes", ints(&[8, 16]))], &[]).unwrap();
    let window = [("offsets", ints(&[0, 1])), ("sizes", ints(&[8, 16])), ("strides", ints(&[1, 3]))];
    let v = f.op("fusion.slice", &[a[0]], &window, &[]).unwrap();
    let c = f.op("fusion.concat", &[q[0], v[0]], &[("dim", Attribute::Int(1))], &[]).unwrap();
    let e = f.op("fusion.embedding", &[a[1], a[2]], &[], &[]).unwrap();
    let d = f.op("fusion.dropout", &[a[0], a[3], a[4]], &[("p", Attribute::Float(0.25))], &[]).unwrap();
    // Bad properties are errors naming the op (and nothing is built).
    let err = |r: Result<Vec<_>, fuser::Error>| r.unwrap_err().to_string();
    assert!(
        err(f.op("fusion.slice", &[a[0]], &[("offsets", ints(&[0, 40])), ("sizes", ints(&[8, 16]))], &[]))
            .contains("fusion.slice: axis 1: the window")
    );
    assert!(err(f.op("fusion.concat", &[q[0], a[0]], &[("dim", Attribute::Int(0))], &[])).contains("fusion.concat"));
    assert!(err(f.op("fusion.dropout", &[a[0], a[3], a[4]], &[("p", Attribute::Float(1.0))], &[])).contains("[0, 1)"));
    assert!(err(f.op("fusion.embedding", &[a[1], a[1]], &[], &[])).contains("fusion.embedding"));
    f.finish(&[c[0], e[0], d[0]]).unwrap();
    let built = program.finish().unwrap();
    let parsed = compiler.parse("text.mlir", TEXT).unwrap();
    for options in [PrintOptions::default(), PrintOptions::generic()] {
        assert_eq!(built.print(&options), parsed.print(&options));
    }
}
