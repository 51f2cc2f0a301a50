//! Tests of multi-process communication with the hub and the links of N ranks in this test
//! process: each rank has its own watchdog, link and communicator, as a process would, and
//! everything between them goes over TCP through the hub.

use super::fingerprint::Fingerprint;
use super::hub::{Hub, HubConfig};
use super::link::Link;
use crate::buffer::{Buffer, View};
use crate::cpu::comm::{Communicator, P2pOp, PostInfo, Request};
use crate::dtype::DType;
use crate::error::{OpKey, RtError, RtResult};
use crate::store::gate::Admission;
use crate::store::wire;
use crate::watchdog::Watchdog;
use fuser_dialects::comm::attrs::{Backend, Protocol};
use fuser_dialects::reduction::ReductionKind;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TOKEN: &str = "0123456789abcdef-test";

fn at(rank: usize) -> PostInfo {
    PostInfo::new(rank, OpKey { index: 0, loc: Some("p.mlir:3:4".into()), name: "comm.op".into() })
}

fn view_of(values: &[f64]) -> View {
    let v = View::whole(Buffer::new(DType::F32, values.len()), &[values.len()]).unwrap();
    v.write(values).unwrap();
    v
}

fn input(rank: usize, len: usize) -> Vec<f64> {
    (0..len).map(|i| (100 * rank + i) as f64).collect()
}

/// A hub whose dropped-connection lines are collected.
fn hub(world: usize) -> (Arc<Hub>, SocketAddr, Arc<Mutex<Vec<String>>>) {
    hub_admitting(world, Admission::for_world(world))
}

fn hub_admitting(world: usize, admission: Admission) -> (Arc<Hub>, SocketAddr, Arc<Mutex<Vec<String>>>) {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let l2 = lines.clone();
    let cfg = HubConfig {
        world,
        token: TOKEN.into(),
        timeout: Duration::from_secs(10),
        admission,
        log: Arc::new(move |s| l2.lock().unwrap().push(s)),
    };
    let (hub, addr) = Hub::start("127.0.0.1:0".parse().unwrap(), cfg).unwrap();
    (hub, addr, lines)
}

/// The communicator of rank `rank` joined to the hub at `addr`.
fn join(addr: SocketAddr, world: usize, rank: usize, timeout: Duration) -> RtResult<Arc<Communicator>> {
    join_as(addr, world, (rank, &Fingerprint::default()), timeout)
}

/// [`join`] with a fingerprint.
fn join_as(
    addr: SocketAddr,
    world: usize,
    (rank, fingerprint): (usize, &Fingerprint),
    timeout: Duration,
) -> RtResult<Arc<Communicator>> {
    let watchdog = Watchdog::new(timeout);
    let deadline = Instant::now() + Duration::from_secs(10);
    let link = Link::connect(addr, TOKEN, (rank, fingerprint), watchdog.clone(), deadline, None)?;
    link.wait_start(deadline)?;
    Ok(Communicator::with_remote(world, watchdog, link))
}

