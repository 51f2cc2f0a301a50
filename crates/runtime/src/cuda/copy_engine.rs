//! Copy-engine collectives (`backend = cuda_ipc` on any collective; design in
//! docs/dev/copy-engine.md): every byte between ranks moves
//! by a copy-engine copy (`cuMemcpyAsync` between CUDA IPC-mapped buffers) on the posting
//! stream; only a reduction runs a kernel (one small elementwise/sum kernel over the pulled
//! chunks), so a GEMM on another stream keeps its SMs.
//!
//! Every transfer is a CUDA IPC *get* of [`super::ipc`] (ranks of this process) or
//! [`super::ipc_procs`] (one rank per process, ranks possibly sharing a GPU): the owner
//! *signals* a view of its persistent staging buffer (stream-written ready flag), the reader
//! *copies* it into its own memory and writes the owner's done flag. Protocol per rank at
//! team position `p` of `n`:
//!
//! - **allgather**: input → staging; signal staging to every peer; input → output chunk `p`;
//!   pull every peer's staging into output chunk `j`.
//! - **reduce_scatter**: input → staging; signal staging chunk `j` to the peer at `j`; pull
//!   every peer's chunk `p` into slot `j` of a local `[n, chunk]` buffer (own chunk copied
//!   locally); reduce the slots in team order into the output.
//! - **allreduce** = reduce_scatter + allgather over `n` pieces of `ceil(N / n)` elements (the
//!   last ones shorter or empty): the reduced piece lands in a second region of the staging
//!   buffer, is signalled to every peer, and every rank pulls the peers' reduced pieces.
//! - **broadcast**: the root stages its input and signals it to every peer (its own output is
//!   a local copy); every other member pulls it into its output.
//! - **reduce**: every member stages its input; the others signal it to the root, which pulls
//!   them into slots and reduces in team order (as reduce_scatter does for one chunk).
//! - **gather**: the others stage and signal their input to the root, which pulls member `j`'s
//!   into output chunk `j` (its own: a local copy).
//! - **scatter**: the root stages its input and signals chunk `j` to the member at `j` (its
//!   own: a local copy); the others pull theirs into their output.
//! - **all_to_all**: stage the input; signal chunk `j` to the member at `j`; pull chunk `p` of
//!   every peer `j` into output chunk `j` (own chunk: a local copy).
//! - **collective_permute**: stage the input and signal it to `send_to`; pull `recv_from`'s
//!   into the output (a peer equal to this rank: a local copy).
//!
//! Every member creates (and shares with every team peer) its staging buffer on first use,
//! whether it signals or only pulls: sharing registers the pairs a pull needs.
//!
//! Invariants: every rank issues its signals of a phase before its copies of that phase, in
//! team order, so the FIFO message numbering of each (source, destination) pair agrees on
//! both sides and no host waits for a peer that waits for it. A staging buffer (a ring of
//! [`STAGING_RING`] per rank, team, element type and size, used in turn; each exported once,
//! so peers open it once; which one a use takes is the owner's choice alone, since readers
//! learn the view from the signal) is rewritten only after
//! the posting stream waited for the done flags of its previous use and for the end of that
//! use on its own posting stream. The result is the same
//! on every rank (reductions in team order).

