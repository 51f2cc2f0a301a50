//! A small TCP key-value store for the processes of one run (`fuser-run --launch`, or any
//! launcher that sets RANK / WORLD_SIZE / MASTER_ADDR / MASTER_PORT): rank 0 serves it, every
//! rank (rank 0 too) is a client. Values are byte strings set once; `get` blocks until the key
//! exists or the deadline passes. It carries NCCL unique ids, the output pieces and statistics
//! that rank 0 gathers.
//!
//! Wire format, both directions, per request: `op: u8` (`b'S'` set, `b'G'` get), then
//! length-prefixed (u32 little-endian) key and, for a set, the value, for a get the longest
//! wait in milliseconds (u32); the reply to a get is `found: u8` then the length-prefixed value;
//! to a set, one byte `1`.

use crate::error::{RtError, RtResult};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

type Table = Arc<(Mutex<HashMap<String, Vec<u8>>>, Condvar)>;

fn io_err(what: &str, e: std::io::Error) -> RtError {
    RtError::new(format!("store: {what}: {e}"))
}

fn write_bytes(s: &mut TcpStream, b: &[u8]) -> std::io::Result<()> {
    s.write_all(&(b.len() as u32).to_le_bytes())?;
    s.write_all(b)
}

fn read_bytes(s: &mut TcpStream) -> std::io::Result<Vec<u8>> {
    let mut len = [0u8; 4];
    s.read_exact(&mut len)?;
    let mut b = vec![0u8; u32::from_le_bytes(len) as usize];
    s.read_exact(&mut b)?;
    Ok(b)
}

/// Serves the store on `listener` from background threads (for the life of the process).
fn serve(listener: TcpListener, table: Table) {
    std::thread::spawn(move || {
        for conn in listener.incoming().flatten() {
            let table = table.clone();
            std::thread::spawn(move || {
                let _ = handle(conn, &table);
            });
        }
    });
}

fn handle(mut s: TcpStream, table: &Table) -> std::io::Result<()> {
    loop {
        let mut op = [0u8; 1];
        if s.read_exact(&mut op).is_err() {
            return Ok(()); // the client went away
        }
        let key = String::from_utf8_lossy(&read_bytes(&mut s)?).into_owned();
        match op[0] {
            b'S' => {
                let value = read_bytes(&mut s)?;
                table.0.lock().unwrap_or_else(|p| p.into_inner()).insert(key, value);
                table.1.notify_all();
                s.write_all(&[1])?;
            }
            _ => {
                let mut wait = [0u8; 4];
                s.read_exact(&mut wait)?;
                let deadline = Instant::now() + Duration::from_millis(u32::from_le_bytes(wait) as u64);
                let mut t = table.0.lock().unwrap_or_else(|p| p.into_inner());
                loop {
                    if let Some(v) = t.get(&key) {
                        let v = v.clone();
                        drop(t);
                        s.write_all(&[1])?;
                        write_bytes(&mut s, &v)?;
                        break;
                    }
                    let now = Instant::now();
                    if now >= deadline {
                        drop(t);
                        s.write_all(&[0])?;
                        write_bytes(&mut s, &[])?;
                        break;
                    }
                    t = table.1.wait_timeout(t, deadline - now).map(|(g, _)| g).unwrap_or_else(|p| p.into_inner().0);
                }
            }
        }
    }
}

/// A client of the run's store.
pub struct Store {
    conn: Mutex<TcpStream>,
    timeout: Duration,
}

impl Store {
    /// Rank 0 serves at `addr` and connects; other ranks connect (retrying until `timeout`
    /// while rank 0 starts).
    pub fn connect(addr: &str, rank: usize, timeout: Duration) -> RtResult<Store> {
        let sock: SocketAddr = addr
            .to_socket_addrs()
            .map_err(|e| io_err(&format!("bad address {addr}"), e))?
            .next()
            .ok_or_else(|| RtError::new(format!("store: no address for {addr}")))?;
        if rank == 0 {
            let listener = TcpListener::bind(sock).map_err(|e| io_err(&format!("cannot listen on {sock}"), e))?;
            serve(listener, Arc::new((Mutex::new(HashMap::new()), Condvar::new())));
        }
        let deadline = Instant::now() + timeout;
        loop {
            match TcpStream::connect_timeout(&sock, Duration::from_secs(1)) {
                Ok(conn) => {
                    let _ = conn.set_nodelay(true);
                    return Ok(Store { conn: Mutex::new(conn), timeout });
                }
                Err(e) if Instant::now() >= deadline => {
                    return Err(io_err(&format!("rank {rank} cannot reach rank 0 at {sock}"), e));
                }
                Err(_) => std::thread::sleep(Duration::from_millis(50)),
            }
        }
    }

    pub fn set(&self, key: &str, value: &[u8]) -> RtResult<()> {
        let mut c = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        let io = |c: &mut TcpStream| -> std::io::Result<()> {
            c.write_all(b"S")?;
            write_bytes(c, key.as_bytes())?;
            write_bytes(c, value)?;
            let mut ack = [0u8; 1];
            c.read_exact(&mut ack)
        };
        io(&mut c).map_err(|e| io_err(&format!("set {key}"), e))
    }

    /// The value of `key`, waiting for another rank to set it (up to the store's timeout).
    pub fn get(&self, key: &str) -> RtResult<Vec<u8>> {
        let mut c = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        let wait_ms = self.timeout.as_millis().min(u32::MAX as u128) as u32;
        {
            let io = |c: &mut TcpStream| -> std::io::Result<(bool, Vec<u8>)> {
                c.write_all(b"G")?;
                write_bytes(c, key.as_bytes())?;
                c.write_all(&wait_ms.to_le_bytes())?;
                let mut found = [0u8; 1];
                c.read_exact(&mut found)?;
                Ok((found[0] == 1, read_bytes(c)?))
            };
            match io(&mut c).map_err(|e| io_err(&format!("get {key}"), e))? {
                (true, v) => Ok(v),
                (false, _) => Err(RtError::new(format!(
                    "store: nobody set '{key}' within {} s (did a rank fail?)",
                    self.timeout.as_secs_f64()
                ))),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_exchange_values_through_rank_0() {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let addr = format!("127.0.0.1:{port}");
        let server = Store::connect(&addr, 0, Duration::from_secs(5)).unwrap();
        let a2 = addr.clone();
        let client = std::thread::spawn(move || {
            let c = Store::connect(&a2, 1, Duration::from_secs(5)).unwrap();
            c.set("from1", b"hello").unwrap();
            c.get("from0").unwrap()
        });
        assert_eq!(server.get("from1").unwrap(), b"hello");
        server.set("from0", &[1, 2, 3]).unwrap();
        assert_eq!(client.join().unwrap(), vec![1, 2, 3]);
    }
}
