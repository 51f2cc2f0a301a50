//! CUDA IPC point-to-point transfers between the GPUs of this process: copy-engine copies
//! through unified addressing with peer access, ordered by events and by 32-bit flags that
//! streams write and wait on (`cuStreamWriteValue32` / `cuStreamWaitValue32`), so no host
//! thread ever waits for a GPU.
//!
//! Roles: with `get` the receiver copies (pulls) and the sender only signals; with `put` the
//! sender copies (pushes) and the receiver only signals. Messages of a (source, destination)
//! pair signalled by one side match in FIFO order.
//! - The signalling side records a *ready* event on its stream (its data, or its free buffer,
//!   is ready from there on), queues its view with the event and a flag slot + value, and gets
//!   a request that completes when the flag reaches the value (a `comm.wait` on it makes the
//!   stream wait for the copy to finish).
//! - The copying side's host takes the counterpart from the queue (waiting for its post, with
//!   the watchdog's deadline: a copier posted before its counterpart on every rank is a
//!   deadlock, reported as such), makes its stream wait for the ready event, copies, and
//!   writes the flag from its stream.
//!
//! Flags live in the signalling GPU's memory (one slot per peer and direction); values grow
//! by one per message of the slot and are never reset, so runs can repeat.
//!
//! `comm.share_handles` registers which pairs may talk; a transfer over an unregistered pair is
//! an error, as it would be on a real CUDA IPC setup. Two ranks of this process on one GPU
//! (`--devices 0,0`) cannot transfer: the flag wait and its release would be streams of one
//! context (see `check_peer`); as processes they can ([`super::ipc_procs`]).

use super::api::{self, Event, RawStream};
use super::gpu::Gpu;
use super::memory::CudaBuf;
use crate::error::{RtError, RtResult};
use crate::watchdog::lock;
use fuser_dialects::comm::attrs::Protocol;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Which side of a transfer a rank is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Send,
    Recv,
}

impl Side {
    pub(super) fn op(self) -> &'static str {
        match self {
            Side::Send => "comm.send",
            Side::Recv => "comm.recv",
        }
    }
}

/// Whether `side` copies under `protocol` (else it signals).
pub fn copies(side: Side, protocol: Protocol) -> bool {
    matches!((side, protocol), (Side::Recv, Protocol::Get) | (Side::Send, Protocol::Put))
}

/// A flag that a stream may wait on: the word at `addr` reaching `value` (being equal to it
/// when `exact`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag {
    pub addr: u64,
    pub value: u32,
    pub exact: bool,
}

impl Flag {
    /// Makes `stream` wait for the flag.
    pub fn wait_on(&self, stream: RawStream) -> RtResult<()> {
        if self.exact {
            api::wait_value_eq(stream, self.addr, self.value)
        } else {
            api::wait_value(stream, self.addr, self.value)
        }
    }
}

struct Posted {
    rank: usize,
    view: CudaBuf,
    ready: Arc<Event>,
    flag: Flag,
    protocol: Protocol,
}

#[derive(Default)]
struct State {
    /// Signalled posts per (source, destination, signalling rank): the signaller is the source
    /// with `get`, the destination with `put`. Keyed by signaller too, so that a pair carrying
    /// both (a `put` ring beside copy-engine collectives, which are `get`s) never hands a
    /// copier a post of its own side.
    queues: HashMap<(usize, usize, usize), VecDeque<Posted>>,
    /// The last flag value per (signalling rank, slot).
    values: HashMap<(usize, usize), u32>,
    /// (source, destination) pairs whose source shared its buffer / whose destination mapped
    /// the source's.
    shared_by_source: HashSet<(usize, usize)>,
    mapped_by_destination: HashSet<(usize, usize)>,
    aborted: Option<String>,
}

/// The IPC state of the process.
pub struct IpcHub {
    world: usize,
    /// Per rank: the base address of its flag slots (2 × world words).
    flags: Vec<CudaBuf>,
    state: Mutex<State>,
    posted: Condvar,
}

impl IpcHub {
    /// `flags[r]`: a zeroed buffer of at least 2 × world 32-bit words on rank r's GPU.
    pub fn new(flags: Vec<CudaBuf>) -> IpcHub {
        IpcHub { world: flags.len(), flags, state: Mutex::new(State::default()), posted: Condvar::new() }
    }

    fn slot(&self, peer: usize, side: Side) -> usize {
        2 * peer + usize::from(side == Side::Send)
    }

    /// Registers the pairs of a `comm.share_handles` of `rank`.
    pub fn share(&self, rank: usize, sends_to: &[usize], recvs_from: &[usize]) -> RtResult<()> {
        let mut s = lock(&self.state);
        for &p in sends_to.iter().chain(recvs_from) {
            if p == rank || p >= self.world {
                return Err(RtError::new(format!("cuda_ipc: invalid peer {p} for rank {rank}")));
            }
        }
        s.shared_by_source.extend(sends_to.iter().map(|&p| (rank, p)));
        s.mapped_by_destination.extend(recvs_from.iter().map(|&p| (p, rank)));
        Ok(())
    }

    /// The signalling side: returns the flag its `comm.wait` waits for.
    pub fn signal(
        &self,
        rank: usize,
        peer: usize,
        side: Side,
        protocol: Protocol,
        view: &CudaBuf,
        stream: RawStream,
    ) -> RtResult<Flag> {
        self.check_peer(rank, peer)?;
        let ready = Event::record_on(stream)?;
        let slot = self.slot(peer, side);
        let mut s = lock(&self.state);
        let value = s.values.entry((rank, slot)).or_insert(0);
        *value += 1;
        let flag = Flag { addr: self.flags[rank].addr() + 4 * slot as u64, value: *value, exact: false };
        let pair = if side == Side::Send { (rank, peer) } else { (peer, rank) };
        s.queues.entry((pair.0, pair.1, rank)).or_default().push_back(Posted {
            rank,
            view: view.clone(),
            ready,
            flag,
            protocol,
        });
        drop(s);
        self.posted.notify_all();
        Ok(flag)
    }