use super::api::{Event, RawStream};
use super::gpu::Gpu;
use super::ipc::{Flag, IpcHub, Side};
use super::ipc_procs::ProcIpc;
use super::memory::CudaBuf;
use crate::buffer::contiguous_strides;
use crate::dtype::DType;
use crate::error::{RtError, RtResult};
use crate::exec::backend::CommOp;
use crate::watchdog::lock;
use fuser_dialects::comm::attrs::Protocol;
use fuser_dialects::host::ElementwiseKind;
use fuser_dialects::reduction::ReductionKind;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The CUDA IPC transport the collectives run over.
pub enum Link<'a> {
    /// Ranks of this process (one GPU each).
    Threads(&'a IpcHub),
    /// One rank per process.
    Procs(&'a ProcIpc),
}

impl Link<'_> {
    fn share(&self, rank: usize, staging: &CudaBuf, peers: &[usize]) -> RtResult<()> {
        match self {
            Link::Threads(hub) => hub.share(rank, peers, peers),
            Link::Procs(pi) => {
                let pairs: Vec<(CudaBuf, usize)> = peers.iter().map(|&p| (staging.clone(), p)).collect();
                pi.share(&pairs, &pairs)
            }
        }
    }

    /// `view` (of this rank's staging buffer) is ready for `peer` to read from here on in
    /// `stream`; returns the flag set once the peer copied it.
    fn signal(&self, rank: usize, peer: usize, view: &CudaBuf, s: RawStream, timeout: Duration) -> RtResult<Flag> {
        match self {
            Link::Threads(hub) => hub.signal(rank, peer, Side::Send, Protocol::Get, view, s),
            Link::Procs(pi) => pi.signal(peer, Side::Send, Protocol::Get, view, s, timeout),
        }
    }

    /// Copies the view `peer` signalled next into `dst` on `s`.
    fn pull(
        &self,
        gpu: &Gpu,
        rank: usize,
        peer: usize,
        dst: &CudaBuf,
        s: RawStream,
        timeout: Duration,
    ) -> RtResult<()> {
        match self {
            Link::Threads(hub) => hub.copy(gpu, rank, peer, Side::Recv, Protocol::Get, dst, s, timeout),
            Link::Procs(pi) => pi.copy(gpu, peer, Side::Recv, Protocol::Get, dst, s, timeout),
        }
    }
}

/// A persistent staging buffer, the done flags of its last use (the peers' reads) and an
/// event after that use on its posting stream (this rank's own reads).
struct Staging {
    buf: CudaBuf,
    pending: Vec<Flag>,
    last: Option<Arc<Event>>,
}

/// Staging buffers per (rank, team, element type, size), used in turn: collectives of
/// consecutive stream chunks (of one size) get different buffers and may run side by side.
pub const STAGING_RING: usize = 2;

/// The key of a ring of staging buffers: (rank, team, element type, elements).
type StagingKey = (usize, Vec<usize>, DType, usize);

/// The staging buffers of this process's ranks: per key, up to [`STAGING_RING`] buffers and
/// the number of uses so far (use `k` takes buffer `k mod STAGING_RING`).
#[derive(Default)]
pub struct CopyEngine {
    staging: Mutex<HashMap<StagingKey, (Vec<Staging>, usize)>>,
}

/// A dense 1-D view of `len` elements of `buf` (dense) from element `from`.
fn flat(buf: &CudaBuf, from: usize, len: usize) -> RtResult<CudaBuf> {
    buf.relayout(buf.offset + from, vec![len], vec![1])
}

/// `buf` (dense) seen with `shape`.
fn shaped(buf: &CudaBuf, shape: &[usize]) -> RtResult<CudaBuf> {
    buf.relayout(buf.offset, shape.to_vec(), contiguous_strides(shape))
}

/// The element range of piece `j` of `n` pieces of `total` elements (`ceil(total / n)` each,
/// the last ones shorter or empty).
pub fn piece(total: usize, n: usize, j: usize) -> (usize, usize) {
    let c = total.div_ceil(n.max(1));
    let start = (j * c).min(total);
    (start, ((j + 1) * c).min(total) - start)
}

/// `buf` itself when dense, else a new dense buffer of its shape (copied back by the caller).
fn dense_like(gpu: &Gpu, buf: &CudaBuf) -> RtResult<CudaBuf> {
    if buf.is_contiguous() { Ok(buf.clone()) } else { gpu.new_buf(buf.dtype, &buf.shape) }
}

/// `src` → `dst` on `s`, nothing when they are the same view (an in-place collective).
fn local_copy(gpu: &Gpu, src: &CudaBuf, dst: &CudaBuf, s: RawStream) -> RtResult<()> {
    if src.addr() == dst.addr() && src.shape == dst.shape && src.strides == dst.strides {
        return Ok(());
    }
    gpu.copy(src, dst, s)
}

