//! Programs built with the builder API equal (printed) the same programs parsed from text,
//! and building reports bad programs as errors naming the op.

mod support;

use fuser::builder::{DeviceAxis, ElementType, Sharding, Split, TensorType};
use fuser::{Compiler, Module, PrintOptions};

/// `examples/row_parallel_linear.mlir`, built op by op.
fn build_row_parallel_linear(compiler: &Compiler) -> Result<Module, fuser::Error> {
    let mut program = compiler.program();
    let tp = program.mesh("tp", &[0, 1, 2, 3])?;
    let x = TensorType::new(&[48, 256], ElementType::BF16)
        .sharded(tp.sharding(2).split(0, Split::Stream(3)).split(1, Split::DIDX));
    let w = TensorType::new(&[64, 256], ElementType::BF16).sharded(tp.sharding(2).split(1, Split::DIDX));
    let mut f = program.function("row_parallel_linear", &[x, w])?;
    let (x, w) = (f.arg(0)?, f.arg(1)?);
    let y = f.linear(x, w, None, tp.sharding(2).split(0, Split::Stream(3)))?;
    f.finish(&[y])?;
    program.finish()
}

#[test]
fn built_program_prints_as_the_parsed_example() {
    let compiler = Compiler::new();
    let built = build_row_parallel_linear(&compiler).expect("builds");
    let file = "examples/row_parallel_linear.mlir";
    let parsed = compiler.parse(file, &support::read_repo_file(file)).expect("parses");
    for options in [PrintOptions::default(), PrintOptions::generic()] {
        assert_eq!(built.print(&options), parsed.print(&options));
    }
}

#[test]
fn built_program_lowers_as_the_parsed_example() {
    let compiler = Compiler::new();
    let mut built = build_row_parallel_linear(&compiler).expect("builds");
    let file = "examples/row_parallel_linear.mlir";
    let mut parsed = compiler.parse(file, &support::read_repo_file(file)).expect("parses");
    compiler.run_pipeline(&mut built, "builtin.module(tp-default)").expect("lowers");
    compiler.run_pipeline(&mut parsed, "builtin.module(tp-default)").expect("lowers");
    assert_eq!(built.print(&PrintOptions::default()), parsed.print(&PrintOptions::default()));
}

