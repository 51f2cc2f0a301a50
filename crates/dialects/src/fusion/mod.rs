//! The `fusion` dialect: tensor programs with device (DID) and stream sharding.
//!
//! Programs are `func.func`s over ranked tensors whose encoding, a `#fusion.shard` attribute
//! ([`sharding`]), says how each tensor is split over the devices of a mesh (`fusion.mesh`, a
//! symbol, [`mesh`]) and over stream chunks. The tensor ops share one custom syntax
//! ([`syntax`]) and one set of checks ([`verify`]): shapes and element types follow from the
//! operands (each op file has its `infer_*` function), shardings must fit their mesh.
//!
//! Module map: `sharding` (attribute, [`Sharding`], [`DeviceAxis`], [`Split`]), `mesh`
//! (`fusion.mesh`, [`Mesh`]), `matmul` (matmul, linear), `elementwise` (add, sub, mul, div,
//! neg, cast), `math` (exp, log, tanh, erf, sqrt, rsqrt, sigmoid, abs, reciprocal, silu, gelu,
//! maximum, minimum, pow, compare, where, full), `reduce` (sum, max, min, mean, var), `layout`
//! (set, broadcast, reshape, permute), `norm` (layer_norm, rms_norm), `attention` (sdpa),
//! `slicing` (slice, concat), `lookup` (embedding, dropout), `softmax` (softmax, log_softmax),
//! `loss` (cross_entropy and its vocab-parallel phases), `grad` (sdpa_grad, embedding_grad,
//! one_hot: the backward pass's own ops); `clauses` is the shared `name = value`
//! syntax of the ops with properties other than `dims`; `kernels` says which ops lower to a
//! named `host.kernel`.

pub mod attention;
pub mod clauses;
pub mod elementwise;
pub mod grad;
pub mod kernels;
pub mod layout;
pub mod lookup;
pub mod loss;
pub mod math;
pub mod matmul;
pub mod mesh;
pub mod norm;
pub mod reduce;
pub mod sharding;
pub mod slicing;
pub mod softmax;
pub mod syntax;
pub mod verify;

#[cfg(test)]
mod tests;

pub use attention::{SDPA, infer_sdpa};
pub use elementwise::{ADD, CAST, DIV, MUL, NEG, SUB, infer_cast, infer_elementwise, infer_unary};
pub use grad::{EMBEDDING_GRAD, ONE_HOT, SDPA_GRAD, infer_embedding_grad, infer_sdpa_grad, one_hot_shape};
pub use kernels::{KERNEL_OPS, KernelOp, Origin, kernel_op};
pub use layout::{BROADCAST, PERMUTE, RESHAPE, SET, infer_broadcast, infer_permute, infer_reshape, infer_set};
pub use lookup::{DROPOUT, EMBEDDING, infer_dropout, infer_embedding};
pub use loss::{
    CROSS_ENTROPY, CROSS_ENTROPY_FINISH, CROSS_ENTROPY_PARTS, infer_cross_entropy, infer_cross_entropy_finish,
    infer_cross_entropy_parts,
};
pub use math::{
    ABS, COMPARE, ERF, EXP, FULL, GELU, LOG, MAXIMUM, MINIMUM, POW, RECIPROCAL, RSQRT, SIGMOID, SILU, SQRT, TANH,
    WHERE, elementwise_kind, full_value, infer_compare, infer_float_unary, infer_pow, infer_where,
};
pub use matmul::{LINEAR, MATMUL, infer_linear, infer_matmul};
pub use mesh::{MESH, Mesh, mesh_state};
pub use norm::{LAYER_NORM, NormKind, RMS_NORM, infer_norm, norm_state};
pub use reduce::{MAX, MEAN, MIN, SUM, VAR, infer_reduce, infer_sum};
pub use sharding::{DeviceAxis, SHARD, Sharding, Split, strip_sharding};
pub use slicing::{CONCAT, SLICE, infer_concat, infer_slice};
pub use softmax::{LOG_SOFTMAX, SOFTMAX, infer_softmax};
pub use syntax::tensor_op_state;

use fuser_ir::registry::DialectDef;

