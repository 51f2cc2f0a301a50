//! Rank 0's hub of a multi-process cpu run: every rank (rank 0 too) connects to it over TCP,
//! presents the run's token and its rank, and sends its posts; the hub replays them on an
//! in-process [`Communicator`] of `world` ranks, where they meet exactly as the threads of a
//! single-process run meet (the same rendezvous, FIFO matching, checks and messages), over
//! proxy buffers that hold the bytes the posts carried. When an op completes, the hub sends
//! each participant the bytes its output received.
//!
//! The hub also keeps the run's membership: `Start` goes to everybody once all ranks joined;
//! a rank that fails sends an abort, which the hub passes to the others; a rank whose
//! connection ends before it reported a result (its process exited or was killed) is
//! announced to the others as the cause. Rank 0 collects the other ranks' results here.
//!
//! Before `Start`, the hub compares the ranks' [`Fingerprint`]s (presented with the hello):
//! ranks started with different programs, pipelines, seeds or options are told so, by name,
//! and the run ends before it ran.
//!
//! Invariants: the hub never waits for a communication (completion callbacks answer the
//! ranks) nor on a socket: every message to a rank goes through the rank's [`Outbox`], so a
//! rank that stops reading (its process is stopped, its network down) blocks nobody, and
//! is reported like a vanished rank when a write to it made no progress for `--timeout`;
//! a connection that fails the handshake (magic, version, the run's token, a rank in the
//! world that has not joined, the whole hello within the [`Gate`]'s deadline) is dropped
//! with a logged line and never touches the run; connections are admitted as the store's
//! are ([`crate::store::gate`]); a malformed message from a joined rank ends that rank's
//! membership (it is reported like a vanished rank).

use super::fingerprint::{self, Fingerprint, MAX_FINGERPRINT};
use super::msg::{BufSpec, FromHub, PostBody, ToHub};
use super::outbox::{Failed, Outbox};
use crate::buffer::{Buffer, View};
use crate::cpu::comm::{Collective, Communicator, PostInfo, Request};
use crate::error::{OpKey, RtError, RtResult};
use crate::store::gate::{Admission, Gate, Pass};
use crate::store::server::Log;
use crate::store::wire;
use crate::watchdog::lock;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Condvar, Mutex, Weak};
use std::time::{Duration, Instant};

/// How rank 0's hub is set up.
pub struct HubConfig {
    pub world: usize,
    /// The run's token.
    pub token: String,
    /// `--timeout`: a write to a rank that makes no progress for this long ends the run.
    pub timeout: Duration,
    pub admission: Admission,
    /// Where dropped connections are reported.
    pub log: Log,
}

/// What the hub knows of one rank.
#[derive(Default)]
struct Member {
    writer: Option<Arc<Outbox>>,
    fingerprint: Fingerprint,
    result: Option<Vec<u8>>,
    /// Why its connection ended before it said goodbye.
    vanished: Option<String>,
}

/// The membership and results of the run.
struct State {
    members: Vec<Member>,
    started: bool,
    /// The first failure announced (later ones are echoes).
    aborted: bool,
    /// Why the run was refused before it started (the ranks' fingerprints differ).
    refused: Option<RtError>,
}

/// Rank 0's hub (see the module doc).
pub struct Hub {
    world: usize,
    token: Vec<u8>,
    timeout: Duration,
    comm: Arc<Communicator>,
    state: Mutex<State>,
    cv: Condvar,
    gate: Arc<Gate>,
    /// The hub itself, for the outboxes' failure callbacks.
    me: Weak<Hub>,
}

