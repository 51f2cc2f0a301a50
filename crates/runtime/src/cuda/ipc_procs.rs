//! CUDA IPC transfers between processes (one rank per process, `fuser-run --launch` or an
//! outside launcher; the ranks may share a GPU): the protocol of [`super::ipc`] with every
//! piece a process cannot share replaced by something it can.
//!
//! - **Memory.** `comm.share_handles` exports the block of every buffer it names
//!   (`cuIpcGetMemHandle`; the block is then never reused, see [`super::memory`]) and sets its
//!   handle once in the run's store at `ipc/mem/{rank}/{block address}`. The copying side opens
//!   a peer's block the first time a message names it (`cuIpcOpenMemHandle`) and closes every
//!   opened block when the backend goes.
//! - **Flags.** Every rank has one exported block of `4 × world × SLOTS` 32-bit words (its
//!   handle at `ipc/flags/{rank}`, set at its first `comm.share_handles`). Message n of the
//!   pair of X and `other` whose source is X when `outgoing` is 1 uses word
//!   `(4 × other + 2 × kind + outgoing) × SLOTS + n mod SLOTS` of rank X; kind 0 = *ready* (the signalling side's data, or free buffer, is ready: written by
//!   the signaller, waited by the copier), kind 1 = *done* (the copy finished: written by the
//!   copier, waited by the signaller's `comm.wait`). A rank waits only on its own words and
//!   writes only the peer's, from its streams, in stream order (`cuStreamWriteValue32` /
//!   `cuStreamWaitValue32`): no host waits for a GPU, and a wait is always released by the
//!   other process's stream (never by a stream of its own context, the hazard of
//!   docs/dev/runtime.md).
//! - **Messages.** Both sides number the messages of a (source, destination) pair 1, 2, ...
//!   in program order (FIFO matching, as in one process); message n's flag value is n, and
//!   waits are for *equality*: messages of a pair may be signalled from different streams, so
//!   their writes may land out of order, but each word gets each value once, so a wait is
//!   never released by another message's write (a write that lands SLOTS messages late makes
//!   a wait miss its value: a deadlock report, never an early release). The
//!   signaller sets `ipc/msg/{source}/{destination}/{n}` in the store: its view (block address
//!   and size, offset, shape, strides, element type) and its protocol. The copier's host
//!   waits for that key (at most `--timeout`: then a deadlock report naming both ranks), checks
//!   it against its own side, makes its stream wait for the ready word, copies, and writes the
//!   peer's done word.
//!
//! `comm.share_handles` registers this rank's side of each pair; a transfer over a pair that
//! this rank did not register is an error, and so is a signalling view whose block was not
//! shared.

use super::api::{self, RawStream};
use super::gpu::Gpu;
use super::ipc::{Flag, Side, copy_matching};
use super::memory::{CudaBuf, DevMem};
use crate::dtype::DType;
use crate::error::{RtError, RtResult};
use crate::store::Store;
use crate::watchdog::lock;
use cudarc::driver::sys;
use fuser_dialects::comm::attrs::Protocol;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the signalling side tells the copier about one message.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    pub block: u64,
    pub block_size: usize,
    pub dtype: DType,
    pub offset: usize,
    pub shape: Vec<usize>,
    pub strides: Vec<usize>,
    pub put: bool,
}

impl Message {
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let mut put = |v: u64| out.extend_from_slice(&v.to_le_bytes());
        put(self.block);
        put(self.block_size as u64);
        put(DType::ALL.iter().position(|&d| d == self.dtype).unwrap_or(usize::MAX) as u64);
        put(self.offset as u64);
        put(u64::from(self.put));
        put(self.shape.len() as u64);
        self.shape.iter().chain(&self.strides).for_each(|&v| put(v as u64));
        out
    }

    pub fn decode(b: &[u8]) -> RtResult<Message> {
        let bad = || RtError::new("cuda_ipc: a malformed message came through the store");
        if !b.len().is_multiple_of(8) || b.len() < 48 {
            return Err(bad());
        }
        let words: Vec<u64> = b.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes"))).collect();
        let rank = words[5] as usize;
        if words.len() != 6 + 2 * rank {
            return Err(bad());
        }
        let dtype = *DType::ALL.get(words[2] as usize).ok_or_else(bad)?;
        let dims = |from: usize| words[from..from + rank].iter().map(|&v| v as usize).collect();
        Ok(Message {
            block: words[0],
            block_size: words[1] as usize,
            dtype,
            offset: words[3] as usize,
            put: words[4] != 0,
            shape: dims(6),
            strides: dims(6 + rank),
        })
    }
}