/// Pulls the view `peer` signalled next into `output` (through a dense temporary when
/// `output` is strided).
fn pull_into(link: &Link<'_>, gpu: &Gpu, plan: &Plan<'_>, peer: usize, output: &CudaBuf, s: RawStream) -> RtResult<()> {
    let dense = dense_like(gpu, output)?;
    link.pull(gpu, plan.rank, peer, &flat(&dense, 0, output.numel())?, s, plan.timeout)?;
    if !output.is_contiguous() {
        gpu.copy(&dense, output, s)?;
    }
    Ok(())
}

/// What one rank runs: its team position, peers and the collective's sizes.
struct Plan<'a> {
    rank: usize,
    team: &'a [usize],
    me: usize,
    timeout: Duration,
}

impl Plan<'_> {
    fn peers(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.team.iter().copied().enumerate().filter(move |&(j, _)| j != self.me)
    }
}

impl CopyEngine {
    pub fn new() -> CopyEngine {
        CopyEngine::default()
    }

    /// Posts the copy-engine collective `c` of `rank` on `s` (everything enqueued there, so an
    /// event recorded after it completes with it).
    pub fn post(
        &self,
        link: &Link<'_>,
        gpu: &Gpu,
        rank: usize,
        c: &CommOp<CudaBuf>,
        s: RawStream,
        timeout: Duration,
    ) -> RtResult<()> {
        let (input, output, team) = match c {
            CommOp::AllGather { input, output, team, .. }
            | CommOp::AllReduce { input, output, team, .. }
            | CommOp::ReduceScatter { input, output, team, .. }
            | CommOp::Broadcast { input, output, team, .. }
            | CommOp::Reduce { input, output, team, .. }
            | CommOp::Gather { input, output, team, .. }
            | CommOp::Scatter { input, output, team, .. }
            | CommOp::AllToAll { input, output, team, .. }
            | CommOp::CollectivePermute { input, output, team, .. } => (input, output, team),
            other => return Err(RtError::new(format!("{} has no copy-engine implementation", other.name()))),
        };
        let me = team
            .iter()
            .position(|&r| r == rank)
            .ok_or_else(|| RtError::new(format!("{}: rank {rank} is not in the team {team:?}", c.name())))?;
        if input.dtype != output.dtype {
            return Err(RtError::new(format!("{}: input and output element types differ", c.name())));
        }
        let n = team.len();
        let expect = |ok: bool, rule: &str| expect_fit(c, input, output, ok, rule);
        let plan = Plan { rank, team, me, timeout };
        if !matches!(c, CommOp::AllGather { .. } | CommOp::AllReduce { .. } | CommOp::ReduceScatter { .. }) {
            return self.post_other(link, gpu, &plan, c, input, output, s);
        }
        let numel = input.numel();
        // An allreduce's reduced piece lives after the staged input.
        let extra = if matches!(c, CommOp::AllReduce { .. }) { numel.div_ceil(n.max(1)) } else { 0 };
        let (staging, index) = self.staging(link, gpu, &plan, input.dtype, numel + extra, s)?;
        gpu.copy(input, &shaped(&staging, &input.shape)?, s)?;
        let mut flags = Vec::new();
        match c {
            CommOp::AllGather { .. } => {
                expect(output.numel() == n * numel, "output = team size × input")?;
                self.allgather(link, gpu, &plan, &flat(&staging, 0, numel)?, input, output, s, &mut flags)?;
            }
            CommOp::ReduceScatter { reduction, .. } => {
                expect(numel == n * output.numel(), "input = team size × output")?;
                let chunk = output.numel();
                for (j, peer) in plan.peers() {
                    flags.push(link.signal(rank, peer, &flat(&staging, j * chunk, chunk)?, s, timeout)?);
                }
                let reduced = self.reduce_pieces(link, gpu, &plan, &staging, (me * chunk, chunk), *reduction, s)?;
                gpu.copy(&shaped(&reduced, &output.shape)?, output, s)?;
            }
            CommOp::AllReduce { reduction, .. } => {
                expect(numel == output.numel(), "same size")?;
                for (j, peer) in plan.peers() {
                    let (from, len) = piece(numel, n, j);
                    if len > 0 {
                        flags.push(link.signal(rank, peer, &flat(&staging, from, len)?, s, timeout)?);
                    }
                }
                let mine = piece(numel, n, me);
                let area = flat(&staging, numel, mine.1)?;
                if mine.1 > 0 {
                    let reduced = self.reduce_pieces(link, gpu, &plan, &staging, mine, *reduction, s)?;
                    gpu.copy(&reduced, &area, s)?;
                    for (_, peer) in plan.peers() {
                        flags.push(link.signal(rank, peer, &area, s, timeout)?);
                    }
                }
                let dense = gpu.new_buf(output.dtype, &[numel])?;
                if mine.1 > 0 {
                    gpu.copy(&area, &flat(&dense, mine.0, mine.1)?, s)?;
                }
                for (j, peer) in plan.peers() {
                    let (from, len) = piece(numel, n, j);
                    if len > 0 {
                        link.pull(gpu, rank, peer, &flat(&dense, from, len)?, s, timeout)?;
                    }
                }
                gpu.copy(&shaped(&dense, &output.shape)?, output, s)?;
            }
            _ => unreachable!("matched above"),
        }
        self.release((rank, team.to_vec(), input.dtype, numel + extra), index, flags, s)
    }

