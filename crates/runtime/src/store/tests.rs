//! The store against well-behaved ranks and against what else may reach its port: garbage,
//! an HTTP request, wrong tokens, oversized lengths, duplicate sets, too many connections.
//! After each, a proper client must still be served.

use super::*;

const TOKEN: &str = "0123456789abcdef0123456789abcdef";

struct Live {
    addr: String,
    rank0: Store,
    logged: Arc<Mutex<Vec<String>>>,
}

fn config(addr: &str, rank: usize, token: &str, logged: &Arc<Mutex<Vec<String>>>) -> StoreConfig {
    let logged = logged.clone();
    StoreConfig {
        addr: addr.to_string(),
        rank,
        world: 2,
        token: token.to_string(),
        timeout: Duration::from_secs(5),
        log: Arc::new(move |line| logged.lock().unwrap().push(line)),
    }
}

fn live() -> Live {
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let addr = format!("127.0.0.1:{port}");
    let logged = Arc::new(Mutex::new(Vec::new()));
    let rank0 = Store::connect(&config(&addr, 0, TOKEN, &logged)).unwrap();
    Live { addr, rank0, logged }
}

impl Live {
    fn raw(&self) -> TcpStream {
        TcpStream::connect(&self.addr).unwrap()
    }
    /// Sends `bytes` on a fresh connection and reads until the server closes it.
    fn send_and_drain(&self, bytes: &[u8]) -> Vec<u8> {
        let mut c = self.raw();
        c.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
        let _ = c.write_all(bytes);
        let mut back = Vec::new();
        let _ = c.read_to_end(&mut back);
        back
    }
    /// Waits until the server logged a line containing `what`.
    fn logged(&self, what: &str) -> bool {
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if self.logged.lock().unwrap().iter().any(|l| l.contains(what)) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }
    fn still_serves(&self) {
        let key = format!("alive-{}", self.logged.lock().unwrap().len());
        let c = Store::connect(&config(&self.addr, 1, TOKEN, &self.logged)).unwrap();
        c.set(&key, b"yes").unwrap();
        assert_eq!(self.rank0.get(&key).unwrap(), b"yes");
    }
    fn hello(&self, token: &str) -> TcpStream {
        let mut c = self.raw();
        wire::send_hello(&mut c, token).unwrap();
        let mut ok = [0u8; 1];
        c.read_exact(&mut ok).unwrap();
        c
    }
}

#[test]
fn ranks_exchange_values_through_rank_0() {
    let s = live();
    let (addr, logged) = (s.addr.clone(), s.logged.clone());
    let client = std::thread::spawn(move || {
        let c = Store::connect(&config(&addr, 1, TOKEN, &logged)).unwrap();
        c.set("from1", b"hello").unwrap();
        c.get("from0").unwrap()
    });
    assert_eq!(s.rank0.get("from1").unwrap(), b"hello");
    s.rank0.set("from0", &[1, 2, 3]).unwrap();
    assert_eq!(client.join().unwrap(), vec![1, 2, 3]);
}

/// Every copy-engine transfer between processes waits for one store message, so a round trip
/// must cost a loopback exchange (tens of microseconds), not a delayed ACK: with Nagle's
/// algorithm on the server's side a get's reply tail waited ~40 ms for the client's ACK, and
/// these 400 gets took ~16 s.
#[test]
fn round_trips_do_not_wait_for_delayed_acks() {
    const ROUNDS: usize = 200;
    let s = live();
    let (addr, logged) = (s.addr.clone(), s.logged.clone());
    let client = std::thread::spawn(move || {
        let c = Store::connect(&config(&addr, 1, TOKEN, &logged)).unwrap();
        for i in 0..ROUNDS {
            c.set(&format!("ping/{i}"), &[i as u8; 100]).unwrap();
            assert_eq!(c.get(&format!("pong/{i}")).unwrap(), vec![i as u8; 60]);
        }
    });
    let start = Instant::now();
    for i in 0..ROUNDS {
        assert_eq!(s.rank0.get(&format!("ping/{i}")).unwrap(), vec![i as u8; 100]);
        s.rank0.set(&format!("pong/{i}"), &[i as u8; 60]).unwrap();
    }
    client.join().unwrap();
    let per_round = start.elapsed() / ROUNDS as u32;
    // Not a performance bound: a loopback round is well under 1 ms, a delayed ACK per get
    // makes it ~80 ms; 20 ms tells the two apart even on a loaded 2-core machine.
    assert!(per_round < Duration::from_millis(20), "{per_round:?} per ping-pong round");
}