impl Hub {
    /// Listens on `bind` (port 0: any free port) and serves from background threads; the
    /// address the ranks connect to.
    pub fn start(bind: SocketAddr, cfg: HubConfig) -> RtResult<(Arc<Hub>, SocketAddr)> {
        let listener = TcpListener::bind(bind)
            .map_err(|e| RtError::new(format!("cannot listen for the ranks' communication on {bind}: {e}")))?;
        let addr = listener.local_addr().map_err(|e| RtError::new(format!("hub address: {e}")))?;
        let world = cfg.world;
        let hub = Arc::new_cyclic(|me| Hub {
            world,
            token: cfg.token.as_bytes().to_vec(),
            timeout: cfg.timeout,
            // The hub never waits: the timeout of its communicator's watchdog is unused.
            comm: Communicator::new(world, Duration::from_secs(3600)),
            state: Mutex::new(State {
                members: (0..world).map(|_| Member::default()).collect(),
                started: false,
                aborted: false,
                refused: None,
            }),
            cv: Condvar::new(),
            gate: Gate::new(cfg.admission, "communication hub", cfg.log),
            me: me.clone(),
        });
        let h = hub.clone();
        std::thread::Builder::new()
            .name("fuser hub".into())
            .spawn(move || h.accept(listener))
            .map_err(|e| RtError::new(format!("cannot start the hub thread: {e}")))?;
        Ok((hub, addr))
    }

    /// Serves each connection on a thread of its own, admitted by the gate (see
    /// [`crate::store::gate`]).
    fn accept(self: Arc<Self>, listener: TcpListener) {
        for conn in listener.incoming().flatten() {
            let pass = self.gate.arrive(&conn);
            let hub = self.clone();
            let spawned =
                std::thread::Builder::new().name("fuser hub conn".into()).spawn(move || hub.serve(conn, pass));
            if spawned.is_err() {
                self.gate.log("cannot start a connection thread");
            }
        }
    }

    /// The posts of all ranks that are still waiting for counterparts, in words.
    pub fn unmatched(&self) -> Vec<String> {
        self.comm.unmatched()
    }

    /// The ranks that have not joined yet.
    pub fn missing(&self) -> Vec<usize> {
        let s = lock(&self.state);
        (0..self.world).filter(|&r| s.members[r].writer.is_none() && s.members[r].vanished.is_none()).collect()
    }

    /// Why the run was refused before it started, if it was (the ranks' fingerprints differ).
    pub fn refused(&self) -> Option<RtError> {
        lock(&self.state).refused.clone()
    }

    /// One connection: handshake, then the rank's messages until it leaves.
    fn serve(&self, mut conn: TcpStream, mut pass: Pass) {
        let peer = conn.peer_addr().map_or_else(|_| "?".to_string(), |a| a.to_string());
        let rank = match self.handshake(&mut conn, &mut pass) {
            Ok(rank) => rank,
            // Evicted for a newer connection: the gate logged it.
            Err(_) if pass.evicted() => return,
            Err(e) => return self.gate.log(format!("dropped connection from {peer}: {e}")),
        };
        let why = self.serve_rank(rank, &mut conn);
        self.left(rank, why);
    }

    /// Rank `rank`'s connection ended: `Ok` after its goodbye, else why.
    fn left(&self, rank: usize, why: Result<(), String>) {
        let mut s = lock(&self.state);
        let member = &mut s.members[rank];
        if let Some(w) = member.writer.take()
            && why.is_err()
        {
            // Nobody reads what is still queued for it.
            w.abandon();
        }
        let Err(why) = why else {
            drop(s);
            return self.cv.notify_all();
        };
        if member.result.is_some() || member.vanished.is_some() {
            // Finished (its result is here) and went away without the goodbye, or already
            // reported: harmless.
            drop(s);
            return self.cv.notify_all();
        }
        let message = format!("rank {rank} left the run before finishing (its process exited or was killed: {why})");
        member.vanished = Some(message.clone());
        drop(s);
        self.cv.notify_all();
        self.abort_all(RtError::new(message), Some(rank));
    }