/// Flag words per (pair, kind): messages in flight at once on one pair before a late write
/// could be missed.
pub const SLOTS: usize = 256;

/// The word of rank X's flag block for message `n` of (`other`, `kind`, `outgoing`), see the
/// module docs.
pub fn slot(other: usize, done: bool, outgoing: bool, n: u32) -> u64 {
    ((4 * other + 2 * usize::from(done) + usize::from(outgoing)) * SLOTS + n as usize % SLOTS) as u64
}

#[derive(Default)]
struct State {
    /// Whether this rank's flag handle is in the store.
    flags_published: bool,
    /// Blocks of this rank whose handle is in the store.
    exported: HashSet<u64>,
    /// Opened memory of other ranks: (owner, owner's block address) → address here.
    opened: HashMap<(usize, u64), u64>,
    /// Messages so far per (source, destination).
    sequence: HashMap<(usize, usize), u32>,
    /// Peers this rank registered to send to / receive from.
    sends_to: HashSet<usize>,
    recvs_from: HashSet<usize>,
    aborted: Option<String>,
}

/// The CUDA IPC state of a process's rank.
pub struct ProcIpc {
    rank: usize,
    world: usize,
    store: Arc<Store>,
    /// The GPU's context (to close the opened blocks).
    ctx: api::Ctx,
    /// This rank's flag words (an exported block).
    flags: CudaBuf,
    state: Mutex<State>,
}

impl ProcIpc {
    /// The state of `rank` of `world` on `gpu` (its context current): a zeroed flag block.
    pub fn new(rank: usize, world: usize, gpu: &Gpu, store: Arc<Store>) -> RtResult<ProcIpc> {
        let words = 4 * world.max(1) * SLOTS;
        let flags = gpu.new_buf(DType::I32, &[words])?;
        api::check(unsafe { sys::cuMemsetD32_v2(flags.addr(), 0, words) }, "cuMemsetD32")?;
        // The zeros must be in place before a peer can write a flag (it opens the block only
        // after the handle is published, below this point).
        api::check(unsafe { sys::cuCtxSynchronize() }, "cuCtxSynchronize")?;
        Ok(ProcIpc { rank, world, store, ctx: gpu.dev.ctx, flags, state: Mutex::new(State::default()) })
    }

    fn check_peer(&self, peer: usize) -> RtResult<()> {
        if peer == self.rank || peer >= self.world {
            return Err(RtError::new(format!("cuda_ipc: rank {} cannot transfer with peer {peer}", self.rank)));
        }
        if let Some(why) = &lock(&self.state).aborted {
            return Err(RtError::new(format!("aborted: {why}")));
        }
        Ok(())
    }

    /// `comm.share_handles` of this rank: exports the blocks of `buffers` (and the flag block
    /// the first time) and registers the pairs.
    pub fn share(&self, sends: &[(CudaBuf, usize)], recvs: &[(CudaBuf, usize)]) -> RtResult<()> {
        for (_, p) in sends.iter().chain(recvs) {
            self.check_peer(*p)?;
        }
        let mut s = lock(&self.state);
        if !s.flags_published {
            let h = self.flags.mem.export()?;
            self.store.set(&format!("ipc/flags/{}", self.rank), &handle_bytes(&h))?;
            s.flags_published = true;
        }
        for (b, _) in sends.iter().chain(recvs) {
            if s.exported.contains(&b.mem.ptr) {
                continue;
            }
            let h = b.mem.export()?;
            self.store.set(&format!("ipc/mem/{}/{}", self.rank, b.mem.ptr), &handle_bytes(&h))?;
            s.exported.insert(b.mem.ptr);
        }
        s.sends_to.extend(sends.iter().map(|(_, p)| *p));
        s.recvs_from.extend(recvs.iter().map(|(_, p)| *p));
        Ok(())
    }