    /// The copying side: waits (host) for the counterpart's post, then enqueues the copy and
    /// the flag write on `stream` of `gpu`.
    #[allow(clippy::too_many_arguments)]
    pub fn copy(
        &self,
        gpu: &Gpu,
        rank: usize,
        peer: usize,
        side: Side,
        protocol: Protocol,
        view: &CudaBuf,
        stream: RawStream,
        timeout: Duration,
    ) -> RtResult<()> {
        self.check_peer(rank, peer)?;
        let pair = if side == Side::Send { (rank, peer) } else { (peer, rank) };
        let other = self.take_counterpart(pair, rank, peer, side, protocol, timeout)?;
        {
            let s = lock(&self.state);
            if !(s.shared_by_source.contains(&pair) && s.mapped_by_destination.contains(&pair)) {
                return Err(RtError::new(format!(
                    "cuda_ipc: ranks {} and {} transfer without a comm.share_handles of that pair",
                    pair.0, pair.1
                )));
            }
        }
        if other.protocol != protocol {
            return Err(RtError::new(format!(
                "cuda_ipc: rank {rank} uses protocol {protocol:?}, its peer {peer} {:?}",
                other.protocol
            )));
        }
        other.ready.wait_on(stream)?;
        let (src, dst) = if side == Side::Send { (view, &other.view) } else { (&other.view, view) };
        copy_matching(gpu, rank, peer, src, dst, stream)?;
        api::write_value(stream, other.flag.addr, other.flag.value)
    }

    fn take_counterpart(
        &self,
        pair: (usize, usize),
        rank: usize,
        peer: usize,
        side: Side,
        protocol: Protocol,
        timeout: Duration,
    ) -> RtResult<Posted> {
        let deadline = Instant::now() + timeout;
        let mut s = lock(&self.state);
        loop {
            if let Some(reason) = &s.aborted {
                return Err(RtError::new(format!("aborted: {reason}")));
            }
            if let Some(p) = s.queues.get_mut(&(pair.0, pair.1, peer)).and_then(VecDeque::pop_front) {
                debug_assert_eq!(p.rank, peer);
                return Ok(p);
            }
            let now = Instant::now();
            if now >= deadline {
                let theirs = if side == Side::Send { Side::Recv } else { Side::Send };
                return Err(RtError::new(format!(
                    "deadlock: rank {rank} waits in {} (cuda_ipc {protocol:?}) for rank {peer} to post its {} ({} s)",
                    side.op(),
                    theirs.op(),
                    timeout.as_secs_f64()
                )));
            }
            s = self.posted.wait_timeout(s, deadline - now).map(|(g, _)| g).unwrap_or_else(|p| p.into_inner().0);
        }
    }

    fn check_peer(&self, rank: usize, peer: usize) -> RtResult<()> {
        if peer == rank || peer >= self.world {
            return Err(RtError::new(format!("cuda_ipc: rank {rank} cannot transfer with peer {peer}")));
        }
        let (a, b) = (self.flags[rank].device(), self.flags[peer].device());
        if a == b {
            // The signaller's flag wait and the copier's release would be streams of one
            // context, which may share a hardware queue: the release could wait behind the
            // wait (the hazard of docs/dev/runtime.md). Processes have contexts of their own.
            return Err(RtError::new(format!(
                "cuda_ipc: ranks {rank} and {peer} of this process share GPU {a}: run the ranks as processes \
                 (--launch) to transfer between ranks of one GPU"
            )));
        }
        Ok(())
    }

    /// Wakes every waiting copier with an error.
    pub fn abort(&self, reason: String) {
        lock(&self.state).aborted.get_or_insert(reason);
        self.posted.notify_all();
    }

    /// Clears an abort (a new run).
    pub fn reset(&self) {
        lock(&self.state).aborted = None;
    }
}

/// Copies `src` to `dst` on `stream` of `gpu` once both sides agreed on the element count and
/// type (`rank` copies, `peer` is the other side): the same shape, or dense views of the
/// same element count (the source is then seen in the target's shape).
pub(super) fn copy_matching(
    gpu: &Gpu,
    rank: usize,
    peer: usize,
    src: &CudaBuf,
    dst: &CudaBuf,
    stream: RawStream,
) -> RtResult<()> {
    if src.numel() != dst.numel() || src.dtype != dst.dtype {
        return Err(RtError::new(format!(
            "cuda_ipc: rank {rank} and its peer {peer} move different data: {} × {} to {} × {}",
            src.numel(),
            src.dtype.name(),
            dst.numel(),
            dst.dtype.name()
        )));
    }
    let src = if src.shape == dst.shape {
        src.clone()
    } else if src.is_contiguous() {
        CudaBuf { shape: dst.shape.clone(), strides: crate::buffer::contiguous_strides(&dst.shape), ..src.clone() }
    } else {
        return Err(RtError::new(format!("cuda_ipc: shapes {:?} and {:?} differ", src.shape, dst.shape)));
    };
    gpu.copy(&src, dst, stream)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles() {
        assert!(copies(Side::Recv, Protocol::Get));
        assert!(!copies(Side::Send, Protocol::Get));
        assert!(copies(Side::Send, Protocol::Put));
        assert!(!copies(Side::Recv, Protocol::Put));
    }
}
