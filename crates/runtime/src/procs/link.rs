//! A rank's connection to rank 0's hub: the [`Remote`] behind the communicator of a
//! multi-process cpu run.
//!
//! A post is sent with the bytes it reads (a send's buffer, a collective's input, taken when
//! posted: the in-process communicator reads them later, when the counterparts arrive, but
//! the program may not change them before the op completed anyway) and answered at once by
//! the hub (`Posted`), so a post the matching refuses fails at post as in one process. The
//! returned [`Request`] is completed by the link's reader thread when `Done` arrives, after
//! it wrote the bytes into the output view. Whether it blocks the posting stream follows the
//! in-process rules ([`crate::cpu::comm::p2p`]).
//!
//! Failures: an `Abort` from the hub aborts this process's watchdog (every wait fails at
//! once with the cause); so does a connection to the hub that ends unexpectedly (rank 0
//! went away), and a write to the hub that made no progress for `--timeout` (rank 0's
//! process is stopped, or the network to it is down). A rank that fails itself aborts
//! through [`Remote::abort`].
//!
//! Invariant: nothing waits on the socket's write side: messages go through an [`Outbox`]
//! (a queue and a writer thread), so an abort is never stuck behind a blocked post.

use super::fault::Fault;
use super::fingerprint::Fingerprint;
use super::msg::{BufSpec, FromHub, PostBody, ToHub};
use super::outbox::{Failed, Outbox};
use crate::buffer::View;
use crate::cpu::comm::p2p::{Side, p2p_blocks_stream, p2p_wait_what};
use crate::cpu::comm::remote::Remote;
use crate::cpu::comm::{Collective, Completion, PostInfo, Request, read_bytes, write_bytes};
use crate::error::OpKey;
use crate::error::{RtError, RtResult};
use crate::store::wire;
use crate::watchdog::{ABORT_POLL, WaitInfo, Watchdog, lock};
use fuser_dialects::comm::attrs::{Backend, Protocol};
use rustc_hash::FxHashMap;
use std::io::Read;
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// A posted op waiting for its `Done`.
struct Outstanding {
    done: Arc<Completion>,
    /// Where the bytes of `Done` go.
    output: Option<View>,
}

/// What the reader thread shares with the posting threads.
#[derive(Default)]
struct LinkState {
    started: bool,
    /// Answers to posts not yet picked up: `None` accepted, `Some` refused.
    acks: FxHashMap<u64, Option<RtError>>,
    outstanding: FxHashMap<u64, Outstanding>,
    /// Why the connection to the hub ended, when it did.
    lost: Option<String>,
}

/// This rank's connection to the hub.
pub struct Link {
    rank: usize,
    writer: Outbox,
    shared: Arc<(Mutex<LinkState>, Condvar)>,
    watchdog: Arc<Watchdog>,
    next_id: AtomicU64,
    /// Set before the goodbye: the hub closing the connection afterwards is no failure.
    leaving: Arc<AtomicBool>,
    fault: Option<Fault>,
}

impl Link {
    /// Connects to the hub at `addr` (retrying until `deadline` while rank 0 starts it, or
    /// when the hub dropped the connection before answering), presents `token`, `rank` and
    /// `fingerprint`, and starts the reader thread that reports to `watchdog`.
    pub fn connect(
        addr: SocketAddr,
        token: &str,
        (rank, fingerprint): (usize, &Fingerprint),
        watchdog: Arc<Watchdog>,
        deadline: Instant,
        fault: Option<Fault>,
    ) -> RtResult<Arc<Link>> {
        let conn = join_hub(addr, token, (rank, fingerprint), deadline)?;
        let fail =
            |what: &str, e: std::io::Error| RtError::new(format!("{what} rank 0's hub at {addr}: {e}")).on_rank(rank);
        let reader = conn.try_clone().map_err(|e| fail("cannot read from", e))?;
        let shared: Arc<(Mutex<LinkState>, Condvar)> = Arc::new((Mutex::new(LinkState::default()), Condvar::new()));
        let leaving = Arc::new(AtomicBool::new(false));
        let on_fail = {
            let (shared, watchdog, leaving) = (shared.clone(), watchdog.clone(), leaving.clone());
            let timeout = watchdog.timeout();
            Box::new(move |f: Failed| {
                let why = if f.stalled {
                    format!(
                        "sending {} to rank 0's hub made no progress for {timeout:?}: rank 0's process is stopped or \
the network to it is down",
                        f.what
                    )
                } else {
                    format!("sending {} to rank 0's hub failed ({}): rank 0 exited or was killed", f.what, f.why)
                };
                lost(why, &shared, &watchdog, &leaving);
            })
        };
        let writer = Outbox::start(conn, watchdog.timeout(), format!("rank {rank} to hub"), on_fail)
            .map_err(|e| fail("cannot write to", e))?;
        let link = Arc::new(Link { rank, writer, shared, watchdog, next_id: AtomicU64::new(0), leaving, fault });
        let (shared, watchdog, leaving) = (link.shared.clone(), link.watchdog.clone(), link.leaving.clone());
        std::thread::Builder::new()
            .name(format!("rank {rank} link"))
            .spawn(move || read_from_hub(reader, &shared, &watchdog, &leaving))
            .map_err(|e| RtError::new(format!("cannot start the link thread: {e}")))?;
        Ok(link)
    }

