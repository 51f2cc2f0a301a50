//! Unit tests of the CPU backend: real communication between rank threads, asynchronous
//! streams, the race checker and the watchdog as the executor drives them.

use super::*;
use fuser_dialects::comm::attrs::Protocol;
use fuser_dialects::reduction::ReductionKind;

/// The copy-engine transport: the cpu backend runs it with the collectives' one semantics.
const CE: Transport = Transport::CudaIpc;

fn key(name: &str, line: u32) -> OpKey {
    OpKey { index: line, loc: Some(format!("t.mlir:{line}:3").into()), name: name.into() }
}

fn run_ranks<T: Send>(b: &CpuBackend, n: usize, f: impl Fn(&CpuBackend, usize) -> T + Sync) -> Vec<T> {
    std::thread::scope(|s| {
        let hs: Vec<_> = (0..n)
            .map(|r| {
                let f = &f;
                s.spawn(move || f(b, r))
            })
            .collect();
        hs.into_iter().map(|h| h.join().expect("rank thread")).collect()
    })
}

fn filled(vals: &[f64]) -> View {
    let v = CpuBackend::new_buffer(DType::F32, &[vals.len()]).unwrap();
    v.write(vals).unwrap();
    v
}

fn zeros(n: usize) -> View {
    CpuBackend::new_buffer(DType::F32, &[n]).unwrap()
}

fn send(buffer: &View, peer: usize) -> CommOp<View> {
    CommOp::Send { buffer: buffer.clone(), peer, transport: Transport::Nccl, protocol: Protocol::Get }
}

fn recv(buffer: &View, peer: usize) -> CommOp<View> {
    CommOp::Recv { buffer: buffer.clone(), peer, transport: Transport::Nccl, protocol: Protocol::Get }
}

#[test]
fn collectives_and_a_ring_exchange_between_threads() {
    let b = CpuBackend::new(3, false, Duration::from_secs(10));
    let k = key("comm.op", 1);
    let out = run_ranks(&b, 3, |b, r| {
        let main = b.main_stream(r).unwrap();
        let team = vec![0, 1, 2];
        let x = filled(&[r as f64, 10.0 + r as f64]);
        let (g, s, bc, rs, got) = (zeros(6), zeros(2), zeros(2), zeros(1), zeros(2));
        b.post(
            r,
            &main,
            CommOp::AllGather { input: x.clone(), output: g.clone(), team: team.clone(), transport: CE },
            &k,
        )
        .unwrap();
        let op = CommOp::AllReduce {
            input: x.clone(),
            output: s.clone(),
            team: team.clone(),
            reduction: ReductionKind::Sum,
            transport: CE,
        };
        b.post(r, &main, op, &k).unwrap();
        let op = CommOp::Broadcast { input: x.clone(), output: bc.clone(), team: team.clone(), root: 2, transport: CE };
        b.post(r, &main, op, &k).unwrap();
        let op = CommOp::ReduceScatter {
            input: filled(&[1.0, 2.0, 3.0]),
            output: rs.clone(),
            team,
            reduction: ReductionKind::Sum,
            transport: CE,
        };
        b.post(r, &main, op, &k).unwrap();
        let ring = CommOp::Group(vec![send(&x, (r + 1) % 3), recv(&got, (r + 2) % 3)]);
        let req = b.post(r, &main, ring, &k).unwrap();
        b.wait(r, &main, &[req], &k).unwrap();
        b.finish(r).unwrap();
        (g.read(), s.read(), bc.read(), rs.read(), got.read())
    });
    for (r, (g, s, bc, rs, got)) in out.into_iter().enumerate() {
        assert_eq!(g, vec![0.0, 10.0, 1.0, 11.0, 2.0, 12.0]);
        assert_eq!(s, vec![3.0, 33.0]);
        assert_eq!(bc, vec![2.0, 12.0]);
        assert_eq!(rs, vec![3.0 * (r as f64 + 1.0)]);
        let prev = ((r + 2) % 3) as f64;
        assert_eq!(got, vec![prev, 10.0 + prev]);
    }
    assert_eq!(b.stats(0).ops, 5);
}

