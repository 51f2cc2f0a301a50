//! The interface between the executor and a backend: [`Backend`] (allocation, views, streams,
//! compute and communication of the ranks it hosts) and the plain enums [`Kernel`] and
//! [`CommOp`] that mirror the host and comm ops with resolved operands.
//!
//! Contract: the executor calls a backend from one thread per rank (the rank's host thread);
//! every method names the rank it acts for. `compute`, `post`, `wait` and `dealloc` enqueue
//! work on a stream and return at once; `stream_wait` orders streams; `synchronize` and
//! `finish` make the host wait. An error of enqueued work surfaces at the next `synchronize`
//! or `finish` of its stream. Errors are returned, never panicked, and carry the op key of the
//! operation that failed where known.

use crate::dtype::DType;
use crate::error::{OpKey, RtError, RtResult};
use crate::fused::FusedGraph;
use crate::ops::{OpImpl, Params};
use fuser_dialects::comm::attrs::{Backend as Transport, Protocol};
use fuser_dialects::host::{ElementwiseKind, LinearEpilogue, ReduceKind};
use fuser_dialects::reduction::ReductionKind;
use std::sync::Arc;

/// Counters of one rank.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RankStats {
    /// Compute and communication ops executed.
    pub ops: u64,
    /// Bytes this rank sent to others (collective inputs and p2p sends).
    pub bytes_moved: u64,
}

/// A compute operation on buffers of type `B`.
#[derive(Clone, Debug)]
pub enum Kernel<B> {
    Copy {
        source: B,
        target: B,
    },
    Matmul {
        a: B,
        b: B,
        c: B,
        accumulate: bool,
    },
    /// `y (+)= epilogue(x·wᵀ (+ bias) (+ residual))`: `residual` (never `y`) excludes
    /// `accumulate` and `epilogue` (the verifier of `host.linear` guarantees it).
    Linear {
        x: B,
        w: B,
        bias: Option<B>,
        residual: Option<B>,
        y: B,
        accumulate: bool,
        epilogue: Option<LinearEpilogue>,
    },
    Elementwise {
        kind: ElementwiseKind,
        inputs: Vec<B>,
        output: B,
    },
    Sum {
        input: B,
        output: B,
        dims: Vec<usize>,
    },
    /// `host.reduce`: max, min, mean (sum / count) or var over `dims`.
    Reduce {
        kind: ReduceKind,
        input: B,
        output: B,
        dims: Vec<usize>,
    },
    /// `host.fill`: every element of `target` set to `value`.
    Fill {
        target: B,
        value: fuser_dialects::Scalar,
    },
    /// `host.kernel` (docs/dev/ops.md): `origin` is the global coordinates of the first element
    /// of the local piece the kernel's origin refers to, `global_shape` that value's shape.
    Named {
        kernel: &'static OpImpl,
        params: Arc<Params>,
        inputs: Vec<B>,
        outputs: Vec<B>,
        origin: Vec<usize>,
        global_shape: Arc<[usize]>,
    },
    /// `host.fused` (docs/dev/fusion.md): one fused region; `origin` as for `Named` (the
    /// global coordinates of the region's first local element, for dropout).
    Fused {
        graph: Arc<FusedGraph>,
        inputs: Vec<B>,
        outputs: Vec<B>,
        origin: Vec<usize>,
    },
}

impl<B> Kernel<B> {
    /// The op name, for traces and reports.
    pub fn name(&self) -> &'static str {
        match self {
            Kernel::Copy { .. } => "host.copy",
            Kernel::Matmul { .. } => "host.matmul",
            Kernel::Linear { .. } => "host.linear",
            Kernel::Elementwise { .. } => "host.elementwise",
            Kernel::Sum { .. } => "host.sum",
            Kernel::Reduce { .. } => "host.reduce",
            Kernel::Fill { .. } => "host.fill",
            Kernel::Named { .. } => "host.kernel",
            Kernel::Fused { .. } => "host.fused",
        }
    }
}