    /// Waits for the hub's `Start` (every rank joined) until `deadline`.
    pub fn wait_start(&self, deadline: Instant) -> RtResult<()> {
        let (m, cv) = &*self.shared;
        let mut s = lock(m);
        loop {
            if s.started {
                return Ok(());
            }
            if let Some(e) = self.watchdog.aborted() {
                return Err(e.on_rank(self.rank));
            }
            if let Some(why) = &s.lost {
                return Err(RtError::new(why.clone()).on_rank(self.rank));
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(RtError::new(format!(
                    "the other ranks did not all join the run within {:?}",
                    self.watchdog.timeout()
                ))
                .on_rank(self.rank));
            }
            s = cv.wait_timeout(s, (deadline - now).min(ABORT_POLL)).map_or_else(|p| p.into_inner().0, |(g, _)| g);
        }
    }

    /// Queues `message` (`what`: it in words, for a report of a stalled write).
    fn send(&self, message: &ToHub, what: impl Into<String>) -> RtResult<()> {
        let frame = message.encode();
        if frame.len() > wire::MAX_VALUE {
            return Err(RtError::new(format!(
                "a message of {} bytes exceeds the {} bytes a message between processes carries",
                frame.len(),
                wire::MAX_VALUE
            ))
            .on_rank(self.rank));
        }
        self.writer.send(frame, what).map_err(|why| {
            let lost = lock(&self.shared.0).lost.clone();
            RtError::new(lost.unwrap_or_else(|| format!("the connection to rank 0's hub failed: {why}")))
                .on_rank(self.rank)
        })
    }

    /// Hands this rank's encoded result (or error) to rank 0.
    pub fn send_result(&self, bytes: Vec<u8>) -> RtResult<()> {
        self.send(&ToHub::Result(bytes), "its result")
    }

    /// Leaves the run: the hub closing the connection is expected from now on.
    pub fn goodbye(&self) {
        self.leaving.store(true, Ordering::SeqCst);
        let _ = self.send(&ToHub::Bye, "its goodbye");
    }

    /// Waits until every message was written to the hub (at most until `deadline`): the
    /// process is about to end.
    pub fn flush(&self, deadline: Instant) -> RtResult<()> {
        if self.writer.flush(deadline) {
            return Ok(());
        }
        let why = lock(&self.shared.0).lost.clone().or_else(|| self.writer.failed()).unwrap_or_else(|| {
            format!("rank 0's hub did not take its last messages within {:?}", self.watchdog.timeout())
        });
        Err(RtError::new(why).on_rank(self.rank))
    }