    /// A write to `rank` failed or made no progress for `--timeout`: the rank is gone for
    /// the run, whose other ranks are told.
    fn unreachable(&self, rank: usize, failed: Failed) {
        let message = if failed.stalled {
            format!(
                "rank {rank} stopped reading from rank 0's hub: sending it {} made no progress for {:?} (its \
process is stopped or the network to it is down)",
                failed.what, self.timeout
            )
        } else {
            format!("rank {rank} left the run before finishing (sending it {} failed: {})", failed.what, failed.why)
        };
        let mut s = lock(&self.state);
        let member = &mut s.members[rank];
        if member.vanished.is_some() || member.result.is_some() {
            // Gone after it reported: its result is all the run needs of it.
            return;
        }
        member.vanished = Some(message.clone());
        drop(s);
        self.cv.notify_all();
        self.abort_all(RtError::new(message), Some(rank));
    }

    /// The hello (magic, version, token), the rank and its fingerprint, all within the
    /// gate's deadline; answers `OK` (or `0` when refused, BUSY when full).
    fn handshake(&self, conn: &mut TcpStream, pass: &mut Pass) -> RtResult<usize> {
        let io = |e: std::io::Error| RtError::new(e.to_string());
        let (token, rank, fingerprint) = {
            let mut timed = pass.timed(conn);
            let mut read = || -> std::io::Result<_> {
                let token = wire::read_hello(&mut timed)?;
                let mut rank = [0u8; 8];
                timed.read_exact(&mut rank)?;
                let fingerprint = wire::read_bounded(&mut timed, MAX_FINGERPRINT, "fingerprint")?;
                Ok((token, u64::from_le_bytes(rank), fingerprint))
            };
            read().map_err(|e| io(pass.hello_error(e)))?
        };
        let refuse = |conn: &mut TcpStream, e: RtError| {
            let _ = conn.write_all(&[wire::REFUSED]);
            Err(e)
        };
        if !wire::same_secret(&token, &self.token) {
            return refuse(conn, RtError::new("wrong token"));
        }
        let fingerprint = match Fingerprint::decode(&fingerprint) {
            Ok(f) => f,
            Err(e) => return refuse(conn, e),
        };
        let rank = rank as usize;
        if rank >= self.world {
            let e = RtError::new(format!("rank {rank} is outside the world of {} ranks", self.world));
            return refuse(conn, e);
        }
        if let Err(e) = pass.join() {
            let _ = conn.write_all(&[wire::BUSY]);
            return Err(io(e));
        }
        let mut s = lock(&self.state);
        let m = &s.members[rank];
        if m.writer.is_some() || m.vanished.is_some() || m.result.is_some() {
            return refuse(conn, RtError::new(format!("rank {rank} joined twice")));
        }
        conn.set_read_timeout(None).map_err(io)?;
        let _ = conn.set_nodelay(true);
        conn.write_all(&[wire::OK]).map_err(io)?;
        let me = self.me.clone();
        let on_fail = Box::new(move |f: Failed| {
            if let Some(hub) = me.upgrade() {
                hub.unreachable(rank, f);
            }
        });
        let writer = conn.try_clone().map_err(io)?;
        let outbox = Outbox::start(writer, self.timeout, format!("fuser hub to rank {rank}"), on_fail).map_err(io)?;
        s.members[rank].writer = Some(Arc::new(outbox));
        s.members[rank].fingerprint = fingerprint;
        let all_joined = s.members.iter().all(|m| m.writer.is_some());
        if all_joined && !s.started && !s.aborted {
            s.started = true;
            let ranks: Vec<(usize, &Fingerprint)> = s.members.iter().map(|m| &m.fingerprint).enumerate().collect();
            let writers: Vec<_> = s.members.iter().filter_map(|m| m.writer.clone()).collect();
            match fingerprint::compare(&ranks) {
                None => {
                    drop(s);
                    writers.iter().for_each(|w| send(w, &FromHub::Start));
                }
                Some(e) => {
                    // Nobody runs: every rank (rank 0 too) hears why. The aborts are queued
                    // before the lock is released, so a `flush` by whoever sees `aborted`
                    // (rank 0, about to exit) waits for all of them.
                    s.refused = Some(e.clone());
                    s.aborted = true;
                    let message = FromHub::Abort(e);
                    writers.iter().for_each(|w| send(w, &message));
                    drop(s);
                    self.cv.notify_all();
                }
            }
        }
        Ok(rank)
    }

