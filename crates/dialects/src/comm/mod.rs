//! The `comm` dialect: collectives and point-to-point communication of host programs.
//!
//! Every communication is *posted*: it is enqueued on the current stream and returns a
//! `!comm.request` at once; `comm.wait` makes the then-current stream wait for it. Buffers are
//! the host dialect's `!host.buf` / `!host.view`.
//!
//! This module holds what the ops share: the dialect definition, the operand and property
//! constraints, the `team` / `backend` / `protocol` / reduction properties and their custom
//! syntax clauses, and the accessors later passes use ([`team`], [`backend`], [`protocol`],
//! [`reduction_kind`], [`root`], [`peer`], ...). Each op family lives in its own submodule:
//! [`collectives`], [`p2p`], [`group`], [`wait`]; the type and attributes in [`types`] and
//! [`attrs`].
//!
//! Invariants (checked by the verifiers): a team is a non-empty list of distinct, non-negative
//! absolute device ids; `backend` is always present on ops that have it (materialized as
//! `nccl` by the parser and the builders, like arith's `overflowFlags`); a `protocol` appears
//! only with the `cuda_ipc` backend; roots and peers are `index` values, roots team-relative,
//! peers absolute ranks.

pub mod attrs;
pub mod collectives;
mod common;
pub mod group;
pub mod p2p;
pub mod types;
pub mod wait;

#[cfg(test)]
mod tests;

pub use attrs::{
    Backend, Protocol, backend_attr, backend_of, check_team, protocol_attr, protocol_of, reduction_attr, reduction_of,
    team_attr, team_of,
};
pub use collectives::{
    ALL_TO_ALL, ALLGATHER, ALLREDUCE, BROADCAST, COLLECTIVE_PERMUTE, GATHER, REDUCE, REDUCE_SCATTER, SCATTER,
    all_to_all_state, allgather_state, allreduce_state, broadcast_state, check_gathered_shape, check_same_shape,
    collective_permute_state, gather_state, reduce_scatter_state, reduce_state, scatter_state,
};
pub use group::{GROUP, group_state};
pub use p2p::{
    RECV, SEND, SHARE_HANDLES, recv_state, send_state, share_handles_recvs, share_handles_sends, share_handles_state,
};
pub use types::{REQUEST, is_request, request_type};
pub use wait::{WAIT, wait_state};

pub use common::*;

use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId};
use fuser_ir::registry::DialectDef;

/// The `comm` dialect.
pub static COMM: DialectDef = DialectDef {
    namespace: "comm",
    summary: "Collectives and point-to-point communication posted by host programs",
    description: "Communication between the ranks of a multi-GPU host program. Every op but \
`comm.wait` and `comm.share_handles` *posts* its work to the current stream and returns a \
`!comm.request` immediately; `comm.wait %r` makes the stream that is current when the wait \
runs wait for the communication. A buffer (`!host.buf` / `!host.view`) read or written by a \
communication may be reused or deallocated only after a wait on its request.\n\n\
Collectives name their participants with `team = [d0, d1, ...]`, absolute device ids (ranks) \
in team order; the executing rank must be one of them. A *root* (`comm.broadcast`, \
`comm.reduce`, `comm.gather`, `comm.scatter`) is an `index` value holding a **team-relative** \
index (`0` is the first device of the team), so it may be a loop index. Point-to-point *peers* \
(`comm.send`, `comm.recv`, `comm.collective_permute`) are `index` values holding **absolute** \
ranks. Communications use NCCL unless `backend = cuda_ipc` asks for direct copies through CUDA \
IPC handles, which `comm.share_handles` exchanges beforehand. `comm.group` posts several \
communications together (an NCCL group).\n\n\
```mlir\n%r = comm.allgather %shard into %full team = [0, 1, 2, 3] : !host.buf<2x8xf32>, !host.buf<8x8xf32>\n\
comm.wait %r\n```",
    ops: &[
        &ALLGATHER,
        &ALLREDUCE,
        &REDUCE_SCATTER,
        &BROADCAST,
        &REDUCE,
        &GATHER,
        &SCATTER,
        &ALL_TO_ALL,
        &COLLECTIVE_PERMUTE,
        &SEND,
        &RECV,
        &SHARE_HANDLES,
        &GROUP,
        &WAIT,
    ],
    materialize_constant: None,
    types: &[&types::REQUEST],
    attrs: &[&attrs::REDUCTION, &attrs::BACKEND, &attrs::PROTOCOL],
    opaque_attrs: false,
};

/// True for the collectives (`allgather` ... `collective_permute`): the ops with a team.
pub fn is_collective(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    comm_def(ctx, ir, op).is_some_and(|d| collectives::ALL.iter().any(|c| std::ptr::eq(*c, d)))
}