    /// Sends a post and waits for the hub's answer; the request completes with `Done`.
    fn post(
        &self,
        at: &PostInfo,
        body: PostBody,
        output: Option<View>,
        info: WaitInfo,
        blocks: bool,
    ) -> RtResult<Request> {
        if let Some(f) = &self.fault {
            f.at_communication(self.rank);
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let done = Completion::new();
        lock(&self.shared.0).outstanding.insert(id, Outstanding { done: done.clone(), output });
        let what = post_words(&info.what, &at.key);
        self.send(&ToHub::Post { id, key: at.key.clone(), body }, &what).inspect_err(|_| {
            lock(&self.shared.0).outstanding.remove(&id);
        })?;
        self.wait_ack(id, &what).inspect_err(|_| {
            lock(&self.shared.0).outstanding.remove(&id);
        })?;
        Ok(Request::single(done, info, blocks, &self.watchdog))
    }

    /// The hub's answer to post `id` (it answers at once; a lost hub or an abort ends the
    /// wait, and so does `--timeout` from the post: rank 0 is stopped or unreachable; the
    /// op's completion is due within the same bound anyway). `what`: the post.
    fn wait_ack(&self, id: u64, what: &str) -> RtResult<()> {
        let (m, cv) = &*self.shared;
        let deadline = self.watchdog.deadline();
        let mut s = lock(m);
        loop {
            if let Some(answer) = s.acks.remove(&id) {
                return answer.map_or(Ok(()), Err);
            }
            if let Some(e) = self.watchdog.aborted() {
                return Err(e.on_rank(self.rank));
            }
            if let Some(why) = &s.lost {
                return Err(RtError::new(why.clone()).on_rank(self.rank));
            }
            let now = Instant::now();
            if now >= deadline {
                let e = RtError::new(format!(
                    "rank 0's hub did not answer {what} within {:?}: rank 0's process is stopped or the network to \
it is down",
                    self.watchdog.timeout()
                ))
                .on_rank(self.rank);
                // The rank fails; its other waits fail with this cause at once.
                self.watchdog.abort(e.clone());
                return Err(e);
            }
            s = cv.wait_timeout(s, (deadline - now).min(ABORT_POLL)).map_or_else(|p| p.into_inner().0, |(g, _)| g);
        }
    }
}

fn spec(v: &View) -> BufSpec {
    BufSpec { id: v.buffer.id, dtype: v.dtype(), numel: v.numel() }
}

impl Remote for Link {
    fn post_collective(
        &self,
        at: &PostInfo,
        (team, seq): (&[usize], u64),
        op: Collective,
        (input, output): (&View, &View),
        local_error: Option<RtError>,
    ) -> RtResult<Request> {
        let body = PostBody::Collective {
            seq,
            team: team.to_vec(),
            op,
            input: spec(input),
            data: read_bytes(input),
            output: spec(output),
        };
        if let Some(e) = local_error {
            // The other members learn of it from the hub; this post fails now.
            let what = post_words(&format!("{} #{seq} of team {team:?}", op.name()), &at.key);
            self.send(&ToHub::Post { id: u64::MAX, key: at.key.clone(), body }, what)?;
            return Err(e);
        }
        // Waits name the op; who is missing is known only to the hub (other processes).
        let info =
            WaitInfo::new(at.rank, format!("{} #{seq} of team {team:?}", op.name()), Some(at.key.clone()), vec![]);
        self.post(at, body, Some(output.clone()), info, true)
    }

    fn post_p2p(
        &self,
        at: &PostInfo,
        side: Side,
        peer: usize,
        view: &View,
        (backend, protocol): (Backend, Protocol),
        grouped: bool,
    ) -> RtResult<Request> {
        let send = side == Side::Send;
        let data = if send { read_bytes(view) } else { Vec::new() };
        let body = PostBody::P2p { send, peer, backend, protocol, buf: spec(view), data };
        let info = WaitInfo::new(at.rank, p2p_wait_what(side, peer), Some(at.key.clone()), vec![]);
        let blocks = !grouped && p2p_blocks_stream(backend, protocol, send);
        self.post(at, body, (!send).then(|| view.clone()), info, blocks)
    }

    fn share_handles(&self, at: &PostInfo, sends: &[(View, usize)], recvs: &[(View, usize)]) -> RtResult<Request> {
        let pairs = |v: &[(View, usize)]| v.iter().map(|(view, peer)| (spec(view), *peer)).collect();
        let peers: Vec<String> = sends.iter().chain(recvs).map(|(_, p)| p.to_string()).collect();
        let what = format!("share_handles with rank {}", peers.join(", "));
        let info = WaitInfo::new(at.rank, what, Some(at.key.clone()), vec![]);
        self.post(at, PostBody::Share { sends: pairs(sends), recvs: pairs(recvs) }, None, info, true)
    }

