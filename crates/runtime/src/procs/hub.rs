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
//! Invariants: the hub never waits for a communication (completion callbacks answer the
//! ranks); a connection that fails the handshake (magic, version, the run's token, a rank
//! in the world that has not joined) is dropped with a logged line and never touches the
//! run; connections are bounded as the store's are; a malformed message from a joined rank ends that rank's membership
//! (it is reported like a vanished rank).

use super::msg::{BufSpec, FromHub, PostBody, ToHub};
use crate::buffer::{Buffer, View};
use crate::cpu::comm::{Collective, Communicator, PostInfo, Request};
use crate::error::{OpKey, RtError, RtResult};
use crate::store::server::Log;
use crate::store::wire;
use crate::watchdog::lock;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// How long a new connection may take to present its hello.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// What the hub knows of one rank.
#[derive(Default)]
struct Member {
    writer: Option<Arc<Mutex<TcpStream>>>,
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
}

/// Rank 0's hub (see the module doc).
pub struct Hub {
    world: usize,
    token: Vec<u8>,
    comm: Arc<Communicator>,
    state: Mutex<State>,
    cv: Condvar,
    log: Log,
}

impl Hub {
    /// Listens on `bind` (port 0: any free port) and serves from background threads; the
    /// address the ranks connect to.
    pub fn start(bind: SocketAddr, world: usize, token: &str, log: Log) -> RtResult<(Arc<Hub>, SocketAddr)> {
        let listener = TcpListener::bind(bind)
            .map_err(|e| RtError::new(format!("cannot listen for the ranks' communication on {bind}: {e}")))?;
        let addr = listener.local_addr().map_err(|e| RtError::new(format!("hub address: {e}")))?;
        let hub = Arc::new(Hub {
            world,
            token: token.as_bytes().to_vec(),
            // The hub never waits: the timeout of its communicator's watchdog is unused.
            comm: Communicator::new(world, Duration::from_secs(3600)),
            state: Mutex::new(State {
                members: (0..world).map(|_| Member::default()).collect(),
                started: false,
                aborted: false,
            }),
            cv: Condvar::new(),
            log,
        });
        let h = hub.clone();
        std::thread::Builder::new()
            .name("fuser hub".into())
            .spawn(move || h.accept(listener))
            .map_err(|e| RtError::new(format!("cannot start the hub thread: {e}")))?;
        Ok((hub, addr))
    }

    /// Serves each connection on a thread of its own, at most `2 × world + 8` at once (more
    /// are dropped, logged), as the store does.
    fn accept(self: Arc<Self>, listener: TcpListener) {
        let live = Arc::new(AtomicUsize::new(0));
        let max = 2 * self.world + 8;
        for conn in listener.incoming().flatten() {
            if live.fetch_add(1, Ordering::SeqCst) >= max {
                live.fetch_sub(1, Ordering::SeqCst);
                let peer = conn.peer_addr().map_or_else(|_| "?".to_string(), |a| a.to_string());
                (self.log)(format!("communication hub: dropped connection from {peer}: more than {max} connections"));
                continue;
            }
            let (hub, live) = (self.clone(), live.clone());
            let spawned = std::thread::Builder::new().name("fuser hub conn".into()).spawn(move || {
                hub.serve(conn);
                live.fetch_sub(1, Ordering::SeqCst);
            });
            if spawned.is_err() {
                (self.log)("communication hub: cannot start a connection thread".into());
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

    /// One connection: handshake, then the rank's messages until it leaves.
    fn serve(&self, mut conn: TcpStream) {
        let peer = conn.peer_addr().map_or_else(|_| "?".to_string(), |a| a.to_string());
        let rank = match self.handshake(&mut conn) {
            Ok(rank) => rank,
            Err(e) => return (self.log)(format!("communication hub: dropped connection from {peer}: {e}")),
        };
        let why = self.serve_rank(rank, &mut conn);
        let mut s = lock(&self.state);
        let member = &mut s.members[rank];
        member.writer = None;
        let Err(why) = why else {
            drop(s);
            return self.cv.notify_all();
        };
        if member.result.is_some() {
            // Finished (its result is here) and went away without the goodbye: harmless.
            drop(s);
            return self.cv.notify_all();
        }
        let message = format!("rank {rank} left the run before finishing (its process exited or was killed: {why})");
        member.vanished = Some(message.clone());
        drop(s);
        self.cv.notify_all();
        self.abort_all(RtError::new(message), Some(rank));
    }

    /// The hello, the token and the rank; answers `OK`.
    fn handshake(&self, conn: &mut TcpStream) -> RtResult<usize> {
        let io = |e: std::io::Error| RtError::new(e.to_string());
        conn.set_read_timeout(Some(HANDSHAKE_TIMEOUT)).map_err(io)?;
        let token = wire::read_hello(conn).map_err(io)?;
        if !wire::same_secret(&token, &self.token) {
            return Err(RtError::new("wrong token"));
        }
        let mut rank = [0u8; 8];
        conn.read_exact(&mut rank).map_err(io)?;
        let rank = u64::from_le_bytes(rank) as usize;
        let mut s = lock(&self.state);
        if rank >= self.world {
            return Err(RtError::new(format!("rank {rank} is outside the world of {} ranks", self.world)));
        }
        let m = &s.members[rank];
        if m.writer.is_some() || m.vanished.is_some() || m.result.is_some() {
            return Err(RtError::new(format!("rank {rank} joined twice")));
        }
        conn.set_read_timeout(None).map_err(io)?;
        let _ = conn.set_nodelay(true);
        conn.write_all(&[wire::OK]).map_err(io)?;
        let writer = conn.try_clone().map_err(io)?;
        s.members[rank].writer = Some(Arc::new(Mutex::new(writer)));
        let all_joined = s.members.iter().all(|m| m.writer.is_some());
        if all_joined && !s.started {
            s.started = true;
            let writers: Vec<_> = s.members.iter().filter_map(|m| m.writer.clone()).collect();
            drop(s);
            writers.iter().for_each(|w| send(w, &FromHub::Start));
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

    fn writer(&self, rank: usize) -> Option<Arc<Mutex<TcpStream>>> {
        lock(&self.state).members.get(rank).and_then(|m| m.writer.clone())
    }

    /// Tells every rank but `except` that the run failed with `error` (once).
    pub fn abort_all(&self, error: RtError, except: Option<usize>) {
        let mut s = lock(&self.state);
        if s.aborted {
            return;
        }
        s.aborted = true;
        let writers: Vec<_> =
            (0..self.world).filter(|&r| Some(r) != except).filter_map(|r| s.members[r].writer.clone()).collect();
        drop(s);
        let message = FromHub::Abort(error);
        writers.iter().for_each(|w| send(w, &message));
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
fn answer_when_done(request: &Request, writer: Arc<Mutex<TcpStream>>, id: u64, output: Option<View>) {
    request.when_done(move |outcome| {
        let outcome = outcome.map(|()| output.map(|v| crate::cpu::comm::read_bytes(&v)));
        send(&writer, &FromHub::Done { id, outcome });
    });
}

/// Sends one message; a failed write is noticed by the connection's reader.
fn send(writer: &Mutex<TcpStream>, message: &FromHub) {
    let mut w = lock(writer);
    let _ = wire::write_bytes(&mut *w, &message.encode());
}
