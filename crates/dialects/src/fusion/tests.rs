//! Unit tests of the fusion dialect's Rust API: decoding and encoding shardings, local shapes,
//! mesh teams and lookup, result-type inference and the op builder.

use super::*;
use crate::reduction::ReductionKind;
use fuser_ir::context::Context;
use fuser_ir::diag::SourceFile;
use fuser_ir::ir::Ir;
use fuser_ir::parser::{parse_attr_str, parse_source, parse_type_str};
use fuser_ir::printer::{print_attr, print_type};
use fuser_ir::types::{DYNAMIC, FloatKind};
use std::sync::Arc;

fn ctx() -> Context {
    Context::new(crate::registry())
}

fn mesh_2x3() -> Mesh {
    Mesh { name: "m".into(), shape: vec![2, 3], devices: vec![0, 1, 2, 3, 4, 5] }
}

#[test]
fn sharding_decodes_from_types_and_round_trips() {
    let c = ctx();
    let t = parse_type_str(
        &c,
        "tensor<48x16xf32, #fusion.shard<@tp, [[Stream(3), DIDx], []], partial = [DIDy], reduce = max>>",
    )
    .unwrap();
    let s = Sharding::of_type(&c, t).unwrap();
    assert_eq!(s.mesh, "tp");
    assert_eq!(s.axes, vec![vec![Split::Stream(3), Split::Device(DeviceAxis::X)], vec![]]);
    assert_eq!(s.partial, vec![DeviceAxis::Y]);
    assert_eq!(s.reduce, ReductionKind::Max);
    assert_eq!(
        print_attr(&c, s.to_attr(&c)),
        "#fusion.shard<@tp, [[Stream(3), DIDx], []], partial = [DIDy], reduce = max>"
    );
    assert_eq!(s.apply_to(&c, strip_sharding(&c, t)), t);
    assert_eq!(print_type(&c, strip_sharding(&c, t)), "tensor<48x16xf32>");
    let plain = parse_type_str(&c, "tensor<4xf32>").unwrap();
    assert_eq!(Sharding::of_type(&c, plain), None);
    assert_eq!(Sharding::of_attr(&c, c.unit_attr()), None);
}

#[test]
fn replicated_prints_without_defaults() {
    let c = ctx();
    let s = Sharding::replicated("tp", 2);
    assert!(s.is_replicated());
    assert_eq!(print_attr(&c, s.to_attr(&c)), "#fusion.shard<@tp, [[], []]>");
    let parsed = parse_attr_str(&c, "#fusion.shard<@tp, [[], []], reduce = sum>").unwrap();
    assert_eq!(parsed, s.to_attr(&c));
}

#[test]
fn positions_of_device_and_stream_splits() {
    let s = Sharding {
        mesh: "m".into(),
        axes: vec![vec![], vec![Split::Stream(2), Split::Device(DeviceAxis::Y)], vec![Split::Device(DeviceAxis::X)]],
        partial: vec![],
        reduce: ReductionKind::Sum,
    };
    assert_eq!(s.device_axis_position(DeviceAxis::Y), Some((1, 1)));
    assert_eq!(s.device_axis_position(DeviceAxis::X), Some((2, 0)));
    assert_eq!(s.device_axis_position(DeviceAxis::Z), None);
    assert_eq!(s.stream_axes(), vec![(1, 0, 2)]);
}

#[test]
fn local_shapes_divide_by_splits() {
    let m = mesh_2x3();
    let s = Sharding {
        mesh: "m".into(),
        axes: vec![vec![Split::Stream(2), Split::Device(DeviceAxis::Y)], vec![Split::Device(DeviceAxis::X)], vec![]],
        partial: vec![],
        reduce: ReductionKind::Sum,
    };
    assert_eq!(s.local_shape(&[8, 9, 5], &m, false), Ok(vec![4, 3, 5]));
    assert_eq!(s.local_shape(&[8, 9, 5], &m, true), Ok(vec![2, 3, 5]));
    assert_eq!(s.local_shape(&[DYNAMIC, 9, 5], &m, true), Ok(vec![DYNAMIC, 3, 5]));
    let err = s.local_shape(&[8, 10, 5], &m, true).unwrap_err();
    assert!(err.contains("axis 1 of extent 10 is not divisible by 3"), "{err}");
    assert!(s.local_shape(&[8, 9], &m, true).is_err());
    let z = Sharding { axes: vec![vec![Split::Device(DeviceAxis::Z)]], ..Sharding::replicated("m", 1) };
    assert!(z.local_shape(&[8], &m, false).unwrap_err().contains("DIDz is not in mesh @m of rank 2"));
}