/// A communication on buffers of type `B`. Teams are absolute ranks in team order; roots are
/// team-relative; peers are absolute.
#[derive(Clone, Debug)]
pub enum CommOp<B> {
    /// `transport` of every collective: NCCL or the copy engines over CUDA IPC
    /// (`backend = cuda_ipc`, docs/dev/copy-engine.md); the same semantics either way.
    AllGather {
        input: B,
        output: B,
        team: Vec<usize>,
        transport: Transport,
    },
    AllReduce {
        input: B,
        output: B,
        team: Vec<usize>,
        reduction: ReductionKind,
        transport: Transport,
    },
    ReduceScatter {
        input: B,
        output: B,
        team: Vec<usize>,
        reduction: ReductionKind,
        transport: Transport,
    },
    Broadcast {
        input: B,
        output: B,
        team: Vec<usize>,
        root: usize,
        transport: Transport,
    },
    Reduce {
        input: B,
        output: B,
        team: Vec<usize>,
        root: usize,
        reduction: ReductionKind,
        transport: Transport,
    },
    Gather {
        input: B,
        output: B,
        team: Vec<usize>,
        root: usize,
        transport: Transport,
    },
    Scatter {
        input: B,
        output: B,
        team: Vec<usize>,
        root: usize,
        transport: Transport,
    },
    AllToAll {
        input: B,
        output: B,
        team: Vec<usize>,
        transport: Transport,
    },
    CollectivePermute {
        input: B,
        output: B,
        team: Vec<usize>,
        send_to: usize,
        recv_from: usize,
        transport: Transport,
    },
    /// `transport`/`protocol`: the library that moves the bytes and, for CUDA IPC, who copies
    /// (they decide whether the post blocks its stream).
    Send {
        buffer: B,
        peer: usize,
        transport: Transport,
        protocol: Protocol,
    },
    Recv {
        buffer: B,
        peer: usize,
        transport: Transport,
        protocol: Protocol,
    },
    /// Several posts issued together (`comm.group`); one request for all.
    Group(Vec<CommOp<B>>),
    /// CUDA IPC handle exchange (`comm.share_handles`): (buffer, absolute peer) pairs; blocks
    /// the posting stream until every peer exchanged its side.
    ShareHandles {
        sends: Vec<(B, usize)>,
        recvs: Vec<(B, usize)>,
    },
}

impl<B> CommOp<B> {
    /// The op name, for traces and reports.
    pub fn name(&self) -> &'static str {
        match self {
            CommOp::AllGather { .. } => "comm.allgather",
            CommOp::AllReduce { .. } => "comm.allreduce",
            CommOp::ReduceScatter { .. } => "comm.reduce_scatter",
            CommOp::Broadcast { .. } => "comm.broadcast",
            CommOp::Reduce { .. } => "comm.reduce",
            CommOp::Gather { .. } => "comm.gather",
            CommOp::Scatter { .. } => "comm.scatter",
            CommOp::AllToAll { .. } => "comm.all_to_all",
            CommOp::CollectivePermute { .. } => "comm.collective_permute",
            CommOp::Send { .. } => "comm.send",
            CommOp::Recv { .. } => "comm.recv",
            CommOp::Group(_) => "comm.group",
            CommOp::ShareHandles { .. } => "comm.share_handles",
        }
    }

    /// The transport of a collective or a send/recv (`None` for a group or a handle exchange).
    pub fn transport(&self) -> Option<Transport> {
        match self {
            CommOp::AllGather { transport, .. }
            | CommOp::AllReduce { transport, .. }
            | CommOp::ReduceScatter { transport, .. }
            | CommOp::Broadcast { transport, .. }
            | CommOp::Reduce { transport, .. }
            | CommOp::Gather { transport, .. }
            | CommOp::Scatter { transport, .. }
            | CommOp::AllToAll { transport, .. }
            | CommOp::CollectivePermute { transport, .. }
            | CommOp::Send { transport, .. }
            | CommOp::Recv { transport, .. } => Some(*transport),
            CommOp::Group(_) | CommOp::ShareHandles { .. } => None,
        }
    }
}

impl<B> CommOp<B> {
    /// Bytes `rank` sends in this op (for the run summary), `bytes` giving a buffer's size:
    /// a broadcast's root sends its input to every other member, a scatter's root its input,
    /// every member of another collective its input, a send its buffer.
    pub fn bytes_sent(&self, rank: usize, bytes: &impl Fn(&B) -> u64) -> u64 {
        let is_root = |team: &[usize], root: usize| team.get(root) == Some(&rank);
        match self {
            CommOp::Broadcast { input, team, root, .. } if is_root(team, *root) => {
                bytes(input) * (team.len() as u64).saturating_sub(1)
            }
            CommOp::Scatter { input, team, root, .. } if is_root(team, *root) => bytes(input),
            CommOp::Broadcast { .. } | CommOp::Scatter { .. } => 0,
            CommOp::AllGather { input, .. }
            | CommOp::AllReduce { input, .. }
            | CommOp::ReduceScatter { input, .. }
            | CommOp::Reduce { input, .. }
            | CommOp::Gather { input, .. }
            | CommOp::AllToAll { input, .. }
            | CommOp::CollectivePermute { input, .. } => bytes(input),
            CommOp::Send { buffer, .. } => bytes(buffer),
            CommOp::Recv { .. } | CommOp::ShareHandles { .. } => 0,
            CommOp::Group(ops) => ops.iter().map(|o| o.bytes_sent(rank, bytes)).sum(),
        }
    }
}

/// What a backend provides to the executor.
pub trait Backend: Send + Sync {
    /// A buffer or a view of one.
    type Buf: Clone + Send;
    type Stream: Clone + Send;
    type Request: Clone + Send;