    /// broadcast, reduce, gather, scatter, all_to_all and collective_permute (module docs):
    /// one phase each, this rank's signals before its pulls.
    #[allow(clippy::too_many_arguments)]
    fn post_other(
        &self,
        link: &Link<'_>,
        gpu: &Gpu,
        plan: &Plan<'_>,
        c: &CommOp<CudaBuf>,
        input: &CudaBuf,
        output: &CudaBuf,
        s: RawStream,
    ) -> RtResult<()> {
        let (rank, me, n, timeout) = (plan.rank, plan.me, plan.team.len(), plan.timeout);
        let numel = input.numel();
        let expect = |ok: bool, rule: &str| expect_fit(c, input, output, ok, rule);
        let member = |what: &str, r: usize| -> RtResult<usize> {
            if r == rank || plan.team.contains(&r) {
                Ok(r)
            } else {
                Err(RtError::new(format!("{}: {what} {r} is not a member of the team {:?}", c.name(), plan.team)))
            }
        };
        let root_rank = |root: usize| -> RtResult<usize> {
            plan.team.get(root).copied().ok_or_else(|| {
                RtError::new(format!("{}: root {root} is not a position of the team {:?}", c.name(), plan.team))
            })
        };
        let (staging, index) = self.staging(link, gpu, plan, input.dtype, numel, s)?;
        let stage = || gpu.copy(input, &shaped(&staging, &input.shape)?, s);
        let staged = |from: usize, len: usize| flat(&staging, from, len);
        let mut flags = Vec::new();
        match c {
            CommOp::Broadcast { root, .. } => {
                expect(output.numel() == numel, "same size")?;
                let root = root_rank(*root)?;
                if root == rank {
                    stage()?;
                    for (_, peer) in plan.peers() {
                        flags.push(link.signal(rank, peer, &staged(0, numel)?, s, timeout)?);
                    }
                    local_copy(gpu, input, output, s)?;
                } else {
                    pull_into(link, gpu, plan, root, output, s)?;
                }
            }
            CommOp::Reduce { root, reduction, .. } => {
                expect(output.numel() == numel, "same size")?;
                let root = root_rank(*root)?;
                stage()?;
                if root != rank {
                    flags.push(link.signal(rank, root, &staged(0, numel)?, s, timeout)?);
                } else if numel > 0 {
                    let reduced = self.reduce_pieces(link, gpu, plan, &staging, (0, numel), *reduction, s)?;
                    gpu.copy(&shaped(&reduced, &output.shape)?, output, s)?;
                }
            }
            CommOp::Gather { root, .. } => {
                let root = root_rank(*root)?;
                if root != rank {
                    stage()?;
                    flags.push(link.signal(rank, root, &staged(0, numel)?, s, timeout)?);
                } else {
                    expect(output.numel() == n * numel, "output = team size × input")?;
                    let dense = dense_like(gpu, output)?;
                    let whole = flat(&dense, 0, output.numel())?;
                    gpu.copy(input, &shaped(&flat(&whole, me * numel, numel)?, &input.shape)?, s)?;
                    for (j, peer) in plan.peers() {
                        link.pull(gpu, rank, peer, &flat(&whole, j * numel, numel)?, s, timeout)?;
                    }
                    if !output.is_contiguous() {
                        gpu.copy(&dense, output, s)?;
                    }
                }
            }
            CommOp::Scatter { root, .. } => {
                let root = root_rank(*root)?;
                let chunk = output.numel();
                if root == rank {
                    expect(numel == n * chunk, "input = team size × output")?;
                    stage()?;
                    for (j, peer) in plan.peers() {
                        flags.push(link.signal(rank, peer, &staged(j * chunk, chunk)?, s, timeout)?);
                    }
                    gpu.copy(&shaped(&staged(me * chunk, chunk)?, &output.shape)?, output, s)?;
                } else {
                    pull_into(link, gpu, plan, root, output, s)?;
                }
            }
            CommOp::AllToAll { .. } => {
                expect(output.numel() == numel && numel % n.max(1) == 0, "same size, divisible by the team size")?;
                let chunk = numel / n.max(1);
                stage()?;
                for (j, peer) in plan.peers() {
                    flags.push(link.signal(rank, peer, &staged(j * chunk, chunk)?, s, timeout)?);
                }
                let dense = dense_like(gpu, output)?;
                let whole = flat(&dense, 0, numel)?;
                gpu.copy(&staged(me * chunk, chunk)?, &flat(&whole, me * chunk, chunk)?, s)?;
                for (j, peer) in plan.peers() {
                    link.pull(gpu, rank, peer, &flat(&whole, j * chunk, chunk)?, s, timeout)?;
                }
                if !output.is_contiguous() {
                    gpu.copy(&dense, output, s)?;
                }
            }
            CommOp::CollectivePermute { send_to, recv_from, .. } => {
                expect(output.numel() == numel, "same size")?;
                let (to, from) = (member("send_to", *send_to)?, member("recv_from", *recv_from)?);
                if to != rank {
                    stage()?;
                    flags.push(link.signal(rank, to, &staged(0, numel)?, s, timeout)?);
                }
                if from != rank {
                    pull_into(link, gpu, plan, from, output, s)?;
                } else {
                    local_copy(gpu, input, output, s)?;
                }
            }
            other => return Err(RtError::new(format!("{} is not a collective of post_other", other.name()))),
        }
        self.release((rank, plan.team.to_vec(), input.dtype, numel), index, flags, s)
    }