    /// Reads the rank's messages; `Ok` after its goodbye, the reason when the connection
    /// ended otherwise.
    fn serve_rank(&self, rank: usize, conn: &mut TcpStream) -> Result<(), String> {
        loop {
            let frame = wire::read_bounded(conn, wire::MAX_VALUE, "message").map_err(|e| match e.kind() {
                std::io::ErrorKind::UnexpectedEof => "its connection closed".to_string(),
                _ => e.to_string(),
            })?;
            let message = ToHub::decode(&frame).map_err(|e| e.message)?;
            match message {
                ToHub::Post { id, key, body } => self.post(rank, id, key, body),
                ToHub::Abort(e) => self.abort_all(e, Some(rank)),
                ToHub::Result(bytes) => {
                    lock(&self.state).members[rank].result = Some(bytes);
                    self.cv.notify_all();
                }
                ToHub::Bye => return Ok(()),
            }
        }
    }

    fn writer(&self, rank: usize) -> Option<Arc<Outbox>> {
        lock(&self.state).members.get(rank).and_then(|m| m.writer.clone())
    }

    /// Tells every rank but `except` that the run failed with `error` (once).
    pub fn abort_all(&self, error: RtError, except: Option<usize>) {
        let mut s = lock(&self.state);
        if s.aborted {
            return;
        }
        s.aborted = true;
        // Queued under the lock (see `join`): a later `flush` waits for these.
        let message = FromHub::Abort(error);
        for r in (0..self.world).filter(|&r| Some(r) != except) {
            if let Some(w) = &s.members[r].writer {
                send(w, &message);
            }
        }
    }

    /// Waits until everything queued for the ranks was written, at most until `deadline`
    /// (rank 0's process is about to end: an abort must reach the others first).
    pub fn flush(&self, deadline: Instant) {
        let writers: Vec<_> = lock(&self.state).members.iter().filter_map(|m| m.writer.clone()).collect();
        for w in writers {
            w.flush(deadline);
        }
    }

    /// Replays a post of `rank` on the hub's communicator; answers `Posted` now and `Done`
    /// when it completes.
    fn post(&self, rank: usize, id: u64, key: OpKey, body: PostBody) {
        let Some(writer) = self.writer(rank) else { return };
        let at = PostInfo::new(rank, key);
        let posted = match body {
            PostBody::Collective { seq, team, op, input, data, output } => {
                self.post_collective(&at.with_seq(seq), &team, op, (&input, data), &output)
            }
            PostBody::P2p { send: is_send, peer, backend, protocol, buf, data } => {
                let view = proxy(&buf, is_send.then_some(data));
                view.and_then(|v| {
                    let request = if is_send {
                        self.comm.send(&at, peer, &v, backend, protocol)
                    } else {
                        self.comm.recv(&at, peer, &v, backend, protocol)
                    }?;
                    Ok((request, (!is_send).then_some(v)))
                })
            }
            PostBody::Share { sends, recvs } => {
                let views = |pairs: &[(BufSpec, usize)]| -> RtResult<Vec<(View, usize)>> {
                    pairs
                        .iter()
                        .map(|(b, peer)| Ok((proxy(&BufSpec { numel: 0, ..b.clone() }, None)?, *peer)))
                        .collect()
                };
                views(&sends)
                    .and_then(|s| Ok((s, views(&recvs)?)))
                    .and_then(|(s, r)| self.comm.share_handles(&at, &s, &r))
                    .map(|r| (r, None))
            }
        };
        match posted {
            Err(e) => send(&writer, &FromHub::Posted { id, error: Some(e) }),
            Ok((request, output)) => {
                send(&writer, &FromHub::Posted { id, error: None });
                answer_when_done(&request, writer, id, output);
            }
        }
    }

