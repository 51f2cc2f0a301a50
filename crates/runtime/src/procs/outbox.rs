//! The sending side of a connection between a rank and rank 0's hub: messages are queued and
//! written by a thread of their own, so that nobody ever blocks on a socket, nor on a lock
//! held by a blocked write (a rank's abort, the hub's answers to the other ranks).
//!
//! A write that makes no progress for the stall bound (the run's `--timeout`: the peer's
//! process is stopped, or the network between them is down) fails the outbox: the queue is
//! dropped, later sends are refused, and `on_stall` is told what was being sent and for how
//! long, once.
//!
//! Invariants: [`Outbox::send`] never blocks on the network; the writer thread ends when the
//! outbox is dropped (after writing what was queued) or failed; [`Outbox::flush`] waits at
//! most until its deadline.

use crate::store::wire;
use crate::watchdog::lock;
use std::collections::VecDeque;
use std::io::{self, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// How large a piece one write hands to the socket (progress is checked between pieces).
const PIECE: usize = 1 << 20;

/// One queued message: its frame and what it is, in words (for the stall report).
struct Queued {
    frame: Vec<u8>,
    what: String,
}

#[derive(Default)]
struct State {
    queue: VecDeque<Queued>,
    /// Being written now.
    writing: bool,
    /// Why the outbox stopped (a failed or stalled write).
    failed: Option<String>,
    /// The owner went away: write what is queued, then stop.
    closed: bool,
}

/// Calls with the reason when a write fails or stalls (once).
pub type OnFail = Box<dyn FnOnce(Failed) + Send>;

/// How the writer failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failed {
    /// What was being written, in words.
    pub what: String,
    /// The write made no progress for the stall bound (else it failed outright).
    pub stalled: bool,
    /// The error, in words.
    pub why: String,
}

/// A queue of frames with a writer thread (see the module doc).
pub struct Outbox {
    shared: Arc<(Mutex<State>, Condvar)>,
    conn: TcpStream,
}

impl Outbox {
    /// Starts the writer thread of `conn` (`name`: the thread's name); writes stalled for
    /// `stall` fail, and `on_fail` hears of a failure.
    pub fn start(conn: TcpStream, stall: Duration, name: String, on_fail: OnFail) -> io::Result<Outbox> {
        let shared = Arc::new((Mutex::new(State::default()), Condvar::new()));
        let (s, writer) = (shared.clone(), conn.try_clone()?);
        // A stalled write returns after `stall` (SO_SNDTIMEO), with what it wrote so far.
        writer.set_write_timeout(Some(stall.max(Duration::from_millis(1))))?;
        std::thread::Builder::new().name(name).spawn(move || write_loop(writer, &s, stall, on_fail))?;
        Ok(Outbox { shared, conn })
    }

    /// Queues `frame` (`what`: the message in words); an error when the outbox failed.
    pub fn send(&self, frame: Vec<u8>, what: impl Into<String>) -> Result<(), String> {
        let mut s = lock(&self.shared.0);
        if let Some(why) = &s.failed {
            return Err(why.clone());
        }
        s.queue.push_back(Queued { frame, what: what.into() });
        drop(s);
        self.shared.1.notify_all();
        Ok(())
    }

    /// Waits until everything queued was written (true), the outbox failed or `deadline`
    /// passed (false).
    pub fn flush(&self, deadline: Instant) -> bool {
        let mut s = lock(&self.shared.0);
        loop {
            if s.failed.is_some() {
                return false;
            }
            if s.queue.is_empty() && !s.writing {
                return true;
            }
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            s = self.shared.1.wait_timeout(s, deadline - now).map_or_else(|p| p.into_inner().0, |(g, _)| g);
        }
    }

    /// Why the outbox stopped, if it did.
    pub fn failed(&self) -> Option<String> {
        lock(&self.shared.0).failed.clone()
    }

    /// Stops at once: the queue is dropped and a write in progress fails (the peer is gone).
    pub fn abandon(&self) {
        let mut s = lock(&self.shared.0);
        s.failed.get_or_insert_with(|| "the connection was closed".into());
        s.queue.clear();
        drop(s);
        self.shared.1.notify_all();
        let _ = self.conn.shutdown(Shutdown::Write);
    }
}

impl Drop for Outbox {
    fn drop(&mut self) {
        lock(&self.shared.0).closed = true;
        self.shared.1.notify_all();
    }
}

fn write_loop(mut conn: TcpStream, shared: &(Mutex<State>, Condvar), stall: Duration, on_fail: OnFail) {
    let (m, cv) = shared;
    loop {
        let mut s = lock(m);
        let next = loop {
            if s.failed.is_some() {
                return;
            }
            if let Some(q) = s.queue.pop_front() {
                break q;
            }
            if s.closed {
                return;
            }
            s = cv.wait(s).unwrap_or_else(|p| p.into_inner());
        };
        s.writing = true;
        drop(s);
        let written = write_frame(&mut conn, &next.frame, stall);
        let mut s = lock(m);
        s.writing = false;
        if let Err(e) = written {
            let stalled = matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut);
            let why = if stalled { format!("no progress for {stall:?}") } else { e.to_string() };
            let first = s.failed.is_none();
            s.failed.get_or_insert_with(|| why.clone());
            s.queue.clear();
            drop(s);
            cv.notify_all();
            if first {
                on_fail(Failed { what: next.what, stalled, why });
            }
            return;
        }
        drop(s);
        cv.notify_all();
    }
}

/// Writes the length prefix and `frame` in pieces; a piece that makes no progress for
/// `stall` (the socket's write timeout) is an error.
fn write_frame(conn: &mut TcpStream, frame: &[u8], stall: Duration) -> io::Result<()> {
    let len = u32::try_from(frame.len())
        .map_err(|_| wire::invalid(format!("{} bytes do not fit a length prefix", frame.len())))?;
    write_all_progressing(conn, &len.to_le_bytes(), stall)?;
    frame.chunks(PIECE).try_for_each(|piece| write_all_progressing(conn, piece, stall))
}

/// `write_all` where every write must move some bytes within `stall` (the socket's write
/// timeout makes a write without progress return WouldBlock).
fn write_all_progressing(conn: &mut TcpStream, mut buf: &[u8], stall: Duration) -> io::Result<()> {
    while !buf.is_empty() {
        match conn.write(buf) {
            Ok(0) => return Err(io::Error::new(io::ErrorKind::WriteZero, "the connection accepts no more bytes")),
            Ok(n) => buf = &buf[n..],
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => {
                return Err(io::Error::new(io::ErrorKind::TimedOut, format!("no progress for {stall:?}")));
            }
            Err(e) => return Err(e),
        }
    }
    Ok(())
}
