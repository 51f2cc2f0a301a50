//! The seam between a rank's [`Communicator`](super::Communicator) and the other processes
//! of a multi-process run: a communicator made with
//! [`Communicator::with_remote`](super::Communicator::with_remote) checks a post as far as the
//! post alone allows, then hands it to its [`Remote`] (the cpu backend's one is
//! `crate::procs::link::Link`, which forwards it to rank 0's hub where the in-process
//! communicator matches the ranks' posts).
//!
//! A remote keeps the in-process semantics: a post that the matching refuses (unpaired CUDA
//! IPC buffers, a peer out of range) fails at post; the returned [`Request`] completes when
//! the counterparts posted and the data landed in the output; [`Request::blocks_stream`]
//! follows the same rules.

use super::p2p::Side;
use super::{Collective, PostInfo, Request};
use crate::buffer::View;
use crate::error::{RtError, RtResult};
use fuser_dialects::comm::attrs::{Backend, Protocol};

/// Where the posts of a process's rank go.
pub trait Remote: Send + Sync {
    /// A collective of `team` with the sequence number `seq` (reserved in host order).
    /// `local_error`: the post is malformed on this rank; it still goes out (the other
    /// members fail with it) and the post returns that error.
    fn post_collective(
        &self,
        at: &PostInfo,
        team_seq: (&[usize], u64),
        op: Collective,
        views: (&View, &View),
        local_error: Option<RtError>,
    ) -> RtResult<Request>;

    /// A send (`side` = Send: `view` is read now) or receive (`view` is written when it
    /// completes); `grouped`: part of an NCCL group (never blocks the stream).
    fn post_p2p(
        &self,
        at: &PostInfo,
        side: Side,
        peer: usize,
        view: &View,
        transport: (Backend, Protocol),
        grouped: bool,
    ) -> RtResult<Request>;

    /// The CUDA IPC handle exchange (pairs buffers by the ids the ranks use).
    fn share_handles(&self, at: &PostInfo, sends: &[(View, usize)], recvs: &[(View, usize)]) -> RtResult<Request>;

    /// This rank failed: the other processes must stop waiting for it.
    fn abort(&self, error: &RtError);
}