    /// The pair of a transfer of this rank with `peer`, its message number, after checking
    /// that this rank registered its side.
    fn next_message(&self, peer: usize, side: Side) -> RtResult<((usize, usize), u32)> {
        let mut s = lock(&self.state);
        let registered = match side {
            Side::Send => s.sends_to.contains(&peer),
            Side::Recv => s.recvs_from.contains(&peer),
        };
        let pair = if side == Side::Send { (self.rank, peer) } else { (peer, self.rank) };
        if !registered {
            return Err(RtError::new(format!(
                "cuda_ipc: ranks {} and {} transfer without a comm.share_handles of that pair",
                pair.0, pair.1
            )));
        }
        let n = s.sequence.entry(pair).or_insert(0);
        *n += 1;
        Ok((pair, *n))
    }

    /// The address here of `owner`'s block `block` (opened on first use; its handle is
    /// waited for in the store at most `wait`).
    fn open(&self, owner: usize, key: &str, block: u64, wait: Duration) -> RtResult<u64> {
        if let Some(&a) = lock(&self.state).opened.get(&(owner, block)) {
            return Ok(a);
        }
        let bytes = self.store.get_within(key, wait)?.ok_or_else(|| {
            RtError::new(format!(
                "deadlock: rank {} waits for rank {owner} to share its CUDA IPC handle '{key}' ({} s)",
                self.rank,
                wait.as_secs_f64()
            ))
        })?;
        let h = handle_from_bytes(&bytes)?;
        let mut addr = 0;
        api::check(
            unsafe {
                sys::cuIpcOpenMemHandle_v2(&mut addr, h, sys::CUipcMem_flags::CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS as u32)
            },
            "cuIpcOpenMemHandle",
        )?;
        lock(&self.state).opened.insert((owner, block), addr);
        Ok(addr)
    }

    /// The address here of `peer`'s flag word `slot`.
    fn peer_flag(&self, peer: usize, slot: u64, wait: Duration) -> RtResult<u64> {
        // The flag block's own address in the peer does not matter: one flag block per rank.
        Ok(self.open(peer, &format!("ipc/flags/{peer}"), u64::MAX, wait)? + 4 * slot)
    }

    /// The signalling side: marks `view` ready for the peer (its ready word, from `stream`),
    /// tells the peer where it is, and returns the done word its `comm.wait` waits for.
    #[allow(clippy::too_many_arguments)]
    pub fn signal(
        &self,
        peer: usize,
        side: Side,
        protocol: Protocol,
        view: &CudaBuf,
        stream: RawStream,
        timeout: Duration,
    ) -> RtResult<Flag> {
        self.check_peer(peer)?;
        if !lock(&self.state).exported.contains(&view.mem.ptr) {
            return Err(RtError::new(format!(
                "cuda_ipc: rank {} signals a {} of a buffer that no comm.share_handles of this rank shared",
                self.rank,
                side.op()
            )));
        }
        let (pair, n) = self.next_message(peer, side)?;
        // In the peer's block: other = this rank; the pair goes out of the peer when this
        // rank receives.
        let ready = self.peer_flag(peer, slot(self.rank, false, side == Side::Recv, n), timeout)?;
        api::write_value(stream, ready, n)?;
        let m = Message {
            block: view.mem.ptr,
            block_size: view.mem.size,
            dtype: view.dtype,
            offset: view.offset,
            shape: view.shape.clone(),
            strides: view.strides.clone(),
            put: protocol == Protocol::Put,
        };
        self.store.set(&format!("ipc/msg/{}/{}/{n}", pair.0, pair.1), &m.encode())?;
        Ok(Flag { addr: self.flags.addr() + 4 * slot(peer, true, side == Side::Send, n), value: n, exact: true })
    }