#[test]
fn validate_rejects_reused_axes_and_bad_streams() {
    let mut s = Sharding::replicated("tp", 2);
    s.axes[0] = vec![Split::Device(DeviceAxis::X)];
    assert_eq!(s.validate(), Ok(()));
    s.axes[1] = vec![Split::Device(DeviceAxis::X)];
    assert!(s.validate().unwrap_err().contains("more than once"));
    s.axes[1] = vec![Split::Stream(0)];
    assert!(s.validate().unwrap_err().contains("positive chunk count"));
    s.axes[1] = vec![];
    s.partial = vec![DeviceAxis::X];
    assert!(s.validate().unwrap_err().contains("both a split and partial"));
    let c = ctx();
    assert!(s.try_to_attr(&c).is_err());
    // Still encodable, for the op verifiers to report.
    assert_eq!(Sharding::of_attr(&c, s.to_attr(&c)), Some(s));
}

#[test]
fn mesh_axes_and_teams() {
    let m = mesh_2x3();
    assert_eq!(m.num_devices(), 6);
    assert_eq!(m.axis_size(DeviceAxis::X), Some(3));
    assert_eq!(m.axis_size(DeviceAxis::Y), Some(2));
    assert_eq!(m.axis_size(DeviceAxis::Z), None);
    assert_eq!(m.team(4, DeviceAxis::X), Some(vec![3, 4, 5]));
    assert_eq!(m.team(4, DeviceAxis::Y), Some(vec![1, 4]));
    assert_eq!(m.team_index(4, DeviceAxis::Y), Some(1));
    assert_eq!(m.team(9, DeviceAxis::X), None);
    assert_eq!(m.team(0, DeviceAxis::Z), None);
    let linear = Mesh::linear("tp", &[4, 5, 6, 7]);
    assert_eq!(linear.team(6, DeviceAxis::X), Some(vec![4, 5, 6, 7]));
    assert_eq!(linear.validate(), Ok(()));
    assert!(Mesh::linear("e", &[]).validate().is_err());
    assert!(Mesh::linear("d", &[1, 1]).validate().unwrap_err().contains("appears more than once"));
}

fn parse(c: &Context, ir: &mut Ir, text: &str) -> fuser_ir::OpId {
    let src = SourceFile::new("t.mlir", Arc::from(text));
    parse_source(c, ir, &src).unwrap_or_else(|d| panic!("{}", d.message))
}

fn find_op(c: &Context, ir: &Ir, top: fuser_ir::OpId, name: &str) -> fuser_ir::OpId {
    let ops = ir.nested_ops(top);
    ops.into_iter().find(|&op| c.op_name_str(ir.op_name(op)) == name).expect(name)
}

#[test]
fn mesh_lookup_walks_enclosing_symbol_tables() {
    let c = ctx();
    let mut ir = Ir::new();
    let text = "fusion.mesh @m = [[0, 1, 2], [3, 4, 5]]\n\
module @inner {\n  func.func @f(%a: tensor<6xf32>) {\n    %0 = fusion.neg %a : (tensor<6xf32>) -> tensor<6xf32>\n    return\n  }\n}\n";
    let top = parse(&c, &mut ir, text);
    let neg = find_op(&c, &ir, top, "fusion.neg");
    assert_eq!(Mesh::lookup(&c, &ir, neg, "m"), Some(mesh_2x3()));
    assert_eq!(Mesh::lookup(&c, &ir, neg, "nope"), None);
}