#[test]
fn a_mismatch_fails_every_member_naming_the_ranks() {
    let b = CpuBackend::new(2, false, Duration::from_secs(10));
    let out = run_ranks(&b, 2, |b, r| {
        let main = b.main_stream(r).unwrap();
        let x = filled(&vec![1.0; r + 1]);
        let op = CommOp::AllReduce {
            input: x.clone(),
            output: x,
            team: vec![0, 1],
            reduction: ReductionKind::Sum,
            transport: Transport::Nccl,
        };
        b.post(r, &main, op, &key("comm.allreduce", 4)).unwrap();
        b.finish(r).unwrap_err().to_string()
    });
    for e in out {
        assert!(e.contains("allreduce #0 of team [0, 1]: rank 0 posts allreduce with 1 elements"), "{e}");
        assert!(e.contains("t.mlir:4:3"), "{e}");
    }
}

#[test]
fn the_host_only_posts_work_runs_on_the_streams() {
    // The host posts a kernel behind a wait for a receive nobody has sent yet: posting returns
    // at once, the data arrives later, and the kernel sees it.
    let b = CpuBackend::new(2, false, Duration::from_secs(10));
    let out = run_ranks(&b, 2, |b, r| {
        let main = b.main_stream(r).unwrap();
        let worker = b.worker_stream(r, 0).unwrap();
        let (buf, doubled) = (filled(&[5.0 + r as f64]), zeros(1));
        if r == 1 {
            let req = b.post(r, &worker, recv(&buf, 0), &key("comm.recv", 7)).unwrap();
            b.wait(r, &main, &[req], &key("comm.wait", 8)).unwrap();
            let k = Kernel::Elementwise {
                kind: fuser_dialects::host::ElementwiseKind::Add,
                inputs: vec![buf.clone(), buf.clone()],
                output: doubled.clone(),
            };
            b.compute(r, &main, k, &key("host.elementwise", 9)).unwrap();
        } else {
            std::thread::sleep(Duration::from_millis(50));
            b.post(r, &main, send(&buf, 1), &key("comm.send", 11)).unwrap();
        }
        b.finish(r).unwrap();
        doubled.read()
    });
    assert_eq!(out[1], vec![10.0]);
}

#[test]
fn both_ranks_sending_first_without_a_group_is_a_reported_deadlock() {
    let b = CpuBackend::new(2, false, Duration::from_millis(300));
    let start = Instant::now();
    let out = run_ranks(&b, 2, |b, r| {
        let main = b.main_stream(r).unwrap();
        let (x, y) = (filled(&[1.0]), zeros(1));
        b.post(r, &main, send(&x, 1 - r), &key("comm.send", 20)).unwrap();
        b.post(r, &main, recv(&y, 1 - r), &key("comm.recv", 21)).unwrap();
        b.finish(r).unwrap_err().to_string()
    });
    assert!(start.elapsed() < Duration::from_secs(5));
    for e in out {
        assert!(e.contains("deadlock or timeout after 300ms"), "{e}");
        assert!(e.contains("rank 0 waits in send to rank 1 at t.mlir:20:3"), "{e}");
        assert!(e.contains("rank 1 waits in send to rank 0 at t.mlir:20:3"), "{e}");
        assert!(e.contains("wait cycle: rank"), "{e}");
    }
}

#[test]
fn a_skipped_collective_names_the_absent_ranks() {
    let b = CpuBackend::new(3, false, Duration::from_millis(200));
    let out = run_ranks(&b, 3, |b, r| {
        let main = b.main_stream(r).unwrap();
        if r == 0 {
            let x = filled(&[1.0]);
            let op = CommOp::AllReduce {
                input: x.clone(),
                output: x,
                team: vec![0, 1, 2],
                reduction: ReductionKind::Sum,
                transport: Transport::Nccl,
            };
            b.post(r, &main, op, &key("comm.allreduce", 30)).unwrap();
        }
        b.finish(r).map_err(|e| e.to_string())
    });
    let e = out[0].clone().unwrap_err();
    assert!(e.contains("rank 0 waits in allreduce #0 of team [0, 1, 2] at t.mlir:30:3"), "{e}");
    assert!(e.contains("rank 1 (waited for by rank 0) is not blocked in any wait"), "{e}");
    assert!(e.contains("rank 2 (waited for by rank 0) is not blocked in any wait"), "{e}");
}