    fn abort(&self, error: &RtError) {
        // The hub passes it on once; an echo of an abort that came from the hub is ignored
        // there. Queued: never waits for a write in progress.
        let _ = self.send(&ToHub::Abort(error.clone()), "its abort");
    }
}

/// `its post of allgather #0 of team [0, 1] at f.mlir:3:4`.
fn post_words(what: &str, key: &OpKey) -> String {
    match &key.loc {
        Some(loc) => format!("its post of {what} at {loc}"),
        None => format!("its post of {what} at '{}' (op #{})", key.name, key.index),
    }
}

/// Joins the hub at `addr` (see [`Link::connect`]): the connection once the hub said `OK`.
fn join_hub(
    addr: SocketAddr,
    token: &str,
    (rank, fingerprint): (usize, &Fingerprint),
    deadline: Instant,
) -> RtResult<TcpStream> {
    loop {
        let last;
        let left = deadline.saturating_duration_since(Instant::now());
        match TcpStream::connect_timeout(&addr, left.clamp(Duration::from_millis(10), Duration::from_secs(1))) {
            Ok(mut conn) => {
                let _ = conn.set_nodelay(true);
                match hello(&mut conn, token, (rank, fingerprint), left.max(Duration::from_millis(10))) {
                    Ok(wire::OK) => return Ok(conn),
                    Ok(wire::BUSY) => last = "rank 0's hub serves too many connections".into(),
                    Ok(_) => {
                        return Err(RtError::new(format!(
                            "rank 0's hub at {addr} refused this rank (a wrong token, a rank outside the run's world \
or one that joined already; rank 0 logs which)"
                        ))
                        .on_rank(rank));
                    }
                    Err(e) => {
                        last = match e.kind() {
                            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => {
                                "rank 0's hub did not answer the hello in time (is rank 0's process stopped?)".into()
                            }
                            _ => format!("rank 0's hub closed the connection before answering ({e})"),
                        }
                    }
                }
            }
            Err(e) => last = format!("cannot reach it: {e}"),
        }
        if Instant::now() >= deadline {
            return Err(RtError::new(format!("could not join rank 0's hub at {addr}: {last}")).on_rank(rank));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Presents token, rank and fingerprint; the hub's answer byte.
fn hello(
    conn: &mut TcpStream,
    token: &str,
    (rank, fingerprint): (usize, &Fingerprint),
    wait: Duration,
) -> std::io::Result<u8> {
    conn.set_read_timeout(Some(wait))?;
    conn.set_write_timeout(Some(wait))?;
    let mut hello = Vec::new();
    wire::send_hello(&mut hello, token)?;
    hello.extend_from_slice(&(rank as u64).to_le_bytes());
    wire::write_bytes(&mut hello, &fingerprint.encode())?;
    std::io::Write::write_all(conn, &hello)?;
    let mut answer = [0u8; 1];
    conn.read_exact(&mut answer)?;
    conn.set_read_timeout(None)?;
    Ok(answer[0])
}

/// The error of a connection to the hub that ended (`e`: how).
fn hub_lost(e: &std::io::Error) -> String {
    let how = match e.kind() {
        std::io::ErrorKind::UnexpectedEof => "closed".to_string(),
        _ => e.to_string(),
    };
    format!("the connection to rank 0's hub ended ({how}): rank 0 exited or was killed")
}

/// The reader thread: answers, completions and aborts from the hub, until the connection ends.
fn read_from_hub(mut conn: TcpStream, shared: &(Mutex<LinkState>, Condvar), watchdog: &Watchdog, leaving: &AtomicBool) {
    let why = loop {
        let frame = match wire::read_bounded(&mut conn, wire::MAX_VALUE, "message") {
            Ok(f) => f,
            Err(e) => break hub_lost(&e),
        };
        let message = match FromHub::decode(&frame) {
            Ok(m) => m,
            Err(e) => break e.message,
        };
        handle(message, shared, watchdog);
    };
    lost(why, shared, watchdog, leaving);
}

/// The connection to the hub is lost (`why`): waits for answers end, outstanding requests
/// fail and the watchdog aborts (unless the rank is leaving anyway). The first cause stays.
fn lost(why: String, shared: &(Mutex<LinkState>, Condvar), watchdog: &Watchdog, leaving: &AtomicBool) {
    let mut s = lock(&shared.0);
    let why = s.lost.get_or_insert(why).clone();
    let outstanding: Vec<Outstanding> = s.outstanding.drain().map(|(_, o)| o).collect();
    drop(s);
    shared.1.notify_all();
    if leaving.load(Ordering::SeqCst) {
        return;
    }
    let error = RtError::new(why);
    watchdog.abort(error.clone());
    outstanding.into_iter().for_each(|o| o.done.finish(Err(error.clone())));
}

fn handle(message: FromHub, shared: &(Mutex<LinkState>, Condvar), watchdog: &Watchdog) {
    let (m, cv) = shared;
    match message {
        FromHub::Start => lock(m).started = true,
        FromHub::Posted { id, error } => {
            lock(m).acks.insert(id, error);
        }
        FromHub::Done { id, outcome } => {
            let Some(o) = lock(m).outstanding.remove(&id) else { return };
            let result = outcome.and_then(|bytes| match (bytes, &o.output) {
                (Some(b), Some(view)) => {
                    if b.len() != view.numel() * view.dtype().size() {
                        return Err(RtError::new(format!(
                            "the hub sent {} bytes for {} elements",
                            b.len(),
                            view.numel()
                        )));
                    }
                    write_bytes(view, &b);
                    Ok(None)
                }
                _ => Ok(None),
            });
            o.done.finish(result);
        }
        FromHub::Abort(e) => watchdog.abort(e),
    }
    cv.notify_all();
}