    /// The number of ranks.
    fn world_size(&self) -> usize;
    /// A new buffer of `shape` on `rank`.
    fn alloc(&self, rank: usize, dtype: DType, shape: &[usize], persistent: bool, at: &OpKey) -> RtResult<Self::Buf>;
    /// Frees `buf` once `stream` reaches this point (work posted before may still use it).
    fn dealloc(&self, rank: usize, stream: &Self::Stream, buf: &Self::Buf, at: &OpKey) -> RtResult<()>;
    /// The extents of a buffer or view.
    fn shape(&self, buf: &Self::Buf) -> Vec<usize>;
    /// A window of `buf`: per dimension an offset, an extent and a step (in elements of `buf`).
    fn subview(&self, buf: &Self::Buf, offsets: &[usize], sizes: &[usize], steps: &[usize]) -> RtResult<Self::Buf>;
    /// `buf` at `index` along `axis`, that axis dropped.
    fn select(&self, buf: &Self::Buf, axis: usize, index: usize) -> RtResult<Self::Buf>;
    /// The strides (in elements) of a buffer or view.
    fn strides(&self, buf: &Self::Buf) -> Vec<usize>;
    /// The same first element seen with another shape and strides (layout views).
    fn restride(&self, buf: &Self::Buf, shape: &[usize], strides: &[usize]) -> RtResult<Self::Buf>;
    /// The stream a rank starts on.
    fn main_stream(&self, rank: usize) -> RtResult<Self::Stream>;
    /// Worker stream `index` of a rank (the same stream for the same index).
    fn worker_stream(&self, rank: usize, index: usize) -> RtResult<Self::Stream>;
    /// Work posted later on `current` waits for the work posted so far on `other`.
    fn stream_wait(&self, rank: usize, current: &Self::Stream, other: &Self::Stream, at: &OpKey) -> RtResult<()>;
    /// The host waits for the work posted so far on `stream`.
    fn synchronize(&self, rank: usize, stream: &Self::Stream, at: &OpKey) -> RtResult<()>;
    fn compute(&self, rank: usize, stream: &Self::Stream, k: Kernel<Self::Buf>, at: &OpKey) -> RtResult<()>;
    fn post(&self, rank: usize, stream: &Self::Stream, c: CommOp<Self::Buf>, at: &OpKey) -> RtResult<Self::Request>;
    /// Work posted later on `stream` waits for the requests.
    fn wait(&self, rank: usize, stream: &Self::Stream, reqs: &[Self::Request], at: &OpKey) -> RtResult<()>;
    /// `func.return` hands `bufs` to the caller on `stream` (for the race checker: a read of
    /// each by that stream).
    fn returned(&self, _rank: usize, _stream: &Self::Stream, _bufs: &[Self::Buf], _at: &OpKey) -> RtResult<()> {
        Ok(())
    }
    /// The end of a run of the program on `rank`: the host waits for every stream of the rank
    /// (results may then be read).
    fn finish(&self, _rank: usize) -> RtResult<()> {
        Ok(())
    }
    /// Stores values (row-major) into a buffer, from the host.
    fn write(&self, buf: &Self::Buf, values: &[f64]) -> RtResult<()>;
    /// Reads a buffer's values (row-major), on the host.
    fn read(&self, buf: &Self::Buf) -> RtResult<Vec<f64>>;
    /// A rank failed: wake every rank blocked on it so that they fail too instead of hanging.
    fn abort(&self, rank: usize, error: &RtError);
    /// The counters of `rank` so far.
    fn rank_stats(&self, _rank: usize) -> RankStats {
        RankStats::default()
    }
    /// Starts recording the rank's next iteration into a graph (see [`super::capture`]): the
    /// work enqueued from now on is captured, not executed, until [`Backend::finish`], which
    /// then ends the capture instead of waiting. Backends without graphs refuse.
    fn capture_begin(&self, _rank: usize) -> RtResult<()> {
        Err(RtError::new("this backend cannot capture graphs (--cuda-graph needs --backend cuda)"))
    }
    /// Launches the rank's captured graph once and waits for it, as `finish` waits for an
    /// iteration (the rank's op counters grow by the captured iteration's).
    fn replay(&self, _rank: usize) -> RtResult<()> {
        Err(RtError::new("this backend has no captured graph"))
    }
    /// The trace events recorded so far (backends that trace).
    fn trace_events(&self) -> Vec<crate::trace::TraceEvent> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_sent_counts_what_leaves_the_rank() {
        let size = |b: &u64| *b;
        let bcast =
            CommOp::Broadcast { input: 10u64, output: 10, team: vec![0, 1, 2], root: 1, transport: Transport::Nccl };
        assert_eq!((bcast.bytes_sent(1, &size), bcast.bytes_sent(0, &size)), (20, 0));
        let scatter =
            CommOp::Scatter { input: 9u64, output: 3, team: vec![0, 1, 2], root: 0, transport: Transport::Nccl };
        assert_eq!((scatter.bytes_sent(0, &size), scatter.bytes_sent(2, &size)), (9, 0));
        let send = CommOp::Send { buffer: 4u64, peer: 1, transport: Transport::Nccl, protocol: Protocol::Get };
        let recv = CommOp::Recv { buffer: 4u64, peer: 1, transport: Transport::Nccl, protocol: Protocol::Get };
        assert_eq!(CommOp::Group(vec![send, recv]).bytes_sent(0, &size), 4);
        let ag = CommOp::AllGather { input: 5u64, output: 15, team: vec![0, 1, 2], transport: Transport::Nccl };
        assert_eq!(ag.bytes_sent(2, &size), 5);
    }
}