/// Stream 1 writes `a`; stream 2 copies `a` into `b`, with or without a stream_wait between.
fn producer_consumer(with_wait: bool) -> RtResult<Vec<f64>> {
    let b = CpuBackend::new(1, false, Duration::from_secs(10)).with_race_checker();
    let (s1, s2) = (b.worker_stream(0, 0)?, b.worker_stream(0, 1)?);
    let (src, fill, dst) = (filled(&[7.0; 4]), zeros(4), zeros(4));
    b.compute(0, &s1, Kernel::Copy { source: src, target: fill.clone() }, &key("host.copy", 40))?;
    if with_wait {
        b.stream_wait(0, &s2, &s1, &key("host.stream_wait", 41))?;
    }
    b.compute(0, &s2, Kernel::Copy { source: fill, target: dst.clone() }, &key("host.copy", 42))?;
    b.finish(0)?;
    Ok(dst.read())
}

#[test]
fn a_missing_stream_wait_is_a_race_naming_both_ops() {
    let e = producer_consumer(false).unwrap_err().to_string();
    assert!(e.contains("host.copy at t.mlir:40:3 on rank 0 stream 1 writes"), "{e}");
    assert!(e.contains("host.copy at t.mlir:42:3 on rank 0 stream 2 reads without ordering"), "{e}");
    assert_eq!(producer_consumer(true).unwrap(), vec![7.0; 4]);
}

#[test]
fn comm_wait_orders_the_received_data_and_free_is_a_write() {
    // Rank 1 receives on stream 1 and reads on stream 2: fine after comm.wait on stream 2,
    // a race without it. Deallocating on stream 2 what stream 1 wrote needs the same order.
    for with_wait in [true, false] {
        let b = CpuBackend::new(2, false, Duration::from_secs(10)).with_race_checker();
        let out = run_ranks(&b, 2, |b, r| -> RtResult<()> {
            let (s1, s2) = (b.worker_stream(r, 0)?, b.worker_stream(r, 1)?);
            let buf = filled(&[3.0; 2]);
            if r == 0 {
                let req = b.post(r, &s1, send(&buf, 1), &key("comm.send", 50))?;
                b.wait(r, &s1, &[req], &key("comm.wait", 51))?;
            } else {
                let req = b.post(r, &s1, recv(&buf, 0), &key("comm.recv", 52))?;
                if with_wait {
                    b.wait(r, &s2, &[req], &key("comm.wait", 53))?;
                }
                let out = zeros(2);
                b.compute(r, &s2, Kernel::Copy { source: buf.clone(), target: out }, &key("host.copy", 54))?;
                b.dealloc(r, &s2, &buf, &key("host.dealloc", 55))?;
            }
            b.finish(r)
        });
        assert!(out[0].is_ok());
        match (with_wait, &out[1]) {
            (true, r) => assert!(r.is_ok(), "{r:?}"),
            (false, Err(e)) => {
                let e = e.to_string();
                assert!(e.contains("comm.recv at t.mlir:52:3 on rank 1 stream 1 writes"), "{e}");
                assert!(e.contains("host.copy at t.mlir:54:3 on rank 1 stream 2 reads"), "{e}");
            }
            (false, Ok(())) => panic!("the race was not found"),
        }
    }
}

#[test]
fn a_failing_task_surfaces_at_finish_with_its_op() {
    let b = CpuBackend::new(1, false, Duration::from_secs(10));
    let main = b.main_stream(0).unwrap();
    let k = Kernel::Copy { source: zeros(3), target: zeros(4) };
    b.compute(0, &main, k, &key("host.copy", 60)).unwrap();
    let e = b.finish(0).unwrap_err().to_string();
    assert!(e.starts_with("'host.copy' at t.mlir:60:3: rank 0:"), "{e}");
}

