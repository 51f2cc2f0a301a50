//! The per-rank traces `comm-verify` reasons about: what one rank's host program posted, in
//! host program order, reduced to the events that matter for communication (comm posts, groups,
//! waits, stream waits, host synchronization, handle exchanges).
//!
//! Invariants: an [`Entry`]'s index in [`RankTrace::entries`] is its host posting order; a
//! request id ([`ReqId`]) is the index of the entry that completes it (a post, or the group that
//! holds the post); `StreamWait::position` and `Synchronize::position` count the entries posted
//! to that stream before the wait (so `0` is always satisfied).

use fuser_dialects::comm::{Backend, Protocol};
use fuser_dialects::reduction::ReductionKind;
use fuser_ir::attrs::Attr;
use fuser_ir::ir::OpId;
use fuser_ir::types::Type;

/// A stream of one rank: the initial (main) stream or worker stream `k` of `host.get_stream k`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum StreamId {
    Main,
    Worker(i64),
}

impl std::fmt::Display for StreamId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StreamId::Main => write!(f, "main"),
            StreamId::Worker(k) => write!(f, "worker {k}"),
        }
    }
}

/// The entry that completes a request (an index into the rank's entries).
pub type ReqId = usize;

/// Where an event comes from: the op, its location and the enclosing loop indices (outer to
/// inner) at the time it ran.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Site {
    pub op: OpId,
    pub loc: Attr,
    pub iters: Vec<i64>,
}

impl Site {
    /// ` at iteration 2`, ` at iterations (1, 0)`, or nothing outside loops.
    pub fn iter_suffix(&self) -> String {
        match self.iters.as_slice() {
            [] => String::new(),
            [i] => format!(" at iteration {i}"),
            many => {
                let list: Vec<String> = many.iter().map(i64::to_string).collect();
                format!(" at iterations ({})", list.join(", "))
            }
        }
    }
}

/// The kind of a communication post.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CommKind {
    Allgather,
    Allreduce,
    ReduceScatter,
    Broadcast,
    Reduce,
    Gather,
    Scatter,
    AllToAll,
    CollectivePermute,
    Send,
    Recv,
}

impl CommKind {
    pub const ALL: [CommKind; 11] = [
        CommKind::Allgather,
        CommKind::Allreduce,
        CommKind::ReduceScatter,
        CommKind::Broadcast,
        CommKind::Reduce,
        CommKind::Gather,
        CommKind::Scatter,
        CommKind::AllToAll,
        CommKind::CollectivePermute,
        CommKind::Send,
        CommKind::Recv,
    ];

    /// The op name (`comm.allgather`).
    pub fn op_name(self) -> &'static str {
        match self {
            CommKind::Allgather => "comm.allgather",
            CommKind::Allreduce => "comm.allreduce",
            CommKind::ReduceScatter => "comm.reduce_scatter",
            CommKind::Broadcast => "comm.broadcast",
            CommKind::Reduce => "comm.reduce",
            CommKind::Gather => "comm.gather",
            CommKind::Scatter => "comm.scatter",
            CommKind::AllToAll => "comm.all_to_all",
            CommKind::CollectivePermute => "comm.collective_permute",
            CommKind::Send => "comm.send",
            CommKind::Recv => "comm.recv",
        }
    }
    pub fn from_op_name(name: &str) -> Option<CommKind> {
        Self::ALL.into_iter().find(|k| k.op_name() == name)
    }
    pub fn is_p2p(self) -> bool {
        matches!(self, CommKind::Send | CommKind::Recv)
    }
}

/// The static description of a buffer a communication reads or writes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BufInfo {
    /// Number of elements (`None` when an extent is dynamic).
    pub count: Option<i64>,
    pub elem: Type,
}

/// Which part of a buffer a communication touches, as far as the ranks can differ: the values
/// of the index operands of the view ops between the buffer and its root allocation or
/// argument (innermost view last). Two ranks running the same op with equal keys name the
/// same region; `None` when an index is not computable.
pub type ViewKey = Vec<i64>;

/// One communication post, with everything evaluated for the executing rank.
#[derive(Clone, PartialEq, Debug)]
pub struct CommPost {
    pub kind: CommKind,
    /// Absolute ranks of a collective, in team order (empty for send/recv).
    pub team: Vec<i64>,
    pub reduction: Option<ReductionKind>,
    /// Team-relative root of broadcast/reduce/gather/scatter.
    pub root: Option<i64>,
    /// Absolute peer of send/recv.
    pub peer: Option<i64>,
    /// `send_to` / `recv_from` of a collective permute.
    pub send_to: Option<i64>,
    pub recv_from: Option<i64>,
    pub backend: Backend,
    /// The effective CUDA IPC protocol (`None` with NCCL).
    pub protocol: Option<Protocol>,
    /// The buffer read (send: the buffer), if any.
    pub input: Option<BufInfo>,
    /// The buffer written (recv: the buffer), if any.
    pub output: Option<BufInfo>,
    /// The view key of the input and of the output (see [`ViewKey`]).
    pub input_view: Option<ViewKey>,
    pub output_view: Option<ViewKey>,
    pub site: Site,
}