    /// The staging buffer of `elems` elements for this rank and team, created and shared on
    /// first use; the posting stream waits for the done flags of its previous use.
    fn staging(
        &self,
        link: &Link<'_>,
        gpu: &Gpu,
        plan: &Plan<'_>,
        dtype: DType,
        elems: usize,
        s: RawStream,
    ) -> RtResult<(CudaBuf, usize)> {
        let mut map = lock(&self.staging);
        let (ring, uses) = map.entry((plan.rank, plan.team.to_vec(), dtype, elems)).or_default();
        let index = *uses % STAGING_RING;
        *uses += 1;
        if let Some(st) = ring.get_mut(index) {
            if let Some(e) = st.last.take() {
                e.wait_on(s)?;
            }
            for f in st.pending.drain(..) {
                f.wait_on(s)?;
            }
            return Ok((st.buf.clone(), index));
        }
        // At least one element, so that an empty collective still has a block to share.
        let buf = gpu.new_buf(dtype, &[elems.max(1)])?;
        let peers: Vec<usize> = plan.peers().map(|(_, p)| p).collect();
        if !peers.is_empty() {
            link.share(plan.rank, &buf, &peers)?;
        }
        ring.push(Staging { buf: buf.clone(), pending: Vec::new(), last: None });
        Ok((buf, index))
    }

