//! The store against well-behaved ranks and against what else may reach its port: garbage,
//! an HTTP request, wrong tokens, oversized lengths, duplicate sets, too many connections.
//! After each, a proper client must still be served.

use super::*;
use gate::Admission;

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
    let port = super::free_port().unwrap();
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
    // Answered `0` (so that a rank can say the tokens differ), then dropped.
    assert_eq!(s.send_and_drain(&wire_bytes), vec![wire::REFUSED]);
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
fn joined_connections_beyond_the_bound_are_answered_busy() {
    let s = live();
    // world = 2: at most 12 joined connections; rank 0 holds one.
    let idle: Vec<TcpStream> = (0..11).map(|_| s.hello(TOKEN)).collect();
    let mut c = s.raw();
    wire::send_hello(&mut c, TOKEN).unwrap();
    let mut answer = Vec::new();
    c.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let _ = c.read_to_end(&mut answer);
    assert_eq!(answer, vec![wire::BUSY]);
    assert!(s.logged("more than 12 joined connections"));
    drop(idle);
    std::thread::sleep(Duration::from_millis(100));
    s.still_serves();
}

/// A client that sends `bytes` one at a time, one every `every`, until the server closes the
/// connection: how long the server kept it (`None`: still open after `give_up`).
pub(crate) fn trickle(
    addr: std::net::SocketAddr,
    bytes: Vec<u8>,
    every: Duration,
    give_up: Duration,
) -> std::thread::JoinHandle<Option<Duration>> {
    std::thread::spawn(move || {
        let start = Instant::now();
        let mut c = TcpStream::connect(addr).unwrap();
        c.set_read_timeout(Some(every)).unwrap();
        for b in bytes.iter().cycle() {
            if start.elapsed() > give_up {
                return None;
            }
            if c.write_all(&[*b]).is_err() {
                return Some(start.elapsed());
            }
            let mut back = [0u8; 1];
            match c.read(&mut back) {
                Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {}
                // Closed (or answered: a hello cut this short has no answer).
                _ => return Some(start.elapsed()),
            }
        }
        None
    })
}

/// Clients that send their hello one byte at a time kept their connection slot for as long
/// as each byte came within the hello timeout (it applied per read): 12 of them filled the
/// store and the next rank was dropped and told its token differed. Now the whole hello has
/// one deadline, and strangers still presenting theirs are evicted for newer connections.
#[test]
fn slow_hellos_lose_their_slot_and_never_keep_a_rank_out() {
    let port = super::free_port().unwrap();
    let addr = format!("127.0.0.1:{port}");
    let logged = Arc::new(Mutex::new(Vec::new()));
    let admission = Admission { hello_timeout: Duration::from_millis(1500), max_pending: 4, max_joined: 12 };
    let rank0 = Store::connect_admitting(&config(&addr, 0, TOKEN, &logged), admission).unwrap();
    let mut hello = Vec::new();
    wire::send_hello(&mut hello, TOKEN).unwrap();
    let sock: std::net::SocketAddr = addr.parse().unwrap();
    let slow: Vec<_> =
        (0..12).map(|_| trickle(sock, hello.clone(), Duration::from_millis(250), Duration::from_secs(8))).collect();
    std::thread::sleep(Duration::from_millis(500));
    let start = Instant::now();
    let rank1 = Store::connect(&config(&addr, 1, TOKEN, &logged)).unwrap();
    assert!(start.elapsed() < Duration::from_secs(1), "rank 1 joined after {:?}", start.elapsed());
    rank1.set("from1", b"in").unwrap();
    assert_eq!(rank0.get("from1").unwrap(), b"in");
    for (i, t) in slow.into_iter().enumerate() {
        let kept = t.join().unwrap();
        // The whole hello's deadline (1.5 s), not one per byte (the hello takes 10 s this way).
        assert!(kept.is_some_and(|k| k < Duration::from_millis(2500)), "slow client {i} kept its slot {kept:?}");
    }
    let lines = logged.lock().unwrap().join("\n");
    assert!(lines.contains("its hello did not arrive within 1.5s"), "{lines}");
    assert!(lines.contains("its hello was still incomplete when more than 4 connections"), "{lines}");
}

/// A rank answered BUSY (every joined slot taken) retries until its timeout.
#[test]
fn a_rank_turned_away_while_the_store_is_full_retries() {
    let port = super::free_port().unwrap();
    let addr = format!("127.0.0.1:{port}");
    let logged = Arc::new(Mutex::new(Vec::new()));
    let admission = Admission { max_joined: 2, ..Admission::for_world(2) };
    let rank0 = Store::connect_admitting(&config(&addr, 0, TOKEN, &logged), admission).unwrap();
    let mut other = TcpStream::connect(&addr).unwrap();
    wire::send_hello(&mut other, TOKEN).unwrap();
    let mut ok = [0u8; 1];
    other.read_exact(&mut ok).unwrap();
    assert_eq!(ok[0], wire::OK);
    let (a, l) = (addr.clone(), logged.clone());
    let rank1 = std::thread::spawn(move || Store::connect(&config(&a, 1, TOKEN, &l)).map(|s| s.set("k", b"v")));
    std::thread::sleep(Duration::from_millis(600));
    assert!(logged.lock().unwrap().iter().any(|l| l.contains("more than 2 joined connections")));
    drop(other);
    rank1.join().unwrap().unwrap().unwrap();
    assert_eq!(rank0.get("k").unwrap(), b"v");
}

/// A rank 0 that stopped (SIGSTOP) after it started listening: a client's hello and its
/// requests end with an error in time instead of waiting forever.
#[test]
fn a_silent_rank_0_is_an_error_in_time() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let logged = Arc::new(Mutex::new(Vec::new()));
    let cfg = StoreConfig { timeout: Duration::from_millis(800), ..config(&addr, 1, TOKEN, &logged) };
    let start = Instant::now();
    let e = Store::connect(&cfg).err().expect("nobody answers").message;
    assert!(start.elapsed() < Duration::from_secs(3), "took {:?}", start.elapsed());
    assert!(e.contains("rank 1 could not join rank 0's store") && e.contains("did not answer the hello"), "{e}");
    drop(listener);
}

#[test]
fn short_tokens_are_refused_at_connect() {
    let logged = Arc::new(Mutex::new(Vec::new()));
    let e = Store::connect(&config("127.0.0.1:1", 1, "short", &logged)).err().unwrap();
    assert!(e.message.contains(TOKEN_VAR), "{}", e.message);
}