    fn post_collective(
        &self,
        at: &PostInfo,
        team: &[usize],
        op: Collective,
        (input, data): (&BufSpec, Vec<u8>),
        output: &BufSpec,
    ) -> RtResult<(Request, Option<View>)> {
        let input = proxy(input, Some(data))?;
        let output = proxy(output, None)?;
        let request = self.comm.post_collective(at, team, op, &input, &output)?;
        let position = team.iter().position(|&r| r == at.rank);
        // Rooted gathers and reductions leave the other members' outputs untouched.
        let writes = match op {
            Collective::Reduce { root, .. } | Collective::Gather { root } => position == Some(root),
            _ => true,
        };
        Ok((request, writes.then_some(output)))
    }

    /// Waits until every rank but 0 reported its result (or `deadline`): the results of ranks
    /// 1.., or an error naming the ranks that vanished or did not report.
    pub fn gather(&self, deadline: Instant) -> RtResult<Vec<Vec<u8>>> {
        let mut s = lock(&self.state);
        loop {
            if let Some(m) = s.members.iter().skip(1).find(|m| m.result.is_none() && m.vanished.is_some()) {
                return Err(RtError::new(m.vanished.clone().unwrap_or_default()));
            }
            if s.members.iter().skip(1).all(|m| m.result.is_some()) {
                return Ok(s.members.iter_mut().skip(1).map(|m| m.result.take().unwrap_or_default()).collect());
            }
            let now = Instant::now();
            if now >= deadline {
                let late: Vec<usize> = (1..self.world).filter(|&r| s.members[r].result.is_none()).collect();
                return Err(RtError::new(format!(
                    "{} did not report a result in time after rank 0 finished",
                    crate::cpu::comm::ranks_phrase(&late)
                )));
            }
            s = self
                .cv
                .wait_timeout(s, (deadline - now).min(Duration::from_millis(50)))
                .map_or_else(|p| p.into_inner().0, |(g, _)| g);
        }
    }
}

/// A proxy of a rank's buffer: its id, element type and `bytes` (zeros when `None`).
pub(super) fn proxy(spec: &BufSpec, bytes: Option<Vec<u8>>) -> RtResult<View> {
    let size = spec.numel.checked_mul(spec.dtype.size()).filter(|&b| b <= wire::MAX_VALUE).ok_or_else(|| {
        RtError::new(format!(
            "a communication of {} {} elements exceeds the {} bytes a message between processes carries",
            spec.numel,
            spec.dtype.name(),
            wire::MAX_VALUE
        ))
    })?;
    let bytes = match bytes {
        Some(b) if b.len() != size => {
            return Err(RtError::new(format!("a post carried {} bytes for {} elements", b.len(), spec.numel)));
        }
        Some(b) => b,
        None => vec![0; size],
    };
    View::whole(Buffer::proxy(spec.id, spec.dtype, bytes), &[spec.numel])
}

/// Sends `Done` to the posting rank when `request` completes (with `output`'s bytes).
fn answer_when_done(request: &Request, writer: Arc<Outbox>, id: u64, output: Option<View>) {
    request.when_done(move |outcome| {
        let outcome = outcome.map(|()| output.map(|v| crate::cpu::comm::read_bytes(&v)));
        send(&writer, &FromHub::Done { id, outcome });
    });
}

/// Queues one message; a failed or stalled write is reported by the outbox.
fn send(writer: &Outbox, message: &FromHub) {
    let what = match message {
        FromHub::Start => "the start of the run".to_string(),
        FromHub::Posted { id, .. } => format!("the answer to its post #{id}"),
        FromHub::Done { id, .. } => format!("the completion of its post #{id}"),
        FromHub::Abort(_) => "the abort of the run".to_string(),
    };
    let _ = writer.send(message.encode(), what);
}
