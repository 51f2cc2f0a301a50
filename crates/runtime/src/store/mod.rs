//! A small TCP key-value store for the processes of one run (`fuser-run --launch`, or any
//! launcher that sets RANK / WORLD_SIZE / MASTER_ADDR / MASTER_PORT and FUSER_STORE_TOKEN):
//! rank 0 serves it, every rank (rank 0 too) is a client. Values are byte strings set once;
//! `get` blocks until the key exists or the deadline passes. It carries NCCL unique ids, the
//! output pieces and statistics that rank 0 gathers.
//!
//! The store listens on a network port, so it treats every connection as untrusted: a client
//! first sends the magic `FUSR`, the protocol version and the run's token ([`token`]); the
//! server answers one byte `1` or drops the connection. Then, per request: `op: u8` (`b'S'`
//! set, `b'G'` get), the length-prefixed (u32 little-endian) key and, for a set, the value,
//! for a get the longest wait in milliseconds (u32). The reply to a get is `found: u8` and
//! the length-prefixed value; to a set `1`, or `0` and a message (the key was set before).
//! Lengths are bounded ([`wire`]); the server's limits and logging are in [`server`], the
//! admission of connections (the hello's deadline, pending and joined slots) in [`gate`].
//!
//! A client retries until its timeout when the server is not there yet, drops its
//! connection before the hello completed (it was evicted by strangers' connections) or
//! answers BUSY; an answer `0` (a wrong token) is final. Every read of a client is bounded,
//! so a stopped rank 0 makes a request fail after its wait plus [`REPLY_SLACK`].

pub mod gate;
pub mod port;
pub mod server;
pub mod token;
pub mod wire;

use crate::error::{RtError, RtResult};
use gate::{Admission, Gate};
pub use port::free_port;
use server::{Log, Server};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};
pub use token::{TOKEN_VAR, new_token};

fn io_err(what: &str, e: std::io::Error) -> RtError {
    RtError::new(format!("store: {what}: {e}"))
}

/// How a process joins the run's store.
#[derive(Clone)]
pub struct StoreConfig {
    /// `host:port` where rank 0 serves.
    pub addr: String,
    pub rank: usize,
    /// Ranks of the run (bounds the connections rank 0 serves).
    pub world: usize,
    /// The run's secret ([`token`]).
    pub token: String,
    /// How long to retry connecting, and the longest wait of a `get`.
    pub timeout: Duration,
    /// Where rank 0 reports dropped connections.
    pub log: Log,
}

/// A client of the run's store.
pub struct Store {
    conn: Mutex<TcpStream>,
    timeout: Duration,
}

/// How much longer than the wait it asked for a client waits for a reply (rank 0 is busy,
/// the network slow) before it gives up on rank 0.
pub const REPLY_SLACK: Duration = Duration::from_secs(10);

impl Store {
    /// Rank 0 serves at `cfg.addr` and connects; other ranks connect (retrying until the
    /// timeout while rank 0 starts) and present the token.
    pub fn connect(cfg: &StoreConfig) -> RtResult<Store> {
        Store::connect_admitting(cfg, Admission::for_world(cfg.world))
    }

    /// [`Store::connect`] with rank 0's server admitting connections as `admission` says
    /// (tests shorten the hello's deadline).
    pub fn connect_admitting(cfg: &StoreConfig, admission: Admission) -> RtResult<Store> {
        token::check_token(&cfg.token).map_err(RtError::new)?;
        let sock: SocketAddr = cfg
            .addr
            .to_socket_addrs()
            .map_err(|e| io_err(&format!("bad address {}", cfg.addr), e))?
            .next()
            .ok_or_else(|| RtError::new(format!("store: no address for {}", cfg.addr)))?;
        if cfg.rank == 0 {
            let listener = TcpListener::bind(sock).map_err(|e| io_err(&format!("cannot listen on {sock}"), e))?;
            let server = Server {
                table: Arc::new((Mutex::new(HashMap::new()), Condvar::new())),
                token: cfg.token.as_bytes().to_vec(),
                gate: Gate::new(admission, "store", cfg.log.clone()),
            };
            server::serve(listener, Arc::new(server));
        }
        let conn = join(sock, cfg.rank, &cfg.token, Instant::now() + cfg.timeout)?;
        Ok(Store { conn: Mutex::new(conn), timeout: cfg.timeout })
    }

    /// Sets `key` once; a second set of the same key, by any rank, is an error.
    pub fn set(&self, key: &str, value: &[u8]) -> RtResult<()> {
        let mut c = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        let io = |c: &mut TcpStream| -> std::io::Result<Option<String>> {
            c.set_read_timeout(Some(REPLY_SLACK))?;
            c.set_write_timeout(Some(REPLY_SLACK))?;
            let mut req = Vec::with_capacity(9 + key.len() + value.len());
            req.push(wire::OP_SET);
            wire::write_bytes(&mut req, key.as_bytes())?;
            wire::write_bytes(&mut req, value)?;
            c.write_all(&req)?;
            let mut ack = [0u8; 1];
            c.read_exact(&mut ack)?;
            if ack[0] == wire::OK {
                return Ok(None);
            }
            let why = wire::read_bounded(c, wire::MAX_KEY * 2, "message")?;
            Ok(Some(String::from_utf8_lossy(&why).into_owned()))
        };
        match io(&mut c).map_err(|e| io_err(&format!("set {key}"), e))? {
            None => Ok(()),
            Some(why) => Err(RtError::new(format!("store: set {key}: {why}"))),
        }
    }

