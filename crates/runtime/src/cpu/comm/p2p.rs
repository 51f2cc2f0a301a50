//! Point-to-point communication: sends and receives matched FIFO per (source, destination)
//! pair (the k-th send from a to b meets the k-th receive at b from a), with the blocking rules
//! of the backends, and the CUDA IPC handle exchange.
//!
//! Blocking rules, as [`Request::blocks_stream`] reports them (the copy always happens when the
//! second of the two sides is posted, by the thread that posts it):
//! - `nccl`, not in a group: both the send and the receive keep the posting stream busy until
//!   the counterpart is posted (so two ranks that both send first deadlock);
//! - `nccl` in a [`Communicator::group`]: the ops are posted together and none blocks; the
//!   group's request completes when all its ops matched;
//! - `cuda_ipc` + `get`: the send is a non-blocking signal; the receive blocks its stream until
//!   the send was posted, then copies (send first on both ranks works, receive first
//!   deadlocks);
//! - `cuda_ipc` + `put`: the mirror image: the receive signals, the send blocks and copies.
//!
//! CUDA IPC transfers require a prior [`Communicator::share_handles`] by both sides
//! registering the pair of buffers; sending to oneself is an error with `cuda_ipc`.
//! Mismatched counterparts (backend, protocol, element count or type) fail both requests.

use super::{Communicator, Completion, PostInfo, Request, join_clocks, read_bytes, write_bytes};
use crate::buffer::View;
use crate::cpu::race::VClock;
use crate::error::{OpKey, RtError, RtResult};
use crate::watchdog::{WaitInfo, lock};
use fuser_dialects::comm::attrs::{Backend, Protocol};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// One op of a [`Communicator::group`].
#[derive(Clone, Debug)]
pub enum P2pOp {
    Send { peer: usize, view: View },
    Recv { peer: usize, view: View },
}

