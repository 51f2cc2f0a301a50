//! Rank 0's side of the store: accepts connections on a listener from background threads,
//! checks each one's hello and token before anything else, and serves set/get requests.
//!
//! Invariants: a connection that fails the handshake, sends a malformed request, an oversized
//! length or an unknown opcode is dropped with one logged line and never touches the table
//! (a wrong token is answered `0` first, so that the client can say the tokens differ);
//! connections are admitted by a [`Gate`] (the whole hello within its deadline, pending and
//! joined connections bounded separately, the oldest pending one evicted for a new one);
//! a key is set once (a second set is refused and reported to the client); the serving
//! threads never panic on input; every reply leaves in one write on a `TCP_NODELAY` socket
//! (clients block on each reply: the copy-engine collectives between processes wait for one
//! get per pull, and a reply split across Nagle-held segments cost a delayed ACK, ~40 ms, each).

use super::gate::{Gate, Pass};
use super::wire::{self, BUSY, OK, OP_GET, OP_SET, REFUSED};
use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

pub use super::gate::Log;

pub(super) type Table = Arc<(Mutex<HashMap<String, Vec<u8>>>, Condvar)>;

/// What the serving threads share.
pub(super) struct Server {
    pub table: Table,
    pub token: Vec<u8>,
    pub gate: Arc<Gate>,
}

/// Serves `listener` from background threads for the life of the process.
pub(super) fn serve(listener: TcpListener, server: Arc<Server>) {
    std::thread::spawn(move || {
        for conn in listener.incoming().flatten() {
            let peer = conn.peer_addr().map_or_else(|_| "?".to_string(), |a| a.to_string());
            let pass = server.gate.arrive(&conn);
            let s = server.clone();
            let spawned = std::thread::Builder::new().name("fuser store conn".into()).spawn(move || {
                if let Err(e) = serve_connection(conn, pass, &s) {
                    s.gate.log(format!("dropped connection from {peer}: {e}"));
                }
            });
            if spawned.is_err() {
                server.gate.log("cannot start a connection thread");
            }
        }
    });
}

/// One connection: the handshake, then requests until the client leaves.
fn serve_connection(mut s: TcpStream, mut pass: Pass, server: &Server) -> io::Result<()> {
    let token = match wire::read_hello(&mut pass.timed(&s)) {
        Ok(t) => t,
        // Evicted for a newer connection: the gate logged it.
        Err(_) if pass.evicted() => return Ok(()),
        Err(e) => return Err(pass.hello_error(e)),
    };
    if !wire::same_secret(&token, &server.token) {
        let _ = s.write_all(&[REFUSED]);
        return Err(wire::invalid("wrong token"));
    }
    if let Err(e) = pass.join() {
        let _ = s.write_all(&[BUSY]);
        return Err(e);
    }
    // Replies are small and each is awaited by a blocked client: without TCP_NODELAY, Nagle's
    // algorithm holds a reply's tail until the client's delayed ACK (about 40 ms on Linux).
    s.set_nodelay(true)?;
    s.write_all(&[OK])?;
    s.set_read_timeout(None)?;
    loop {
        let mut op = [0u8; 1];
        if s.read_exact(&mut op).is_err() {
            return Ok(()); // the client went away
        }
        match op[0] {
            OP_SET => serve_set(&mut s, &server.table)?,
            OP_GET => serve_get(&mut s, &server.table)?,
            other => return Err(wire::invalid(format!("unknown request 0x{other:02x}"))),
        }
    }
}

fn serve_set(s: &mut TcpStream, table: &Table) -> io::Result<()> {
    let key = wire::read_key(s)?;
    let value = wire::read_bounded(s, wire::MAX_VALUE, "value")?;
    let mut t = table.0.lock().unwrap_or_else(|p| p.into_inner());
    if t.contains_key(&key) {
        drop(t);
        return reply(s, REFUSED, format!("key '{key}' was already set").as_bytes());
    }
    t.insert(key, value);
    drop(t);
    table.1.notify_all();
    s.write_all(&[OK])
}

fn serve_get(s: &mut TcpStream, table: &Table) -> io::Result<()> {
    let key = wire::read_key(s)?;
    let mut wait = [0u8; 4];
    s.read_exact(&mut wait)?;
    let deadline = Instant::now() + Duration::from_millis(u32::from_le_bytes(wait) as u64);
    let mut t = table.0.lock().unwrap_or_else(|p| p.into_inner());
    loop {
        if let Some(v) = t.get(&key) {
            let v = v.clone();
            drop(t);
            return reply(s, OK, &v);
        }
        let now = Instant::now();
        if now >= deadline {
            drop(t);
            return reply(s, REFUSED, &[]);
        }
        t = table.1.wait_timeout(t, deadline - now).map(|(g, _)| g).unwrap_or_else(|p| p.into_inner().0);
    }
}

/// Sends the status byte and the length-prefixed `body` in one write (one segment for small
/// replies, so the client never waits on a partial reply).
fn reply(s: &mut TcpStream, status: u8, body: &[u8]) -> io::Result<()> {
    let mut out = Vec::with_capacity(5 + body.len());
    out.push(status);
    wire::write_bytes(&mut out, body)?;
    s.write_all(&out)
}