#[test]
fn garbage_and_http_requests_are_dropped_and_logged() {
    let s = live();
    assert!(s.send_and_drain(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n").is_empty());
    assert!(s.logged("bad magic"));
    assert!(s.send_and_drain(&[0xff; 64]).is_empty());
    s.still_serves();
}

#[test]
fn a_wrong_token_is_refused_before_any_request() {
    let s = live();
    let mut wire_bytes = Vec::new();
    wire::send_hello(&mut wire_bytes, "ffffffffffffffffffffffffffffffff").unwrap();
    wire_bytes.push(wire::OP_SET);
    wire::write_bytes(&mut wire_bytes, b"nccl-id").unwrap();
    wire::write_bytes(&mut wire_bytes, b"forged").unwrap();
    assert!(s.send_and_drain(&wire_bytes).is_empty());
    assert!(s.logged("wrong token"));
    let other = Store::connect(&config(&s.addr, 1, "ffffffffffffffffffffffffffffffff", &s.logged));
    let msg = other.err().expect("a client with another token is refused").message;
    assert!(msg.contains(TOKEN_VAR), "{msg}");
    // The forged set never reached the table.
    s.rank0.set("nccl-id", b"real").unwrap();
    s.still_serves();
}

#[test]
fn oversized_lengths_are_refused_without_allocating() {
    let s = live();
    let mut c = s.hello(TOKEN);
    c.write_all(&[wire::OP_SET]).unwrap();
    c.write_all(&u32::MAX.to_le_bytes()).unwrap(); // a 4 GiB key
    let mut back = Vec::new();
    let _ = c.read_to_end(&mut back);
    assert!(s.logged("key of 4294967295 bytes exceeds the limit"));
    s.still_serves();
}

#[test]
fn a_key_is_set_once() {
    let s = live();
    s.rank0.set("result-1", b"first").unwrap();
    let e = s.rank0.set("result-1", b"second").unwrap_err();
    assert!(e.message.contains("already set"), "{}", e.message);
    assert_eq!(s.rank0.get("result-1").unwrap(), b"first");
}

#[test]
fn unknown_requests_are_dropped() {
    let s = live();
    let mut c = s.hello(TOKEN);
    c.write_all(b"X").unwrap();
    let mut back = Vec::new();
    let _ = c.read_to_end(&mut back);
    assert!(s.logged("unknown request 0x58"));
    s.still_serves();
}

#[test]
fn connections_beyond_the_bound_are_dropped() {
    let s = live();
    // world = 2: at most 12 connections; rank 0 holds one.
    let idle: Vec<TcpStream> = (0..11).map(|_| s.hello(TOKEN)).collect();
    assert!(s.send_and_drain(b"FUSR").is_empty());
    assert!(s.logged("more than 12 connections"));
    drop(idle);
    std::thread::sleep(Duration::from_millis(100));
    s.still_serves();
}

#[test]
fn short_tokens_are_refused_at_connect() {
    let logged = Arc::new(Mutex::new(Vec::new()));
    let e = Store::connect(&config("127.0.0.1:1", 1, "short", &logged)).err().unwrap();
    assert!(e.message.contains(TOKEN_VAR), "{}", e.message);
}