    /// Records the use that just ended: the peers' done flags and an event on `s`.
    fn release(&self, key: StagingKey, index: usize, flags: Vec<Flag>, s: RawStream) -> RtResult<()> {
        let event = Event::record_on(s)?;
        if let Some(st) = lock(&self.staging).get_mut(&key).and_then(|(ring, _)| ring.get_mut(index)) {
            st.pending = flags;
            st.last = Some(event);
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn allgather(
        &self,
        link: &Link<'_>,
        gpu: &Gpu,
        plan: &Plan<'_>,
        staged: &CudaBuf,
        input: &CudaBuf,
        output: &CudaBuf,
        s: RawStream,
        flags: &mut Vec<Flag>,
    ) -> RtResult<()> {
        let numel = input.numel();
        for (_, peer) in plan.peers() {
            flags.push(link.signal(plan.rank, peer, staged, s, plan.timeout)?);
        }
        let dense = if output.is_contiguous() { output.clone() } else { gpu.new_buf(output.dtype, &output.shape)? };
        let whole = flat(&dense, 0, output.numel())?;
        gpu.copy(staged, &flat(&whole, plan.me * numel, numel)?, s)?;
        for (j, peer) in plan.peers() {
            link.pull(gpu, plan.rank, peer, &flat(&whole, j * numel, numel)?, s, plan.timeout)?;
        }
        if !output.is_contiguous() {
            gpu.copy(&dense, output, s)?;
        }
        Ok(())
    }

    /// Pulls every peer's elements `range` of its staging buffer into slots of a local
    /// `[n, len]` buffer (this rank's own from `staging`) and reduces them in team order;
    /// returns the dense `[len]` result.
    #[allow(clippy::too_many_arguments)]
    fn reduce_pieces(
        &self,
        link: &Link<'_>,
        gpu: &Gpu,
        plan: &Plan<'_>,
        staging: &CudaBuf,
        (from, len): (usize, usize),
        reduction: ReductionKind,
        s: RawStream,
    ) -> RtResult<CudaBuf> {
        let n = plan.team.len();
        let slots = gpu.new_buf(staging.dtype, &[n, len])?;
        let slot = |j: usize| flat(&slots, j * len, len);
        gpu.copy(&flat(staging, from, len)?, &slot(plan.me)?, s)?;
        for (j, peer) in plan.peers() {
            link.pull(gpu, plan.rank, peer, &slot(j)?, s, plan.timeout)?;
        }
        let out = gpu.new_buf(staging.dtype, &[len])?;
        match reduction {
            ReductionKind::Sum => gpu.sum(&slots, &[0], &out, s)?,
            other => {
                let kind = match other {
                    ReductionKind::Prod => ElementwiseKind::Mul,
                    ReductionKind::Min => ElementwiseKind::Min,
                    _ => ElementwiseKind::Max,
                };
                gpu.copy(&slot(0)?, &out, s)?;
                for j in 1..n {
                    gpu.elementwise(kind, &[out.clone(), slot(j)?], &out, s)?;
                }
            }
        }
        Ok(out)
    }
}

/// `Ok` when `ok`, else the error that `c`'s input does not fit its output by `rule`.
fn expect_fit(c: &CommOp<CudaBuf>, input: &CudaBuf, output: &CudaBuf, ok: bool, rule: &str) -> RtResult<()> {
    if ok {
        return Ok(());
    }
    Err(RtError::new(format!(
        "{}: input of {} elements does not fit output of {} ({rule})",
        c.name(),
        input.numel(),
        output.numel()
    )))
}

#[cfg(test)]
mod tests {
    use super::piece;

    #[test]
    fn pieces_cover_the_elements_once_in_order() {
        for total in [0, 1, 5, 8, 17, 64] {
            for n in 1..=8 {
                let mut next = 0;
                for j in 0..n {
                    let (start, len) = piece(total, n, j);
                    assert_eq!(start, next, "total {total} n {n} piece {j}");
                    next += len;
                }
                assert_eq!(next, total);
            }
        }
        assert_eq!(piece(5, 4, 3), (5, 0));
        assert_eq!(piece(5, 4, 2), (4, 1));
    }
}