    /// The copying side: waits (host, at most `timeout`) for the peer's message, then
    /// enqueues on `stream` of `gpu` the wait for its ready word, the copy and the write of
    /// its done word.
    #[allow(clippy::too_many_arguments)]
    pub fn copy(
        &self,
        gpu: &Gpu,
        peer: usize,
        side: Side,
        protocol: Protocol,
        view: &CudaBuf,
        stream: RawStream,
        timeout: Duration,
    ) -> RtResult<()> {
        self.check_peer(peer)?;
        let (pair, n) = self.next_message(peer, side)?;
        let key = format!("ipc/msg/{}/{}/{n}", pair.0, pair.1);
        let bytes = self.store.get_within(&key, timeout)?.ok_or_else(|| {
            let theirs = if side == Side::Send { Side::Recv } else { Side::Send };
            RtError::new(format!(
                "deadlock: rank {} waits in {} (cuda_ipc {protocol:?}) for rank {peer} to post its {} ({} s)",
                self.rank,
                side.op(),
                theirs.op(),
                timeout.as_secs_f64()
            ))
        })?;
        let m = Message::decode(&bytes)?;
        let theirs = if m.put { Protocol::Put } else { Protocol::Get };
        if theirs != protocol {
            return Err(RtError::new(format!(
                "cuda_ipc: rank {} uses protocol {protocol:?}, its peer {peer} {theirs:?}",
                self.rank
            )));
        }
        let base = self.open(peer, &format!("ipc/mem/{peer}/{}", m.block), m.block, timeout)?;
        let mem = DevMem::foreign(base, m.block_size, gpu.alloc.clone());
        let other =
            CudaBuf::whole(mem, m.dtype, &[m.block_size / m.dtype.size()]).relayout(m.offset, m.shape, m.strides)?;
        let done = self.peer_flag(peer, slot(self.rank, true, side == Side::Recv, n), timeout)?;
        let ready = self.flags.addr() + 4 * slot(peer, false, side == Side::Send, n);
        api::wait_value_eq(stream, ready, n)?;
        let (src, dst) = if side == Side::Send { (view, &other) } else { (&other, view) };
        copy_matching(gpu, self.rank, peer, src, dst, stream)?;
        api::write_value(stream, done, n)
    }

    /// Makes later transfers fail at once (a rank failed).
    pub fn abort(&self, reason: String) {
        lock(&self.state).aborted.get_or_insert(reason);
    }
}

impl Drop for ProcIpc {
    /// Closes every opened block of the other ranks (the backend drops its GPU, which waits
    /// for the streams, before this).
    fn drop(&mut self) {
        let opened = std::mem::take(&mut lock(&self.state).opened);
        unsafe {
            let _ = sys::cuCtxSetCurrent(self.ctx.0);
            for (_, addr) in opened {
                let _ = sys::cuIpcCloseMemHandle(addr);
            }
        }
    }
}

fn handle_bytes(h: &sys::CUipcMemHandle) -> Vec<u8> {
    h.reserved.iter().map(|&c| c as u8).collect()
}

fn handle_from_bytes(b: &[u8]) -> RtResult<sys::CUipcMemHandle> {
    let mut h = sys::CUipcMemHandle { reserved: [0; 64] };
    if b.len() != h.reserved.len() {
        return Err(RtError::new("cuda_ipc: a memory handle of the wrong size came through the store"));
    }
    for (d, &s) in h.reserved.iter_mut().zip(b) {
        *d = s as std::ffi::c_char;
    }
    Ok(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip_and_malformed_ones_are_refused() {
        let m = Message {
            block: 0x7f00_0000_1000,
            block_size: 4096,
            dtype: DType::BF16,
            offset: 12,
            shape: vec![3, 4],
            strides: vec![8, 1],
            put: true,
        };
        let b = m.encode();
        assert_eq!(Message::decode(&b).unwrap(), m);
        assert!(Message::decode(&b[..b.len() - 8]).is_err());
        assert!(Message::decode(&b[..5]).is_err());
        let mut bad_type = b.clone();
        bad_type[16] = 200;
        assert!(Message::decode(&bad_type).is_err());
    }

    #[test]
    fn flag_words_of_a_rank_are_distinct() {
        let world = 4;
        let mut seen = HashSet::new();
        for other in 0..world {
            for done in [false, true] {
                for outgoing in [false, true] {
                    for n in 1..=SLOTS as u32 {
                        let s = slot(other, done, outgoing, n);
                        assert!(s < (4 * world * SLOTS) as u64);
                        assert!(seen.insert(s));
                        assert_eq!(slot(other, done, outgoing, n + SLOTS as u32), s, "slots cycle");
                    }
                }
            }
        }
    }
}