    /// The value of `key`, waiting for another rank to set it (up to the store's timeout).
    pub fn get(&self, key: &str) -> RtResult<Vec<u8>> {
        self.get_within(key, self.timeout)?.ok_or_else(|| {
            RtError::new(format!(
                "store: nobody set '{key}' within {} s (did a rank fail?)",
                self.timeout.as_secs_f64()
            ))
        })
    }

    /// The value of `key`, waiting at most `wait` for another rank to set it; `None` when
    /// nobody did in time.
    pub fn get_within(&self, key: &str, wait: Duration) -> RtResult<Option<Vec<u8>>> {
        let mut c = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        let wait_ms = wait.as_millis().min(u32::MAX as u128) as u32;
        let io = |c: &mut TcpStream| -> std::io::Result<(bool, Vec<u8>)> {
            c.set_read_timeout(Some(Duration::from_millis(wait_ms as u64) + REPLY_SLACK))?;
            c.set_write_timeout(Some(REPLY_SLACK))?;
            let mut req = Vec::with_capacity(9 + key.len());
            req.push(wire::OP_GET);
            wire::write_bytes(&mut req, key.as_bytes())?;
            req.extend_from_slice(&wait_ms.to_le_bytes());
            c.write_all(&req)?;
            let mut found = [0u8; 1];
            c.read_exact(&mut found)?;
            Ok((found[0] == wire::OK, wire::read_bounded(c, wire::MAX_VALUE, "value")?))
        };
        match io(&mut c).map_err(|e| io_err(&format!("get {key}"), e))? {
            (true, v) => Ok(Some(v)),
            (false, _) => Ok(None),
        }
    }
}

/// Connects to rank 0's store at `sock` and presents `token`, retrying until `deadline`
/// while rank 0 is not listening yet, drops the connection before answering (strangers'
/// connections evicted it) or answers BUSY.
fn join(sock: SocketAddr, rank: usize, token: &str, deadline: Instant) -> RtResult<TcpStream> {
    loop {
        let last;
        let left = deadline.saturating_duration_since(Instant::now());
        match TcpStream::connect_timeout(&sock, left.clamp(Duration::from_millis(10), Duration::from_secs(1))) {
            Ok(mut conn) => {
                let _ = conn.set_nodelay(true);
                match hello(&mut conn, token, left.max(Duration::from_millis(10))) {
                    Ok(()) => return Ok(conn),
                    Err(Hello::Refused) => {
                        return Err(RtError::new(format!(
                            "store: rank {rank} was refused by rank 0 at {sock}: wrong token (does {TOKEN_VAR} differ?)"
                        )));
                    }
                    Err(Hello::Busy) => last = "rank 0 serves too many connections".into(),
                    Err(Hello::Io(e)) => last = unanswered(&e),
                }
            }
            Err(e) => last = format!("cannot reach rank 0: {e}"),
        }
        if Instant::now() >= deadline {
            return Err(RtError::new(format!("store: rank {rank} could not join rank 0's store at {sock}: {last}")));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Why a hello got no answer, in words.
fn unanswered(e: &std::io::Error) -> String {
    use std::io::ErrorKind::*;
    match e.kind() {
        WouldBlock | TimedOut => "rank 0 did not answer the hello in time (is its process stopped?)".into(),
        UnexpectedEof | ConnectionReset | ConnectionAborted | BrokenPipe => {
            "rank 0 closed the connection before answering the hello".into()
        }
        _ => format!("the hello was not answered: {e}"),
    }
}

/// Why a hello failed.
enum Hello {
    /// A wrong token (final).
    Refused,
    /// Every slot taken (retry).
    Busy,
    /// No answer (retry).
    Io(std::io::Error),
}

fn hello(conn: &mut TcpStream, token: &str, wait: Duration) -> Result<(), Hello> {
    conn.set_read_timeout(Some(wait)).map_err(Hello::Io)?;
    conn.set_write_timeout(Some(wait)).map_err(Hello::Io)?;
    wire::send_hello(conn, token).map_err(Hello::Io)?;
    let mut ok = [0u8; 1];
    conn.read_exact(&mut ok).map_err(Hello::Io)?;
    match ok[0] {
        wire::OK => Ok(()),
        wire::BUSY => Err(Hello::Busy),
        _ => Err(Hello::Refused),
    }
}

#[cfg(test)]
pub(crate) mod tests;
