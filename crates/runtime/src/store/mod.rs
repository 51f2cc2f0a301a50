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
//! Lengths are bounded ([`wire`]); the server's limits and logging are in [`server`].

pub mod server;
pub mod token;
pub mod wire;

use crate::error::{RtError, RtResult};
use server::{Log, Server};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::AtomicUsize;
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

impl Store {
    /// Rank 0 serves at `cfg.addr` and connects; other ranks connect (retrying until the
    /// timeout while rank 0 starts) and present the token.
    pub fn connect(cfg: &StoreConfig) -> RtResult<Store> {
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
                max_connections: 2 * cfg.world + 8,
                live: AtomicUsize::new(0),
                log: cfg.log.clone(),
            };
            server::serve(listener, Arc::new(server));
        }
        let mut conn = connect_retrying(sock, cfg.rank, Instant::now() + cfg.timeout)?;
        hello(&mut conn, &cfg.token).map_err(|e| {
            io_err(&format!("rank {} was refused by rank 0 at {sock} (does {TOKEN_VAR} differ?)", cfg.rank), e)
        })?;
        Ok(Store { conn: Mutex::new(conn), timeout: cfg.timeout })
    }

    /// Sets `key` once; a second set of the same key, by any rank, is an error.
    pub fn set(&self, key: &str, value: &[u8]) -> RtResult<()> {
        let mut c = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        let io = |c: &mut TcpStream| -> std::io::Result<Option<String>> {
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

fn connect_retrying(sock: SocketAddr, rank: usize, deadline: Instant) -> RtResult<TcpStream> {
    loop {
        match TcpStream::connect_timeout(&sock, Duration::from_secs(1)) {
            Ok(conn) => {
                let _ = conn.set_nodelay(true);
                return Ok(conn);
            }
            Err(e) if Instant::now() >= deadline => {
                return Err(io_err(&format!("rank {rank} cannot reach rank 0 at {sock}"), e));
            }
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}

fn hello(conn: &mut TcpStream, token: &str) -> std::io::Result<()> {
    wire::send_hello(conn, token)?;
    let mut ok = [0u8; 1];
    conn.read_exact(&mut ok)?;
    if ok[0] != wire::OK {
        return Err(wire::invalid("the store did not accept the hello"));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