#[test]
fn inference_of_result_types() {
    let c = ctx();
    let t = |s: &str| parse_type_str(&c, s).unwrap();
    let show = |r: Result<fuser_ir::Type, String>| r.map(|ty| print_type(&c, ty));
    assert_eq!(show(infer_matmul(&c, t("tensor<5x7xf32>"), t("tensor<7x6xf32>"))), Ok("tensor<5x6xf32>".into()));
    assert_eq!(show(infer_matmul(&c, t("tensor<3x5x?xf32>"), t("tensor<?x7x6xf32>"))), Ok("tensor<3x5x6xf32>".into()));
    assert_eq!(
        show(infer_linear(&c, t("tensor<2x8x16xbf16>"), t("tensor<32x16xbf16>"), Some(t("tensor<32xbf16>")))),
        Ok("tensor<2x8x32xbf16>".into())
    );
    // Encodings are ignored and dropped.
    let sharded = t("tensor<8x16xf32, #fusion.shard<@tp, [[DIDx], []]>>");
    assert_eq!(show(infer_elementwise(&c, sharded, t("tensor<8x?xf32>"))), Ok("tensor<8x16xf32>".into()));
    assert_eq!(show(infer_sum(&c, t("tensor<4x8x2xf32>"), &[0, 2], false)), Ok("tensor<8xf32>".into()));
    assert_eq!(show(infer_sum(&c, t("tensor<4x8x2xf32>"), &[2], true)), Ok("tensor<4x8x1xf32>".into()));
    assert_eq!(show(infer_permute(&c, t("tensor<4x8x2xf32>"), &[2, 0, 1])), Ok("tensor<2x4x8xf32>".into()));
    assert_eq!(show(infer_broadcast(&c, t("tensor<8xf32>"), &[0, 2], &[3, 5])), Ok("tensor<3x8x5xf32>".into()));
    assert_eq!(show(infer_reshape(&c, t("tensor<4x8xf32>"), &[32])), Ok("tensor<32xf32>".into()));
    let f16 = c.float_type(FloatKind::F16);
    assert_eq!(show(infer_cast(&c, t("tensor<4xf32>"), f16)), Ok("tensor<4xf16>".into()));
    assert_eq!(show(infer_set(&c, sharded)), Ok("tensor<8x16xf32>".into()));
    assert!(infer_matmul(&c, t("tensor<5x7xf32>"), t("tensor<6x6xf32>")).is_err());
    assert!(infer_sum(&c, t("tensor<4xf32>"), &[1], false).is_err());
    assert!(infer_permute(&c, t("tensor<4x8xf32>"), &[0, 0]).is_err());
    assert!(infer_reshape(&c, t("tensor<4x8xf32>"), &[31]).is_err());
}

#[test]
fn built_ops_print_in_the_shared_syntax() {
    let c = ctx();
    let mut ir = Ir::new();
    let top = parse(&c, &mut ir, "func.func @f(%a: tensor<4x8xf32>) {\n  return\n}\n");
    let ret = find_op(&c, &ir, top, "func.return");
    let block = ir.op_block(ret).unwrap();
    let arg = ir.block_args(block)[0];
    let result = infer_sum(&c, ir.value_type(arg), &[1], true).unwrap();
    let state = tensor_op_state(&c, SUM.name, vec![arg], result, Some(&[1]), true, c.unknown_loc());
    let op = ir.create_op(state);
    ir.insert_op_before(ret, op);
    let text = fuser_ir::printer::print_module(&c, &ir, top, &Default::default());
    assert!(
        text.contains("%0 = fusion.sum %arg0 dims = [1] keep_dims : (tensor<4x8xf32>) -> tensor<4x1xf32>"),
        "{text}"
    );
}

#[test]
fn reductions_softmax_and_losses_infer_their_result_types() {
    let c = ctx();
    let t = |s: &str| parse_type_str(&c, s).unwrap();
    let props = |dims: &[i64], keep: bool| {
        let mut e = vec![(c.ident("dims"), syntax::i64_array_attr(&c, dims))];
        if keep {
            e.push((c.ident("keep_dims"), c.unit_attr()));
        }
        Some(c.dictionary(e))
    };
    let x = t("tensor<4x8xf32>");
    for def in [&MAX, &MIN, &MEAN, &VAR, &SUM] {
        let infer = def.infer_result_types.expect("the reductions infer their result types");
        assert_eq!(infer(&c, &[x], props(&[1], true)).unwrap(), vec![t("tensor<4x1xf32>")], "{}", def.name);
        assert!(infer(&c, &[x], props(&[2], false)).is_err());
    }
    // The shape rules are shared; the op's own (floats for mean) are the verifier's.
    assert!(infer_reduce(&c, "fusion.mean", t("tensor<4x8xi32>"), &[1], false).unwrap_err().contains("float"));
    assert!(infer_reduce(&c, "fusion.max", t("tensor<4x0xf32>"), &[1], false).unwrap_err().contains("extent 0"));
    assert!(infer_reduce(&c, "fusion.min", x, &[], false).unwrap_err().contains("at least one"));
    let sm = SOFTMAX.infer_result_types.unwrap();
    assert_eq!(sm(&c, &[x], props(&[0, 1], false)).unwrap(), vec![x]);
    assert!(sm(&c, &[t("tensor<4x8xi8>")], props(&[1], false)).is_err());
    let (labels, max) = (t("tensor<4xi64>"), t("tensor<4xf32>"));
    let ce = CROSS_ENTROPY.infer_result_types.unwrap();
    assert_eq!(ce(&c, &[x, labels], None).unwrap(), vec![t("tensor<4xf32>")]);
    assert!(ce(&c, &[x, t("tensor<4xi32>")], None).is_err());
    let parts = CROSS_ENTROPY_PARTS.infer_result_types.unwrap()(&c, &[x, labels, max], None).unwrap();
    assert_eq!(parts, vec![t("tensor<4x2xf32>")]);
    let finish = CROSS_ENTROPY_FINISH.infer_result_types.unwrap()(&c, &[parts[0], labels, max], None).unwrap();
    assert_eq!(finish, vec![t("tensor<4xf32>")]);
}

