//! What each operation does to its buffers on one rank, as the race checker needs it: the
//! views a kernel or a communication reads and writes, and whether a communication keeps its
//! posting stream busy until it completed.
//!
//! The read and write sets are those of the communicator ([`crate::cpu::comm`]) and of NCCL, rank
//! by rank: a rooted collective touches some buffers on its root only (`reduce` and `gather`
//! write the root's output, `broadcast` and `scatter` read the root's input; the other
//! members' buffers there are untouched); `share_handles` moves no data. A test runs every
//! kind through the cpu backend and compares these sets with the buffers that really change
//! (`access/tests.rs`).
//!
//! Blocking: collectives, ungrouped NCCL sends and receives, a CUDA IPC `get` receive, a `put`
//! send and `share_handles` hold their stream until they completed; a `comm.group`, a CUDA
//! IPC `get` send and a `put` receive do not: their buffers stay in use until a `comm.wait`
//! on their request ([`crate::cpu::race::RaceChecker::on_transfer`]). The communicator's
//! `Request::blocks_stream` follows the same rule ([`crate::cpu::comm::p2p_blocks_stream`]).

use super::backend::{CommOp, Kernel};
use crate::cpu::comm::p2p_blocks_stream;

impl<B> Kernel<B> {
    /// The buffers the kernel reads (`false`) and writes (`true`).
    pub fn accesses(&self) -> Vec<(&B, bool)> {
        match self {
            Kernel::Copy { source, target } => vec![(source, false), (target, true)],
            Kernel::Matmul { a, b, c, .. } => vec![(a, false), (b, false), (c, true)],
            Kernel::Linear { x, w, bias, residual, y, .. } => {
                let mut v = vec![(x, false), (w, false)];
                v.extend(bias.iter().map(|b| (b, false)));
                v.extend(residual.iter().map(|r| (r, false)));
                v.push((y, true));
                v
            }
            Kernel::Elementwise { inputs, output, .. } => {
                inputs.iter().map(|i| (i, false)).chain(std::iter::once((output, true))).collect()
            }
            Kernel::Sum { input, output, .. } | Kernel::Reduce { input, output, .. } => {
                vec![(input, false), (output, true)]
            }
            Kernel::Fill { target, .. } => vec![(target, true)],
            Kernel::Named { inputs, outputs, .. } | Kernel::Fused { inputs, outputs, .. } => {
                inputs.iter().map(|b| (b, false)).chain(outputs.iter().map(|b| (b, true))).collect()
            }
        }
    }
}

impl<B> CommOp<B> {
    /// The buffers the op reads (`false`) and writes (`true`) on `rank`.
    pub fn accesses(&self, rank: usize) -> Vec<(&B, bool)> {
        let mut out = Vec::new();
        self.push_accesses(rank, &mut out);
        out
    }

    fn push_accesses<'a>(&'a self, rank: usize, out: &mut Vec<(&'a B, bool)>) {
        let is_root = |team: &[usize], root: usize| team.get(root) == Some(&rank);
        match self {
            CommOp::AllGather { input, output, .. }
            | CommOp::AllReduce { input, output, .. }
            | CommOp::ReduceScatter { input, output, .. }
            | CommOp::AllToAll { input, output, .. }
            | CommOp::CollectivePermute { input, output, .. } => out.extend([(input, false), (output, true)]),
            // Only the root's input is sent; every member receives.
            CommOp::Broadcast { input, output, team, root, .. } | CommOp::Scatter { input, output, team, root, .. } => {
                if is_root(team, *root) {
                    out.push((input, false));
                }
                out.push((output, true));
            }
            // Every member sends; only the root receives.
            CommOp::Reduce { input, output, team, root, .. } | CommOp::Gather { input, output, team, root, .. } => {
                out.push((input, false));
                if is_root(team, *root) {
                    out.push((output, true));
                }
            }
            CommOp::Send { buffer, .. } => out.push((buffer, false)),
            CommOp::Recv { buffer, .. } => out.push((buffer, true)),
            CommOp::Group(ops) => ops.iter().for_each(|o| o.push_accesses(rank, out)),
            CommOp::ShareHandles { .. } => {}
        }
    }

    /// Whether the real backend keeps the posting stream busy until the op completed (then its
    /// accesses are the stream's; otherwise they last until a `comm.wait` on its request).
    pub fn blocks_stream(&self) -> bool {
        match self {
            CommOp::Send { transport, protocol, .. } => p2p_blocks_stream(*transport, *protocol, true),
            CommOp::Recv { transport, protocol, .. } => p2p_blocks_stream(*transport, *protocol, false),
            CommOp::Group(_) => false,
            CommOp::AllGather { .. }
            | CommOp::AllReduce { .. }
            | CommOp::ReduceScatter { .. }
            | CommOp::Broadcast { .. }
            | CommOp::Reduce { .. }
            | CommOp::Gather { .. }
            | CommOp::Scatter { .. }
            | CommOp::AllToAll { .. }
            | CommOp::CollectivePermute { .. }
            | CommOp::ShareHandles { .. } => true,
        }
    }
}

#[cfg(test)]
mod tests;