/// Host dispatch cost of tiny ops (run with `--ignored --nocapture` on a release build).
#[test]
#[ignore]
fn dispatch_cost_of_tiny_ops() {
    let b = CpuBackend::new(1, false, Duration::from_secs(10));
    let main = b.main_stream(0).unwrap();
    let (x, y) = (filled(&[1.0]), zeros(1));
    let k = key("host.copy", 1);
    let n = 200_000;
    let start = Instant::now();
    for _ in 0..n {
        b.compute(0, &main, Kernel::Copy { source: x.clone(), target: y.clone() }, &k).unwrap();
    }
    let post = start.elapsed();
    b.finish(0).unwrap();
    println!(
        "host: {:.0} ns/op; total {:.0} ns/op",
        post.as_nanos() as f64 / n as f64,
        start.elapsed().as_nanos() as f64 / n as f64
    );
}

#[test]
fn only_the_root_of_a_reduce_writes_its_output() {
    // Two reduces into one buffer from two streams, rooted at rank 0 then rank 1 (the
    // tp-default lowering of a reduction to the owner of each chunk): each rank's buffer is
    // written by one of them only, so there is no race; the root's write still races with an
    // unordered read.
    for read_after in [false, true] {
        let b = CpuBackend::new(2, false, Duration::from_secs(10)).with_race_checker();
        let out = run_ranks(&b, 2, |b, r| -> RtResult<Vec<f64>> {
            let (main, s1, s2) = (b.main_stream(r)?, b.worker_stream(r, 0)?, b.worker_stream(r, 1)?);
            let y = zeros(2);
            for (root, s) in [(0, &s1), (1, &s2)] {
                let input = filled(&[(1 + r + 2 * root) as f64; 2]);
                let op = CommOp::Reduce {
                    input,
                    output: y.clone(),
                    team: vec![0, 1],
                    root,
                    reduction: ReductionKind::Sum,
                    transport: Transport::Nccl,
                };
                let req = b.post(r, s, op, &key("comm.reduce", 60 + root as u32))?;
                b.wait(r, s, &[req], &key("comm.wait", 62))?;
            }
            if read_after {
                b.returned(r, &main, std::slice::from_ref(&y), &key("func.return", 63))?;
            }
            b.finish(r)?;
            Ok(y.read())
        });
        if read_after {
            let e = out[1].clone().unwrap_err().to_string();
            assert!(e.contains("comm.reduce at t.mlir:61:3 on rank 1 stream 2 writes"), "{e}");
        } else {
            assert_eq!(out[0].clone().unwrap(), vec![3.0; 2]);
            assert_eq!(out[1].clone().unwrap(), vec![7.0; 2]);
        }
    }
}

#[test]
fn the_ops_of_a_group_are_in_flight_together() {
    // A group that receives into the buffer it sends from: the receive may land while the
    // send still reads. Sending and receiving distinct buffers is fine.
    for same in [false, true] {
        let b = CpuBackend::new(2, false, Duration::from_secs(10)).with_race_checker();
        let out = run_ranks(&b, 2, |b, r| -> RtResult<()> {
            let main = b.main_stream(r)?;
            let (a, c) = (filled(&[1.0 + r as f64; 2]), zeros(2));
            let into = if same { &a } else { &c };
            let ring = CommOp::Group(vec![send(&a, 1 - r), recv(into, 1 - r)]);
            let req = b.post(r, &main, ring, &key("comm.group", 70))?;
            b.wait(r, &main, &[req], &key("comm.wait", 71))?;
            b.finish(r)
        });
        match (same, &out[0]) {
            (false, r) => assert!(r.is_ok(), "{r:?}"),
            (true, Err(e)) => {
                let e = e.to_string();
                assert!(e.contains("comm.group at t.mlir:70:3 on rank 0 stream 0 reads until its comm.wait"), "{e}");
                assert!(e.contains("comm.group at t.mlir:70:3 on rank 0 stream 0 writes until its comm.wait"), "{e}");
            }
            (true, Ok(())) => panic!("the race inside the group was not found"),
        }
    }
}