/// `elementwise_kind` maps each math op (with its predicate or approximation) to its host
/// kind; `full_value` reads the fill value; the type inference of the math families.
#[test]
fn math_ops_map_to_host_kinds() {
    use crate::host::ElementwiseKind as K;
    let c = ctx();
    let mut ir = Ir::new();
    let m = parse(
        &c,
        &mut ir,
        "func.func @f(%a: tensor<4xf32>, %i: tensor<4xi8>) -> tensor<4xf32> {\n\
         %0 = fusion.gelu %a {approximate = \"tanh\"} : (tensor<4xf32>) -> tensor<4xf32>\n\
         %1 = fusion.gelu %0 : (tensor<4xf32>) -> tensor<4xf32>\n\
         %2 = fusion.compare gt %1, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>\n\
         %3 = fusion.where %2, %1, %a : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n\
         %4 = fusion.abs %i : (tensor<4xi8>) -> tensor<4xi8>\n\
         %5 = fusion.full {value = -2 : i8} : () -> tensor<4xi8>\n\
         %6 = fusion.maximum %3, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n\
         return %6 : tensor<4xf32>\n}",
    );
    let ops = ir.nested_ops(m);
    let kinds: Vec<(String, Option<K>)> = ops
        .iter()
        .map(|&op| (c.op_name_str(ir.op_name(op)).to_string(), elementwise_kind(&c, &ir, op)))
        .filter(|(n, _)| n.starts_with("fusion."))
        .collect();
    let want = [
        ("fusion.gelu", Some(K::GeluTanh)),
        ("fusion.gelu", Some(K::Gelu)),
        ("fusion.compare", Some(K::Gt)),
        ("fusion.where", Some(K::Where)),
        ("fusion.abs", Some(K::Abs)),
        ("fusion.full", None),
        ("fusion.maximum", Some(K::Max)),
    ];
    assert_eq!(kinds, want.map(|(n, k)| (n.to_string(), k)));
    let full = find_op(&c, &ir, m, "fusion.full");
    assert_eq!(full_value(&c, &ir, full), Some(crate::support::Scalar::Int(-2)));
    let f32t = parse_type_str(&c, "tensor<4xf32>").unwrap();
    let i8t = parse_type_str(&c, "tensor<4xi8>").unwrap();
    assert!(infer_float_unary(&c, i8t).unwrap_err().contains("must be a float"));
    assert_eq!(print_type(&c, infer_compare(&c, f32t, f32t).unwrap()), "tensor<4xi1>");
    assert!(infer_where(&c, f32t, f32t, f32t).unwrap_err().contains("'i1'"));
    assert!(infer_pow(&c, i8t, i8t).is_err());
}

/// Every fusion tensor op infers its result types (the generic builders of the facade and of
/// Python build it from operands and properties), except those whose result is not a function
/// of them: the element type of `cast`, the new extents of `broadcast`, the shape of `reshape`
/// and `full` (and the symbol `mesh`).
#[test]
fn every_tensor_op_infers_its_result_types_but_the_shape_givers() {
    let without: Vec<&str> =
        super::FUSION.ops.iter().filter(|d| d.infer_result_types.is_none()).map(|d| d.name).collect();
    assert_eq!(
        without,
        ["fusion.mesh", "fusion.cast", "fusion.broadcast", "fusion.reshape", "fusion.full", "fusion.one_hot"]
    );
}