/// Runs `f` on `n` ranks, each a thread with its own communicator linked to one hub.
fn on_linked_ranks<T: Send>(n: usize, timeout_ms: u64, f: impl Fn(usize, &Communicator) -> T + Sync) -> Vec<T> {
    let (_hub, addr, _) = hub(n);
    std::thread::scope(|s| {
        let f = &f;
        let handles: Vec<_> = (0..n)
            .map(|r| {
                s.spawn(move || {
                    let comm = join(addr, n, r, Duration::from_millis(timeout_ms)).unwrap();
                    f(r, &comm)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

/// Waits at once when the op blocks its stream, as a stream task does.
fn post_on_stream(comm: &Communicator, r: RtResult<Request>) -> RtResult<Request> {
    let req = r?;
    if req.blocks_stream() {
        req.wait(comm.deadline())?;
    }
    Ok(req)
}

#[test]
fn collectives_across_links_have_the_in_process_results() {
    let n = 3;
    let outs = on_linked_ranks(n, 5000, |r, c| {
        let team: Vec<usize> = (0..n).collect();
        let sum = view_of(&[0.0; 4]);
        c.allreduce(&at(r), &team, ReductionKind::Sum, &view_of(&input(r, 4)), &sum).unwrap();
        let gathered = view_of(&[0.0; 2 * 3]);
        c.allgather(&at(r), &[2, 0, 1], &view_of(&input(r, 2)), &gathered).unwrap();
        // Rooted at team position 1: only rank 1's output is written.
        let reduced = view_of(&[7.0; 2]);
        c.reduce(&at(r), &team, 1, ReductionKind::Max, &view_of(&input(r, 2)), &reduced).unwrap();
        let transposed = view_of(&[0.0; 3]);
        c.all_to_all(&at(r), &team, &view_of(&input(r, 3)), &transposed).unwrap();
        (sum.read(), gathered.read(), reduced.read(), transposed.read())
    });
    for (r, (sum, gathered, reduced, transposed)) in outs.into_iter().enumerate() {
        assert_eq!(sum, vec![300.0, 303.0, 306.0, 309.0]);
        assert_eq!(gathered, [input(2, 2), input(0, 2), input(1, 2)].concat());
        assert_eq!(reduced, if r == 1 { vec![200.0, 201.0] } else { vec![7.0, 7.0] });
        assert_eq!(transposed, (0..3).map(|j| (100 * j + r) as f64).collect::<Vec<_>>());
    }
}

#[test]
fn a_collective_mismatch_names_the_ranks_on_every_rank() {
    let errors = on_linked_ranks(2, 5000, |r, c| {
        let (input, output) = (view_of(&[1.0; 2]), view_of(&[0.0; 4]));
        let req = if r == 0 {
            c.post_collective(&at(r), &[0, 1], crate::cpu::comm::Collective::Allgather, &input, &output)
        } else {
            c.post_collective(
                &at(r),
                &[0, 1],
                crate::cpu::comm::Collective::Allreduce(ReductionKind::Sum),
                &input,
                &input,
            )
        };
        req.unwrap().wait(c.deadline()).unwrap_err().to_string()
    });
    for e in errors {
        assert!(e.contains("#0 of team [0, 1]: rank 0 posts allgather"), "{e}");
        assert!(e.contains("rank 1 posts allreduce"), "{e}");
    }
}

/// Rank r exchanges a buffer with rank 1 - r, posting in the order `send_first` says.
fn exchange(backend: Backend, protocol: Protocol, send_first: bool, timeout_ms: u64) -> Vec<RtResult<Vec<f64>>> {
    on_linked_ranks(2, timeout_ms, |r, c| {
        let peer = 1 - r;
        let (src, dst) = (view_of(&input(r, 2)), view_of(&[0.0; 2]));
        if backend == Backend::CudaIpc {
            c.share_handles(&at(r), &[(src.clone(), peer)], &[(dst.clone(), peer)])?.wait(c.deadline())?;
        }
        let send = || post_on_stream(c, c.send(&at(r), peer, &src, backend, protocol));
        let recv = || post_on_stream(c, c.recv(&at(r), peer, &dst, backend, protocol));
        let reqs = if send_first { vec![send()?, recv()?] } else { vec![recv()?, send()?] };
        Request::all(&reqs).wait(c.deadline())?;
        Ok(dst.read())
    })
}

fn assert_exchanged(results: Vec<RtResult<Vec<f64>>>) {
    let got: Vec<Vec<f64>> = results.into_iter().map(Result::unwrap).collect();
    assert_eq!(got, vec![input(1, 2), input(0, 2)]);
}

fn assert_stuck_in(results: Vec<RtResult<Vec<f64>>>, what: &str) {
    for (r, result) in results.into_iter().enumerate() {
        let e = result.unwrap_err().to_string();
        assert!(e.contains(&format!("rank {r} waits in {what} rank {}", 1 - r)), "{e}");
    }
}

#[test]
fn cuda_ipc_get_and_put_keep_their_blocking_rules_across_processes() {
    assert_exchanged(exchange(Backend::CudaIpc, Protocol::Get, true, 5000));
    assert_stuck_in(exchange(Backend::CudaIpc, Protocol::Get, false, 300), "recv from");
    assert_exchanged(exchange(Backend::CudaIpc, Protocol::Put, false, 5000));
    assert_stuck_in(exchange(Backend::CudaIpc, Protocol::Put, true, 300), "send to");
}

#[test]
fn nccl_sends_first_deadlock_and_a_group_does_not() {
    assert_stuck_in(exchange(Backend::Nccl, Protocol::Get, true, 300), "send to");
    let outs = on_linked_ranks(2, 5000, |r, c| {
        let (peer, dst) = (1 - r, view_of(&[0.0; 2]));
        let ops = [P2pOp::Send { peer, view: view_of(&input(r, 2)) }, P2pOp::Recv { peer, view: dst.clone() }];
        let g = c.group(&at(r), &ops).unwrap();
        assert!(!g.blocks_stream());
        g.wait(c.deadline()).unwrap();
        dst.read()
    });
    assert_eq!(outs, vec![input(1, 2), input(0, 2)]);
}

#[test]
fn cuda_ipc_without_share_handles_fails_at_post() {
    let errors = on_linked_ranks(2, 5000, |r, c| {
        let v = view_of(&[0.0; 2]);
        if r == 0 {
            c.send(&at(r), 1, &v, Backend::CudaIpc, Protocol::Get).unwrap_err().to_string()
        } else {
            c.recv(&at(r), 0, &v, Backend::CudaIpc, Protocol::Get).unwrap_err().to_string()
        }
    });
    assert!(errors[0].contains("to rank 1 without a comm.share_handles"), "{}", errors[0]);
    assert!(errors[1].contains("from rank 0 without a comm.share_handles"), "{}", errors[1]);
}

#[test]
fn an_abort_of_one_rank_releases_the_others_with_the_cause() {
    let outs = on_linked_ranks(2, 10_000, |r, c| {
        if r == 1 {
            c.abort(RtError::new("boom").on_rank(1));
            return String::new();
        }
        let start = Instant::now();
        let e = c.allreduce(&at(0), &[0, 1], ReductionKind::Sum, &view_of(&[1.0]), &view_of(&[0.0])).unwrap_err();
        assert!(start.elapsed() < Duration::from_secs(5));
        e.to_string()
    });
    assert!(outs[0].contains("aborted: rank 1: boom"), "{}", outs[0]);
}

/// Joins as `rank` by hand; the raw connection.
fn raw_join(addr: SocketAddr, token: &str, rank: u64) -> std::io::Result<(TcpStream, u8)> {
    let mut conn = TcpStream::connect(addr)?;
    wire::send_hello(&mut conn, token)?;
    conn.write_all(&rank.to_le_bytes())?;
    wire::write_bytes(&mut conn, &Fingerprint::default().encode())?;
    let mut ok = [0u8; 1];
    // A refused join is a closed (or reset) connection.
    let answer = match conn.read(&mut ok) {
        Ok(1) => ok[0],
        _ => wire::REFUSED,
    };
    Ok((conn, answer))
}

#[test]
fn a_rank_that_vanishes_is_named_to_the_others_and_to_the_gather() {
    let (hub, addr, _) = hub(2);
    let (conn, ok) = raw_join(addr, TOKEN, 1).unwrap();
    assert_eq!(ok, wire::OK);
    let comm = join(addr, 2, 0, Duration::from_secs(10)).unwrap();
    let req = comm.post_collective(
        &at(0),
        &[0, 1],
        crate::cpu::comm::Collective::Allgather,
        &view_of(&[1.0]),
        &view_of(&[0.0; 2]),
    );
    drop(conn);
    let start = Instant::now();
    let e = req.unwrap().wait(comm.deadline()).unwrap_err().to_string();
    assert!(start.elapsed() < Duration::from_secs(5), "took {:?}", start.elapsed());
    assert!(e.contains("rank 1 left the run before finishing"), "{e}");
    let e = hub.gather(Instant::now() + Duration::from_secs(5)).unwrap_err().to_string();
    assert!(e.contains("rank 1 left the run before finishing"), "{e}");
}

#[test]
fn strangers_and_second_joins_are_dropped_and_logged() {
    let (hub, addr, lines) = hub(2);
    let (_wrong, ok) = raw_join(addr, "not-the-token-of-this-run", 0).unwrap();
    assert_ne!(ok, wire::OK);
    let (_first, ok) = raw_join(addr, TOKEN, 1).unwrap();
    assert_eq!(ok, wire::OK);
    let (_second, ok) = raw_join(addr, TOKEN, 1).unwrap();
    assert_ne!(ok, wire::OK);
    let (_outside, ok) = raw_join(addr, TOKEN, 5).unwrap();
    assert_ne!(ok, wire::OK);
    assert_eq!(hub.missing(), vec![0]);
    let deadline = Instant::now() + Duration::from_secs(5);
    while lines.lock().unwrap().len() < 3 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    let lines = lines.lock().unwrap().join("\n");
    assert!(lines.contains("wrong token"), "{lines}");
    assert!(lines.contains("rank 1 joined twice"), "{lines}");
    assert!(lines.contains("outside the world of 2 ranks"), "{lines}");
}

#[test]
fn a_missing_rank_keeps_the_run_from_starting() {
    let (hub, addr, _) = hub(3);
    let watchdog = Watchdog::new(Duration::from_secs(1));
    let deadline = Instant::now() + Duration::from_secs(5);
    let link = Link::connect(addr, TOKEN, (0, &Fingerprint::default()), watchdog, deadline, None).unwrap();
    let e = link.wait_start(Instant::now() + Duration::from_millis(200)).unwrap_err().to_string();
    assert!(e.contains("did not all join"), "{e}");
    assert_eq!(hub.missing(), vec![1, 2]);
}

#[test]
fn the_hub_describes_what_is_unmatched() {
    let (hub, addr, _) = hub(2);
    let (_rank1, ok) = raw_join(addr, TOKEN, 1).unwrap();
    assert_eq!(ok, wire::OK);
    let comm = join(addr, 2, 0, Duration::from_secs(10)).unwrap();
    let send = comm.send(&at(0), 1, &view_of(&[1.0]), Backend::Nccl, Protocol::Get).unwrap();
    let sum = comm.post_collective(
        &at(0),
        &[0, 1],
        crate::cpu::comm::Collective::Allreduce(ReductionKind::Sum),
        &view_of(&[1.0]),
        &view_of(&[0.0]),
    );
    assert!(!send.is_complete() && !sum.unwrap().is_complete());
    let picture = hub.unmatched().join("; ");
    assert!(picture.contains("allreduce #0 of team [0, 1]: rank 0 posted, rank 1 did not"), "{picture}");
    assert!(picture.contains("rank 0 send to rank 1 at 'comm.op' at p.mlir:3:4"), "{picture}");
}

#[test]
fn proxies_refuse_sizes_a_message_cannot_carry_and_short_data() {
    use super::msg::BufSpec;
    let huge = BufSpec { id: 1, dtype: DType::F64, numel: usize::MAX / 4 };
    let e = super::hub::proxy(&huge, None).unwrap_err().to_string();
    assert!(e.contains("exceeds the"), "{e}");
    let two = BufSpec { id: 2, dtype: DType::F32, numel: 2 };
    assert!(super::hub::proxy(&two, Some(vec![0; 7])).unwrap_err().to_string().contains("7 bytes for 2 elements"));
    let v = super::hub::proxy(&two, Some(1.5f32.to_le_bytes().repeat(2))).unwrap();
    assert_eq!((v.buffer.id, v.read()), (2, vec![1.5, 1.5]));
}

/// The hub's side of issue 22 1a: clients trickling their hello one byte at a time are
/// dropped at the whole hello's deadline or evicted, and the ranks join meanwhile.
#[test]
fn slow_hellos_never_keep_ranks_out_of_the_hub() {
    let admission = Admission { hello_timeout: Duration::from_millis(1500), max_pending: 4, max_joined: 12 };
    let (_hub, addr, lines) = hub_admitting(2, admission);
    let mut hello = Vec::new();
    wire::send_hello(&mut hello, TOKEN).unwrap();
    let slow: Vec<_> = (0..12)
        .map(|_| crate::store::tests::trickle(addr, hello.clone(), Duration::from_millis(250), Duration::from_secs(8)))
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let start = Instant::now();
    let sums: Vec<Vec<f64>> = std::thread::scope(|s| {
        let ranks: Vec<_> = (0..2)
            .map(|r| {
                s.spawn(move || {
                    let c = join(addr, 2, r, Duration::from_secs(5)).unwrap();
                    let sum = view_of(&[0.0; 2]);
                    c.allreduce(&at(r), &[0, 1], ReductionKind::Sum, &view_of(&input(r, 2)), &sum).unwrap();
                    sum.read()
                })
            })
            .collect();
        ranks.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(start.elapsed() < Duration::from_secs(1), "the ranks took {:?}", start.elapsed());
    assert_eq!(sums, vec![vec![100.0, 102.0]; 2]);
    for (i, t) in slow.into_iter().enumerate() {
        let kept = t.join().unwrap();
        assert!(kept.is_some_and(|k| k < Duration::from_millis(2500)), "slow client {i} kept its slot {kept:?}");
    }
    let lines = lines.lock().unwrap().join("\n");
    assert!(lines.contains("its hello did not arrive within 1.5s"), "{lines}");
    assert!(lines.contains("its hello was still incomplete"), "{lines}");
}

/// Issue 22 1c: ranks that present different fingerprints (another program, seed, ...)
/// never start; every rank hears which rank differs and in what.
#[test]
fn ranks_with_different_fingerprints_never_start() {
    use super::fingerprint::Part;
    let part =
        |name: &str, value: &str, decisive| Part { name: name.into(), value: value.into(), decisive, shown: true };
    let fp = |seed: &str| Fingerprint { parts: vec![part("seed", seed, true), part("pass pipeline", "p", false)] };
    let (hub, addr, _) = hub(3);
    let (same, other) = (fp("0"), fp("7"));
    let errors: Vec<String> = std::thread::scope(|s| {
        let ranks: Vec<_> = [(0, &same), (1, &same), (2, &other)]
            .into_iter()
            .map(|(r, f)| s.spawn(move || join_as(addr, 3, (r, f), Duration::from_secs(5)).err().unwrap().to_string()))
            .collect();
        ranks.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for e in &errors {
        assert!(e.contains("rank 2 differs from rank 0 in the seed (7 on rank 2, 0 on rank 0)"), "{e}");
    }
    assert!(hub.refused().is_some());
}

/// A fake hub at the returned address: answers the hello of one rank and starts the run,
/// then never reads again (rank 0's process stopped, or the network down).
fn deaf_hub() -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let (mut c, _) = listener.accept().unwrap();
        wire::read_hello(&mut c).unwrap();
        let mut rank = [0u8; 8];
        c.read_exact(&mut rank).unwrap();
        wire::read_bounded(&mut c, 1 << 16, "fingerprint").unwrap();
        c.write_all(&[wire::OK]).unwrap();
        wire::write_bytes(&mut c, &super::msg::FromHub::Start.encode()).unwrap();
        std::thread::sleep(Duration::from_secs(30));
        drop(c);
    });
    addr
}

/// The communicator of rank 1 joined to a [`deaf_hub`].
fn join_deaf(timeout: Duration) -> Arc<Communicator> {
    join(deaf_hub(), 2, 1, timeout).unwrap()
}

/// An allgather of 8 MiB pieces (more than the socket buffers take) posted to `c` on a
/// thread: its error and when it came.
fn big_allgather(c: &Arc<Communicator>) -> std::thread::JoinHandle<(String, Instant)> {
    let c = c.clone();
    std::thread::spawn(move || {
        let n = 2 << 20;
        let (mine, all) = (view_of(&vec![1.0; n]), view_of(&vec![0.0; 2 * n]));
        let e = c.allgather(&at(1), &[0, 1], &mine, &all).unwrap_err().to_string();
        (e, Instant::now())
    })
}

/// Issue 22 1b: a post whose write to the hub blocks (the hub stopped reading) used to
/// block forever, holding the link's writer lock. It now fails within --timeout, naming the
/// rank and what it was sending.
#[test]
fn a_post_blocked_on_a_deaf_hub_fails_within_the_timeout() {
    let timeout = Duration::from_millis(1500);
    let c = join_deaf(timeout);
    let start = Instant::now();
    let (e, at) = big_allgather(&c).join().unwrap();
    let took = at - start;
    assert!(took < timeout + Duration::from_secs(2), "took {took:?}: {e}");
    assert!(e.contains("rank 1"), "{e}");
    assert!(e.contains("allgather #0 of team [0, 1] at p.mlir:3:4"), "{e}");
    assert!(e.contains("rank 0's process is stopped or the network to it is down"), "{e}");
}

/// Issue 22 1b: the rank's abort waited for the writer lock that the blocked post held.
/// Now an abort never waits for a write, and the post fails with the abort at once.
#[test]
fn an_abort_never_waits_for_a_blocked_write() {
    let c = join_deaf(Duration::from_secs(30));
    let post = big_allgather(&c);
    std::thread::sleep(Duration::from_millis(500));
    let start = Instant::now();
    c.abort(RtError::new("boom").on_rank(1));
    assert!(start.elapsed() < Duration::from_millis(500), "the abort took {:?}", start.elapsed());
    let (e, at) = post.join().unwrap();
    assert!(at - start < Duration::from_secs(2), "the post ended {:?} after the abort", at - start);
    assert!(e.contains("aborted: rank 1: boom"), "{e}");
}
