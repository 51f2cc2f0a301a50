//! Admission of connections to rank 0's listeners (the store's and the hub's): whoever
//! reaches the port gets a *pending* slot while it presents its hello, and a *joined* slot
//! once its token was accepted; the two are bounded separately, so strangers (garbage,
//! port scanners, clients that send their hello one byte at a time) can never take the
//! places of the run's ranks.
//!
//! Invariants:
//! - the whole hello (everything read before the server answers) must arrive within
//!   [`Admission::hello_timeout`] of the connection's arrival, however the bytes trickle in
//!   (reads go through [`Timed`], whose every read is bounded by what is left of that deadline);
//! - at most [`Admission::max_pending`] connections are pending: a new one evicts the oldest
//!   pending one (shut down, logged), so a real rank, whose hello takes microseconds, always
//!   gets in;
//! - at most [`Admission::max_joined`] connections hold the token at once; more get the
//!   answer [`super::wire::BUSY`] (the client retries until its run's timeout).

use std::collections::VecDeque;
use std::io::{self, Read};
use std::net::{Shutdown, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Where the server reports dropped connections (one line each).
pub type Log = Arc<dyn Fn(String) + Send + Sync>;

/// How long a connection may take to present its whole hello, by default.
pub const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

/// The limits of a listener (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Admission {
    /// The deadline of the whole hello, from the connection's arrival.
    pub hello_timeout: Duration,
    /// Connections presenting their hello at once, at most (a new one evicts the oldest).
    pub max_pending: usize,
    /// Connections that presented the token, at most (more are answered BUSY).
    pub max_joined: usize,
}

impl Admission {
    /// The limits for a run of `world` ranks: `2 × world + 8` of each kind, hellos within
    /// [`HELLO_TIMEOUT`].
    pub fn for_world(world: usize) -> Admission {
        let n = 2 * world + 8;
        Admission { hello_timeout: HELLO_TIMEOUT, max_pending: n, max_joined: n }
    }
}

/// A pending connection: its id, a handle to shut it down, whether it was evicted.
struct Waiting {
    id: u64,
    conn: TcpStream,
    evicted: Arc<AtomicBool>,
}

/// The slots of one listener.
pub struct Gate {
    admission: Admission,
    /// `store` or `communication hub`: the start of every logged line.
    what: &'static str,
    log: Log,
    pending: Mutex<(u64, VecDeque<Waiting>)>,
    joined: AtomicUsize,
}

/// One connection's slot: pending until [`Pass::join`], then joined; freed when dropped.
pub struct Pass {
    gate: Arc<Gate>,
    id: u64,
    joined: bool,
    evicted: Arc<AtomicBool>,
    deadline: Instant,
}

impl Gate {
    pub fn new(admission: Admission, what: &'static str, log: Log) -> Arc<Gate> {
        Arc::new(Gate { admission, what, log, pending: Mutex::new((0, VecDeque::new())), joined: AtomicUsize::new(0) })
    }

    pub fn admission(&self) -> &Admission {
        &self.admission
    }

    /// Logs `line` as this listener's (`store: ...`).
    pub fn log(&self, line: impl std::fmt::Display) {
        (self.log)(format!("{}: {line}", self.what));
    }

    /// A pending slot for `conn`, which just arrived; the oldest pending connection is shut
    /// down to make room when all are taken.
    pub fn arrive(self: &Arc<Self>, conn: &TcpStream) -> Pass {
        let evicted = Arc::new(AtomicBool::new(false));
        let mut p = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        let id = p.0;
        p.0 += 1;
        if p.1.len() >= self.admission.max_pending.max(1)
            && let Some(oldest) = p.1.pop_front()
        {
            oldest.evicted.store(true, Ordering::SeqCst);
            let _ = oldest.conn.shutdown(Shutdown::Both);
            let peer = oldest.conn.peer_addr().map_or_else(|_| "?".to_string(), |a| a.to_string());
            self.log(format!(
                "dropped connection from {peer}: its hello was still incomplete when more than {} connections \
were presenting theirs",
                self.admission.max_pending
            ));
        }
        // Without a handle the connection cannot be evicted; it still has its deadline.
        if let Ok(handle) = conn.try_clone() {
            p.1.push_back(Waiting { id, conn: handle, evicted: evicted.clone() });
        }
        Pass { gate: self.clone(), id, joined: false, evicted, deadline: Instant::now() + self.admission.hello_timeout }
    }

    fn leave_pending(&self, id: u64) {
        let mut p = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        p.1.retain(|w| w.id != id);
    }
}

impl Pass {
    /// When the whole hello must have arrived.
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// Whether the gate shut this connection down for a newer one (its failure is logged).
    pub fn evicted(&self) -> bool {
        self.evicted.load(Ordering::SeqCst)
    }

    /// The hello was accepted: from pending to joined, or an error when all joined slots are
    /// taken (the caller answers BUSY).
    pub fn join(&mut self) -> io::Result<()> {
        self.gate.leave_pending(self.id);
        if self.joined {
            return Ok(());
        }
        let max = self.gate.admission.max_joined;
        if self.gate.joined.fetch_add(1, Ordering::SeqCst) >= max {
            self.gate.joined.fetch_sub(1, Ordering::SeqCst);
            return Err(io::Error::other(format!("more than {max} joined connections")));
        }
        self.joined = true;
        Ok(())
    }

    /// Reads of `conn` bounded by the hello's deadline.
    pub fn timed<'a>(&self, conn: &'a TcpStream) -> Timed<'a> {
        Timed { conn, deadline: self.deadline, timeout: self.gate.admission.hello_timeout }
    }

    /// The error of a failed hello: `e`, or that the hello did not arrive in time.
    pub fn hello_error(&self, e: io::Error) -> io::Error {
        match e.kind() {
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => io::Error::new(
                io::ErrorKind::TimedOut,
                format!("its hello did not arrive within {:?}", self.gate.admission.hello_timeout),
            ),
            _ => e,
        }
    }
}

impl Drop for Pass {
    fn drop(&mut self) {
        if self.joined {
            self.gate.joined.fetch_sub(1, Ordering::SeqCst);
        } else {
            self.gate.leave_pending(self.id);
        }
    }
}

/// Reads of a connection, each bounded by what is left until `deadline` (a whole message
/// must arrive in time, not each of its bytes).
pub struct Timed<'a> {
    conn: &'a TcpStream,
    deadline: Instant,
    timeout: Duration,
}

impl Read for Timed<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::Error::new(io::ErrorKind::TimedOut, format!("nothing complete within {:?}", self.timeout)));
        }
        self.conn.set_read_timeout(Some(left))?;
        let mut c = self.conn;
        c.read(buf)
    }
}