#[test]
fn every_tensor_op_builds_as_its_text() {
    let compiler = Compiler::new();
    let mut program = compiler.program();
    let m = program.mesh_grid("m", &[2, 2], &[0, 1, 2, 3]).unwrap();
    let a = TensorType::new(&[4, 8], ElementType::F32).sharded(m.sharding(2).split(0, Split::DIDY));
    let b = TensorType::new(&[8, 6], ElementType::F32);
    let mut f = program.function("all_ops", &[a, b]).unwrap();
    let (a, b) = (f.arg(0).unwrap(), f.arg(1).unwrap());
    let c = f.matmul(a, b, None).unwrap();
    let d = f.add(c, c, None).unwrap();
    let d = f.sub(d, c, None).unwrap();
    let d = f.mul(d, c, None).unwrap();
    let d = f.div(d, c, None).unwrap();
    let d = f.neg(d, None).unwrap();
    let h = f.cast(d, ElementType::F16, None).unwrap();
    let s = f.sum(h, &[1], true, None).unwrap();
    let r = f.reshape(s, &[4], None).unwrap();
    let bc = f.broadcast(r, &[(1, 3)], None).unwrap();
    let p = f.permute(bc, &[1, 0], None).unwrap();
    let partial = Sharding::new("m", 2).partial(DeviceAxis::DIDx);
    let q = f.set(p, partial).unwrap();
    let rows = f.set(q, m.sharding(2).split(1, Split::DIDX).split(1, Split::Stream(2))).unwrap();
    f.finish(&[rows]).unwrap();
    let built = program.finish().expect("verifies");

    let text = r#"fusion.mesh @m = [[0, 1], [2, 3]]
func.func @all_ops(%a: tensor<4x8xf32, #fusion.shard<@m, [[DIDy], []]>>, %b: tensor<8x6xf32>)
    -> tensor<3x4xf16, #fusion.shard<@m, [[], [DIDx, Stream(2)]]>> {
  %c = fusion.matmul %a, %b : (tensor<4x8xf32, #fusion.shard<@m, [[DIDy], []]>>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %0 = fusion.add %c, %c : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %1 = fusion.sub %0, %c : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %2 = fusion.mul %1, %c : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %3 = fusion.div %2, %c : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %4 = fusion.neg %3 : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %5 = fusion.cast %4 : (tensor<4x6xf32>) -> tensor<4x6xf16>
  %6 = fusion.sum %5 dims = [1] keep_dims : (tensor<4x6xf16>) -> tensor<4x1xf16>
  %7 = fusion.reshape %6 : (tensor<4x1xf16>) -> tensor<4xf16>
  %8 = fusion.broadcast %7 dims = [1] : (tensor<4xf16>) -> tensor<4x3xf16>
  %9 = fusion.permute %8 dims = [1, 0] : (tensor<4x3xf16>) -> tensor<3x4xf16>
  %10 = fusion.set %9 : (tensor<3x4xf16>) -> tensor<3x4xf16, #fusion.shard<@m, [[], []], partial = [DIDx]>>
  %11 = fusion.set %10 : (tensor<3x4xf16, #fusion.shard<@m, [[], []], partial = [DIDx]>>) -> tensor<3x4xf16, #fusion.shard<@m, [[], [DIDx, Stream(2)]]>>
  return %11 : tensor<3x4xf16, #fusion.shard<@m, [[], [DIDx, Stream(2)]]>>
}
"#;
    let parsed = compiler.parse("all_ops.mlir", text).expect("parses");
    assert_eq!(built.print(&PrintOptions::generic()), parsed.print(&PrintOptions::generic()));
    assert_eq!(built.print(&PrintOptions::default()), parsed.print(&PrintOptions::default()));
}

#[test]
fn shape_errors_name_the_op() {
    let compiler = Compiler::new();
    let mut program = compiler.program();
    let x = TensorType::new(&[4, 8], ElementType::F32);
    let w = TensorType::new(&[6, 7], ElementType::F32);
    let mut f = program.function("bad", &[x, w]).unwrap();
    let (x, w) = (f.arg(0).unwrap(), f.arg(1).unwrap());
    let err = f.linear(x, w, None, None).unwrap_err();
    assert_eq!(err.diagnostics()[0].message, "fusion.linear: input [4, 8] and weight [6, 7] differ in K");
    assert!(f.arg(2).is_err());
}

#[test]
fn tensors_of_another_program_are_rejected() {
    let compiler = Compiler::new();
    let t = TensorType::new(&[4], ElementType::F32);
    let mut first = compiler.program();
    let foreign = first.function("first", std::slice::from_ref(&t)).unwrap().arg(0).unwrap();
    let mut second = compiler.program();
    let mut f = second.function("second", &[t]).unwrap();
    let err = f.neg(foreign, None).unwrap_err();
    assert!(err.to_string().contains("a tensor of another program was used"), "{err}");
}

#[test]
fn mesh_rules_and_indivisible_shardings_are_errors() {
    let compiler = Compiler::new();
    let mut program = compiler.program();
    assert!(program.mesh("dup", &[0, 0]).unwrap_err().to_string().contains("appears more than once"));
    let tp = program.mesh("tp", &[0, 1, 2]).unwrap();
    // 4 rows do not split over 3 devices: the verifier reports it when the program is finished.
    let t = TensorType::new(&[4], ElementType::F32).sharded(tp.sharding(1).split(0, Split::DIDX));
    let mut f = program.function("f", std::slice::from_ref(&t)).unwrap();
    let x = f.arg(0).unwrap();
    let y = f.neg(x, tp.sharding(1).split(0, Split::DIDX)).unwrap();
    f.finish(&[y]).unwrap();
    let err = program.finish().unwrap_err();
    assert!(err.to_string().contains("'fusion.neg' op"), "{err}");
}