pub static FUSION: DialectDef = DialectDef {
    namespace: "fusion",
    summary: "Tensor programs whose tensor types say how they are sharded over devices and streams",
    description: "A fusion program is a `func.func` over ranked tensors, written as the user \
thinks of it: global (unsharded) shapes, and a sharding in each tensor's type. The sharding is \
the tensor's encoding, `#fusion.shard<@MESH, [[SPLITS of axis 0], [SPLITS of axis 1], ...]>`, \
naming a `fusion.mesh` and listing, per tensor axis, its *outer* splits, outermost first:\n\n\
- `DIDx`, `DIDy`, `DIDz`: split over a mesh axis. `DIDx` is the innermost (last) mesh axis, \
`DIDy` the one before, `DIDz` the one before that (as in nvFuser). Device `r` holds the chunk \
at its coordinate along that axis.\n\
- `Stream(n)`: split in `n` chunks that a host loop computes one per iteration, each on its own \
stream, so that communication of one chunk overlaps computation of another.\n\
- `partial = [DIDx]`: the value is a pending reduction (`reduce = sum` by default) over those \
device axes; each device holds a summand of the full value.\n\n\
The *local shape* of a tensor on one rank divides each axis by the sizes of its device splits \
(and, inside the host loop, by its stream chunk counts): on `fusion.mesh @tp = [0, 1, 2, 3]`, \
`tensor<48x256xbf16, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>` is held as `48x64` per rank \
and computed in chunks of `16x64`. Static extents must be divisible by the product of their \
splits. A change of sharding between an op's operands and its result is a *resharding*; \
`fusion.set` is the explicit one. Passes turn reshardings into `comm` collectives and the \
stream splits into `host` loops.\n\n\
```mlir\nfusion.mesh @tp = [0, 1, 2, 3]\n\
func.func @row_parallel(\n    \
%x: tensor<48x256xbf16, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>,\n    \
%w: tensor<64x256xbf16, #fusion.shard<@tp, [[], [DIDx]]>>)\n    \
-> tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []]>> {\n  \
%y = fusion.linear %x, %w\n      \
: (tensor<48x256xbf16, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>, tensor<64x256xbf16, #fusion.shard<@tp, [[], [DIDx]]>>)\n      \
-> tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []]>>\n  \
return %y : tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []]>>\n}\n```\n\n\
All tensor ops share one syntax: `%r = fusion.OP %a, %b [dims = [...]] [keep_dims] attr-dict : \
(operand types) -> result type`.\n\n\
## Numeric semantics\n\n\
Element types: `bf16`, `f16`, `f32`, `f64`, the signless or signed integers `i8`, `i16`, `i32`, \
`i64` (`index` is `i64`) and `i1` (booleans: `compare`'s result, `where`'s condition; stored in one \
byte, 0 or 1); the runtime refuses unsigned integers. Each op computes in its \
element type, as MLIR's `arith` and torch do, and `fuser-run --check` evaluates the same rules \
(integers exactly, floats rounded to the element type after every op):\n\n\
- Integers wrap (two's complement) on `add`, `sub`, `mul`, `neg`, in `sum`, `matmul` and \
`linear`, and in sum/prod reductions of partial values (`arith.addi`; torch: `int8 100 + 100 = -56`).\n- Integer `div` truncates toward zero (`arith.divsi`, `torch.div(rounding_mode=\"trunc\")`: \
`7 / 2 = 3`, `-7 / 2 = -3`; Python's `//` floors instead, `-7 // 2 = -4`). `x / 0 = -1` (all bits \
set) and `MIN / -1 = MIN`: MLIR leaves both undefined and torch raises for `/ 0` on the cpu; fuser \
defines them (as RISC-V does) so that every backend and the check agree.\n- `cast` float -> integer truncates toward zero and saturates at the type's range; NaN gives 0 \
(`2.5 -> 2`, `-2.5 -> -2`, `1e10 -> 2147483647` as `i32`; Rust's `as`). Integer -> integer keeps \
the low bits (`arith.trunci`/`arith.extsi`). Integer -> float and float -> narrower float round to \
nearest, ties to even, and overflow to infinity. `cast` to `i1` is `x != 0` (torch's `bool()`: \
NaN gives 1, `-0` gives 0); from `i1` gives 0 or 1. Integer arithmetic on `i1` keeps `x != 0` of \
the wrapped result.\n- Floats follow IEEE 754: every op's result is rounded to the element type; `bf16`/`f16` ops \
compute in `f32` and round each result (as torch does), so an `f16` `300 * 300` is `inf`. \
`sum`, `matmul` and `linear` on `bf16`/`f16`/`f32` accumulate in `f32` (the cuda backend's sums \
in `f64`) and round the result once. Over a device-split axis (and `mean` likewise) the \
result is a `partial` value of the element type: each rank rounds its local sum once, and the \
collective adds the ranks' rounded sums and rounds the total (the cpu collectives add in `f64` \
and round once; NCCL and the ring reduce-scatter of `comm-p2p-ring`, which accumulates each GEMM \
into the running sum it receives, may round the running sum at every step), as a row-parallel \
`bf16` linear does in torch: on `d` ranks at least `d + 1` roundings where the unsharded op \
rounds once. The check accumulates in `f64` and allows a \
relative error `||out - ref|| / ||ref||` of the least precise float type the output is \
computed through, its own or that of an op result on the way (bf16 2e-2, f16 2e-3, f32 1e-5, \
f64 1e-12: an `f32` cast of a `bf16` sum holds a `bf16` value and is checked at 2e-2; function \
arguments do not count, the run reads them exactly; integers must match exactly). NaN propagates; \
infinities and NaN must appear where the check's reference has them. The transcendental ops \
(`exp`, `log`, `tanh`, `erf`, `sigmoid`, `silu`, `gelu`, `pow`, ...) compute in `f32` for \
`bf16`/`f16`/`f32` on the cpu (in `f64` on the cuda backend) and round once; the check's \
reference computes them in `f64` (the same tolerances). `compare` and `where` are exact.",
    ops: &[
        &MESH,
        &MATMUL,
        &LINEAR,
        &ADD,
        &SUB,
        &MUL,
        &DIV,
        &NEG,
        &CAST,
        &SUM,
        &MAX,
        &MIN,
        &MEAN,
        &VAR,
        &SOFTMAX,
        &LOG_SOFTMAX,
        &CROSS_ENTROPY,
        &CROSS_ENTROPY_PARTS,
        &CROSS_ENTROPY_FINISH,
        &SET,
        &BROADCAST,
        &RESHAPE,
        &PERMUTE,
        &EXP,
        &LOG,
        &TANH,
        &ERF,
        &SQRT,
        &RSQRT,
        &SIGMOID,
        &ABS,
        &RECIPROCAL,
        &SILU,
        &GELU,
        &MAXIMUM,
        &MINIMUM,
        &POW,
        &COMPARE,
        &WHERE,
        &FULL,
        &LAYER_NORM,
        &RMS_NORM,
        &SDPA,
        &SLICE,
        &CONCAT,
        &EMBEDDING,
        &DROPOUT,
        &SDPA_GRAD,
        &EMBEDDING_GRAD,
        &ONE_HOT,
    ],
    materialize_constant: None,
    types: &[],
    attrs: &[&SHARD],
    opaque_attrs: false,
};
