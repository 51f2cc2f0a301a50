//! The `host` dialect: what the CPU side of one rank runs. Buffers and views (`types`),
//! allocation, views, copies, compute in destination-passing style, loops, conditionals,
//! streams, and the executing rank as a runtime value, so that one host program serves every
//! rank. Index math uses `arith`.
//!
//! One file per concern: `alloc` (alloc/dealloc), `views` (shard_by_stream, select, slice),
//! `compute` (copy, matmul, linear, elementwise, sum), `kernel` (named kernels), `fused` (fused regions and their `host.yield`), `control` (for, if), `streams`
//! (current_stream, get_stream, set_stream, stream_wait, synchronize), `misc` (rank,
//! world_size, launch); `common` holds the shared constraints and syntax helpers. Every op
//! has a `*_state` builder for passes that create host programs.
//!
//! Invariants: ops are declared with [`fuser_ir::declare_op!`], so counts, segment sizes,
//! required properties and operand kinds are checked before each op's own verifier; those
//! verifiers check shapes and strides with `?` extents compatible with anything.

mod alloc;
mod common;
mod compute;
mod control;
mod fused;
mod kernel;
pub mod layout_views;
mod misc;
pub mod reduce;
mod streams;
pub mod types;
mod views;

#[cfg(test)]
mod op_tests;
#[cfg(test)]
mod type_tests;

pub use alloc::{ALLOC, DEALLOC, alloc_state, dealloc_state};
pub use common::i64_array_attr;
pub use compute::{
    COPY, ELEMENTWISE, ElementwiseKind, FILL, LINEAR, LinearEpilogue, LinearParts, MATMUL, SUM, copy_state,
    elementwise_state, fill_state, linear_epilogue_state, linear_parts, linear_state, matmul_result_shape,
    matmul_state, sum_result_shape, sum_state,
};
pub use control::{FOR, IF, for_state, if_state};
pub use fused::{FUSED, YIELD, fused_global_shape, fused_operands, fused_state, region_tensor_type, yield_state};
pub use kernel::{KERNEL, kernel_name, kernel_operands, kernel_params, kernel_state};
pub use layout_views::{EXPAND, PERMUTE, RESHAPE, expand_state, permute_state, reshape_state};
pub use misc::{LAUNCH, RANK, WORLD_SIZE, launch_state, rank_state, world_size_state};
pub use reduce::{REDUCE, ReduceKind, reduce_state};
pub use streams::{
    CURRENT_STREAM, GET_STREAM, SET_STREAM, STREAM_WAIT, SYNCHRONIZE, current_stream_state, get_stream_state,
    set_stream_state, stream_wait_state, synchronize_state,
};
pub use views::{
    Mixed, SELECT, SHARD_BY_STREAM, SLICE, ViewError, select_state, select_type, shard_by_stream_state,
    shard_by_stream_type, slice_state, slice_type,
};

use fuser_ir::registry::DialectDef;

pub static HOST: DialectDef = DialectDef {
    namespace: "host",
    summary: "Host programs of one rank: buffers, views, streams, loops and compute in destination-passing style",
    description: "A host program is a `func.func` whose body uses `host`, `comm` and `arith` ops. \
It is rank-generic: `host.rank` and `host.world_size` are runtime values, so the same program \
runs on every rank of the team.",
    ops: &[
        &ALLOC,
        &DEALLOC,
        &SHARD_BY_STREAM,
        &SELECT,
        &SLICE,
        &EXPAND,
        &PERMUTE,
        &RESHAPE,
        &COPY,
        &MATMUL,
        &LINEAR,
        &ELEMENTWISE,
        &FILL,
        &SUM,
        &REDUCE,
        &KERNEL,
        &FUSED,
        &YIELD,
        &FOR,
        &IF,
        &CURRENT_STREAM,
        &GET_STREAM,
        &SET_STREAM,
        &STREAM_WAIT,
        &SYNCHRONIZE,
        &RANK,
        &WORLD_SIZE,
        &LAUNCH,
    ],
    materialize_constant: None,
    types: &[&types::BUF, &types::VIEW, &types::STREAM],
    attrs: &[],
    opaque_attrs: false,
};