/// Whether an ungrouped send (`sending`) or receive keeps its posting stream busy until it
/// completed (the blocking rules above; in a group nothing does).
pub fn p2p_blocks_stream(backend: Backend, protocol: Protocol, sending: bool) -> bool {
    match (backend, protocol, sending) {
        (Backend::Nccl, _, _) => true,
        (Backend::CudaIpc, Protocol::Get, false) | (Backend::CudaIpc, Protocol::Put, true) => true,
        (Backend::CudaIpc, _, _) => false,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Send,
    Recv,
}

/// A posted side waiting for its counterpart.
struct Pending {
    rank: usize,
    view: View,
    backend: Backend,
    protocol: Protocol,
    key: OpKey,
    clock: Option<VClock>,
    done: Arc<Completion>,
}

/// The unmatched sends and receives of one (source, destination) pair.
#[derive(Default)]
struct PairQueue {
    sends: VecDeque<Pending>,
    recvs: VecDeque<Pending>,
    /// Matches made so far (the number of the next message).
    matched: u64,
}

impl PairQueue {
    /// Queues `p` on `side`, or pops its counterpart: (message number, send, recv).
    fn post(&mut self, side: Side, p: Pending) -> Option<(u64, Pending, Pending)> {
        let (mine, theirs) = match side {
            Side::Send => (&mut self.sends, &mut self.recvs),
            Side::Recv => (&mut self.recvs, &mut self.sends),
        };
        let Some(other) = theirs.pop_front() else {
            mine.push_back(p);
            return None;
        };
        let n = self.matched;
        self.matched += 1;
        Some(match side {
            Side::Send => (n, p, other),
            Side::Recv => (n, other, p),
        })
    }
}

/// What a p2p wait is in, for watchdog reports: `send to rank 1`, `recv from rank 0`.
pub(crate) fn p2p_wait_what(side: Side, peer: usize) -> String {
    match side {
        Side::Send => format!("send to rank {peer}"),
        Side::Recv => format!("recv from rank {peer}"),
    }
}

impl Matcher {
    /// The sends and receives still waiting for their counterparts, in words (`rank 0 send
    /// to rank 1 at 'comm.send' at f.mlir:3:4`), ordered by pair.
    pub(super) fn unmatched(&self) -> Vec<String> {
        let data = lock(&self.data);
        let mut pairs: Vec<_> = data.iter().collect();
        pairs.sort_by_key(|(pair, _)| **pair);
        let mut out = Vec::new();
        for (&(src, dst), q) in pairs {
            out.extend(q.sends.iter().map(|p| format!("rank {src} {} at {}", p2p_wait_what(Side::Send, dst), p.key)));
            out.extend(q.recvs.iter().map(|p| format!("rank {dst} {} at {}", p2p_wait_what(Side::Recv, src), p.key)));
        }
        out
    }
}

/// The matching state of a communicator.
#[derive(Default)]
pub(super) struct Matcher {
    data: Mutex<FxHashMap<(usize, usize), PairQueue>>,
    handles: Mutex<FxHashMap<(usize, usize), PairQueue>>,
    /// Exchanged CUDA IPC handles: (source, destination, send buffer id, recv buffer id).
    shared: Mutex<FxHashSet<(usize, usize, u64, u64)>>,
}

fn describe(p: &Pending) -> String {
    format!("{} {} elements at {}", p.view.numel(), p.view.dtype().name(), p.key)
}

impl Communicator {
    /// Posts the send of `view` from `at.rank` to `peer` (an absolute rank).
    pub fn send(
        &self,
        at: &PostInfo,
        peer: usize,
        view: &View,
        backend: Backend,
        protocol: Protocol,
    ) -> RtResult<Request> {
        self.post_p2p(at, Side::Send, peer, view, backend, protocol, false)
    }

    /// Posts the receive into `view` at `at.rank` of what `peer` (an absolute rank) sends.
    pub fn recv(
        &self,
        at: &PostInfo,
        peer: usize,
        view: &View,
        backend: Backend,
        protocol: Protocol,
    ) -> RtResult<Request> {
        self.post_p2p(at, Side::Recv, peer, view, backend, protocol, false)
    }

    /// Posts `ops` together as one NCCL group: none blocks the stream; the returned request
    /// completes when all matched.
    pub fn group(&self, at: &PostInfo, ops: &[P2pOp]) -> RtResult<Request> {
        let mut requests = Vec::with_capacity(ops.len());
        for op in ops {
            let (side, peer, view) = match op {
                P2pOp::Send { peer, view } => (Side::Send, *peer, view),
                P2pOp::Recv { peer, view } => (Side::Recv, *peer, view),
            };
            requests.push(self.post_p2p(at, side, peer, view, Backend::Nccl, Protocol::Get, true)?);
        }
        Ok(Request::all(&requests))
    }

    #[allow(clippy::too_many_arguments)]
    fn post_p2p(
        &self,
        at: &PostInfo,
        side: Side,
        peer: usize,
        view: &View,
        backend: Backend,
        protocol: Protocol,
        grouped: bool,
    ) -> RtResult<Request> {
        let rank = at.rank;
        let fail = |e: RtError| e.on_rank(rank).at(&at.key);
        self.check_rank("rank", rank).map_err(fail)?;
        self.check_rank("peer", peer).map_err(fail)?;
        if let Some(remote) = &self.remote {
            return remote.post_p2p(at, side, peer, view, (backend, protocol), grouped);
        }
        if backend == Backend::CudaIpc {
            self.check_handles(rank, side, peer, view).map_err(fail)?;
        }
        let (src, dst) = if side == Side::Send { (rank, peer) } else { (peer, rank) };
        let done = Completion::new();
        let pending = Pending {
            rank,
            view: view.clone(),
            backend,
            protocol,
            key: at.key.clone(),
            clock: at.clock.clone(),
            done: done.clone(),
        };
        let matched = lock(&self.p2p.data).entry((src, dst)).or_default().post(side, pending);
        if let Some((n, send, recv)) = matched {
            let result = self.transfer(n, &send, &recv);
            send.done.finish(result.clone());
            recv.done.finish(result);
        }
        let blocks_stream = !grouped && p2p_blocks_stream(backend, protocol, side == Side::Send);
        let info = WaitInfo::new(rank, p2p_wait_what(side, peer), Some(at.key.clone()), vec![peer]);
        Ok(Request::single(done, info, blocks_stream, &self.watchdog))
    }

    /// Checks that the two sides agree, then copies; the joined clock of both sides.
    fn transfer(&self, n: u64, send: &Pending, recv: &Pending) -> RtResult<Option<VClock>> {
        let header = || format!("message #{n} from rank {} to rank {}", send.rank, recv.rank);
        if send.backend != recv.backend || (send.backend == Backend::CudaIpc && send.protocol != recv.protocol) {
            let name = |p: &Pending| match p.backend {
                Backend::Nccl => "nccl".to_string(),
                Backend::CudaIpc => format!("cuda_ipc/{}", p.protocol.keyword()),
            };
            return Err(RtError::new(format!(
                "{}: the send ({}) uses {}, the recv ({}) uses {}",
                header(),
                send.key,
                name(send),
                recv.key,
                name(recv)
            )));
        }
        if send.view.numel() != recv.view.numel() || send.view.dtype() != recv.view.dtype() {
            return Err(RtError::new(format!(
                "{}: the send posts {}, the recv expects {}",
                header(),
                describe(send),
                describe(recv)
            )));
        }
        if send.backend == Backend::CudaIpc {
            let pair = (send.rank, recv.rank, send.view.buffer.id, recv.view.buffer.id);
            if !lock(&self.p2p.shared).contains(&pair) {
                return Err(RtError::new(format!(
                    "{}: buffers #{} and #{} were not paired by comm.share_handles",
                    header(),
                    pair.2,
                    pair.3
                )));
            }
        }
        write_bytes(&recv.view, &read_bytes(&send.view));
        Ok(join_clocks([&send.clock, &recv.clock]))
    }

    /// A CUDA IPC op needs a handle exchanged for its buffer and peer.
    fn check_handles(&self, rank: usize, side: Side, peer: usize, view: &View) -> RtResult<()> {
        if peer == rank {
            return Err(RtError::new("cuda_ipc send or recv to oneself is not supported"));
        }
        let id = view.buffer.id;
        let shared = lock(&self.p2p.shared);
        let found = shared.iter().any(|&(s, d, sb, rb)| match side {
            Side::Send => (s, d, sb) == (rank, peer, id),
            Side::Recv => (s, d, rb) == (peer, rank, id),
        });
        if !found {
            let what = match side {
                Side::Send => format!("send of buffer #{id} to"),
                Side::Recv => format!("recv into buffer #{id} from"),
            };
            return Err(RtError::new(format!("cuda_ipc {what} rank {peer} without a comm.share_handles for it")));
        }
        Ok(())
    }

    /// The CUDA IPC handle exchange of `at.rank`: for each `(view, peer)` of `sends`, pairs
    /// the buffer with the buffer the peer lists in its `recvs` for this rank (FIFO per pair),
    /// and vice versa. Blocking in the real backend: wait on the request right away.
    pub fn share_handles(&self, at: &PostInfo, sends: &[(View, usize)], recvs: &[(View, usize)]) -> RtResult<Request> {
        if let Some(remote) = &self.remote {
            return remote.share_handles(at, sends, recvs);
        }
        let rank = at.rank;
        let mut requests = Vec::with_capacity(sends.len() + recvs.len());
        let items = sends.iter().map(|s| (Side::Send, s)).chain(recvs.iter().map(|r| (Side::Recv, r)));
        for (side, (view, peer)) in items {
            let peer = *peer;
            let fail = |e: RtError| e.on_rank(rank).at(&at.key);
            self.check_rank("peer", peer).map_err(fail)?;
            if peer == rank {
                return Err(fail(RtError::new("share_handles with oneself is not supported")));
            }
            let (src, dst) = if side == Side::Send { (rank, peer) } else { (peer, rank) };
            let done = Completion::new();
            let pending = Pending {
                rank,
                view: view.clone(),
                backend: Backend::CudaIpc,
                protocol: Protocol::Get,
                key: at.key.clone(),
                clock: None,
                done: done.clone(),
            };
            let matched = lock(&self.p2p.handles).entry((src, dst)).or_default().post(side, pending);
            if let Some((_, send, recv)) = matched {
                lock(&self.p2p.shared).insert((send.rank, recv.rank, send.view.buffer.id, recv.view.buffer.id));
                send.done.finish(Ok(None));
                recv.done.finish(Ok(None));
            }
            let info = WaitInfo::new(rank, format!("share_handles with rank {peer}"), Some(at.key.clone()), vec![peer]);
            requests.push(Request::single(done, info, true, &self.watchdog));
        }
        let mut all = Request::all(&requests);
        all.blocks_stream = true;
        Ok(all)
    }
}