impl CommPost {
    /// The buffer a send/recv moves.
    pub fn p2p_buffer(&self) -> Option<BufInfo> {
        if self.kind == CommKind::Send { self.input } else { self.output }
    }
}

/// How a post blocks its stream in the deadlock model.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Blocking {
    /// Passes once every counterpart has been reached (collectives, NCCL send/recv, groups).
    Rendezvous,
    /// Passes at once; completes once the counterpart has passed (CUDA IPC get-send, put-recv).
    Signal,
    /// Passes once the counterpart has been reached (CUDA IPC get-recv, put-send).
    AwaitPosted,
}

impl CommPost {
    pub fn blocking(&self) -> Blocking {
        match (self.kind, self.backend, self.protocol) {
            (CommKind::Send, Backend::CudaIpc, Some(Protocol::Put)) => Blocking::AwaitPosted,
            (CommKind::Send, Backend::CudaIpc, _) => Blocking::Signal,
            (CommKind::Recv, Backend::CudaIpc, Some(Protocol::Put)) => Blocking::Signal,
            (CommKind::Recv, Backend::CudaIpc, _) => Blocking::AwaitPosted,
            _ => Blocking::Rendezvous,
        }
    }
}

/// One handle exchange of `comm.share_handles`: the peers named by its sends and receives.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct HandleExchange {
    pub peers: Vec<i64>,
}

/// What one trace entry does.
#[derive(Clone, PartialEq, Debug)]
pub enum Event {
    /// A communication posted on its own.
    Post(Box<CommPost>),
    /// A `comm.group`: its posts, issued together.
    Group(Vec<CommPost>),
    /// `comm.wait`: the stream waits until these requests completed.
    Wait(Vec<ReqId>),
    /// `host.stream_wait`: the stream waits until `other` passed `position` entries.
    StreamWait { other: StreamId, position: usize },
    /// `host.synchronize` (host-side): later posts wait until `stream` passed `position` entries.
    Synchronize { stream: StreamId, position: usize },
    /// `comm.share_handles` (host-side, blocking): a rendezvous with each named peer.
    ShareHandles(HandleExchange),
}

/// One event of a rank with the stream it is posted on (`None`: a host-side event).
#[derive(Clone, PartialEq, Debug)]
pub struct Entry {
    pub stream: Option<StreamId>,
    pub event: Event,
    pub site: Site,
}

impl Entry {
    /// The posts of this entry (one for a post, the members of a group).
    pub fn posts(&self) -> &[CommPost] {
        match &self.event {
            Event::Post(p) => std::slice::from_ref(&**p),
            Event::Group(ps) => ps,
            _ => &[],
        }
    }
    /// A short description (`comm.send to rank 1`) for messages.
    pub fn describe(&self) -> String {
        match &self.event {
            Event::Post(p) => describe_post(p),
            Event::Group(ps) => {
                let inner: Vec<String> = ps.iter().map(describe_post).collect();
                format!("comm.group [{}]", inner.join(", "))
            }
            Event::Wait(_) => "comm.wait".into(),
            Event::StreamWait { other, .. } => format!("host.stream_wait on stream {other}"),
            Event::Synchronize { stream, .. } => format!("host.synchronize of stream {stream}"),
            Event::ShareHandles(_) => "comm.share_handles".into(),
        }
    }
}

/// `comm.send to rank 1`, `comm.allreduce`.
pub fn describe_post(p: &CommPost) -> String {
    match (p.kind, p.peer) {
        (CommKind::Send, Some(q)) => format!("comm.send to rank {q}"),
        (CommKind::Recv, Some(q)) => format!("comm.recv from rank {q}"),
        (k, _) => k.op_name().to_string(),
    }
}

/// Everything one rank posted, in host order.
#[derive(Clone, Default, PartialEq, Debug)]
pub struct RankTrace {
    pub entries: Vec<Entry>,
}

/// `ranks 0, 1, 3` / `rank 2`.
pub fn ranks_str(ranks: &[i64]) -> String {
    let list: Vec<String> = ranks.iter().map(i64::to_string).collect();
    format!("{} {}", if ranks.len() == 1 { "rank" } else { "ranks" }, list.join(", "))
}
