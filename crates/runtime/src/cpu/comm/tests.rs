//! Tests of the communicator with N rank threads and real data.

use super::*;
use crate::buffer::Buffer;
use crate::cpu::race::RaceChecker;
use crate::dtype::DType;
use fuser_dialects::comm::attrs::{Backend, Protocol};
use fuser_dialects::reduction::ReductionKind;

const SIZES: [usize; 5] = [1, 2, 3, 4, 8];

fn key(name: &str, loc: &str) -> OpKey {
    OpKey { index: 0, loc: Some(loc.into()), name: name.into() }
}

fn at(rank: usize) -> PostInfo {
    PostInfo::new(rank, key("comm.op", "c.mlir:1:1"))
}

fn view_of(dtype: DType, values: &[f64]) -> View {
    let v = View::whole(Buffer::new(dtype, values.len()), &[values.len()]).unwrap();
    v.write(values).unwrap();
    v
}

fn zeros(n: usize) -> View {
    View::whole(Buffer::new(DType::F32, n), &[n]).unwrap()
}

/// Rank r's input of `len` elements: 100 r + i.
fn input(rank: usize, len: usize) -> Vec<f64> {
    (0..len).map(|i| (100 * rank + i) as f64).collect()
}

/// Runs `f` on `n` rank threads sharing one communicator.
fn on_ranks<T: Send>(n: usize, timeout_ms: u64, f: impl Fn(usize, &Communicator) -> T + Sync) -> Vec<T> {
    let comm = Communicator::new(n, Duration::from_millis(timeout_ms));
    std::thread::scope(|s| {
        let (f, comm) = (&f, &comm);
        let handles: Vec<_> = (0..n).map(|r| s.spawn(move || f(r, comm))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

/// Posts as a stream would: waits right away when the op blocks the stream.
fn post_on_stream(comm: &Communicator, r: RtResult<Request>) -> RtResult<Request> {
    let req = r?;
    if req.blocks_stream() {
        req.wait(comm.deadline())?;
    }
    Ok(req)
}

#[test]
fn allgather_concatenates_in_team_order() {
    for n in SIZES {
        // A team order that is not sorted: the concatenation follows it.
        let team: Vec<usize> = (0..n).rev().collect();
        let outs = on_ranks(n, 5000, |r, c| {
            let out = zeros(3 * n);
            c.allgather(&at(r), &team, &view_of(DType::F32, &input(r, 3)), &out).unwrap();
            out.read()
        });
        let expected: Vec<f64> = team.iter().flat_map(|&m| input(m, 3)).collect();
        assert!(outs.iter().all(|o| *o == expected), "n = {n}");
    }
}

#[test]
fn allreduce_reduces_elementwise_in_place_too() {
    for n in SIZES {
        let team: Vec<usize> = (0..n).collect();
        for kind in ReductionKind::ALL {
            let outs = on_ranks(n, 5000, |r, c| {
                let buf = view_of(DType::F64, &input(r, 4));
                c.allreduce(&at(r), &team, kind, &buf, &buf).unwrap();
                buf.read()
            });
            let expected: Vec<f64> =
                (0..4).map(|i| (1..n).fold(input(0, 4)[i], |a, m| kind.combine(a, input(m, 4)[i]))).collect();
            assert!(outs.iter().all(|o| *o == expected), "n = {n}, {kind:?}");
        }
    }
}

#[test]
fn reduce_scatter_gives_member_i_the_ith_slice() {
    for n in SIZES {
        let team: Vec<usize> = (0..n).collect();
        let outs = on_ranks(n, 5000, |r, c| {
            let out = zeros(2);
            c.reduce_scatter(&at(r), &team, ReductionKind::Sum, &view_of(DType::F32, &input(r, 2 * n)), &out).unwrap();
            out.read()
        });
        for (r, o) in outs.iter().enumerate() {
            let expected: Vec<f64> = (2 * r..2 * r + 2).map(|i| (0..n).map(|m| input(m, 2 * n)[i]).sum()).collect();
            assert_eq!(*o, expected, "n = {n}, rank {r}");
        }
    }
}

#[test]
fn broadcast_and_reduce_use_a_team_relative_root() {
    for n in SIZES {
        // Team [n-1, ..., 0]: relative root 0 is rank n-1.
        let team: Vec<usize> = (0..n).rev().collect();
        let outs = on_ranks(n, 5000, |r, c| {
            let out = zeros(3);
            c.broadcast(&at(r), &team, 0, &view_of(DType::F32, &input(r, 3)), &out).unwrap();
            let red = view_of(DType::F32, &[-1.0; 3]);
            c.reduce(&at(r), &team, 0, ReductionKind::Max, &view_of(DType::F32, &input(r, 3)), &red).unwrap();
            (out.read(), red.read())
        });
        for (r, (b, red)) in outs.iter().enumerate() {
            assert_eq!(*b, input(n - 1, 3), "n = {n}");
            let expected = if r == n - 1 { input(n - 1, 3) } else { vec![-1.0; 3] };
            assert_eq!(*red, expected, "n = {n}, rank {r}");
        }
    }
}

#[test]
fn gather_and_scatter_move_slices_to_and_from_the_root() {
    for n in SIZES {
        let team: Vec<usize> = (0..n).collect();
        let root = n / 2;
        let outs = on_ranks(n, 5000, |r, c| {
            let gathered = zeros(2 * n);
            c.gather(&at(r), &team, root, &view_of(DType::F32, &input(r, 2)), &gathered).unwrap();
            let piece = zeros(2);
            c.scatter(&at(r), &team, root, &view_of(DType::F32, &input(r, 2 * n)), &piece).unwrap();
            (gathered.read(), piece.read())
        });
        let all: Vec<f64> = (0..n).flat_map(|m| input(m, 2)).collect();
        for (r, (g, p)) in outs.iter().enumerate() {
            assert_eq!(*g, if r == root { all.clone() } else { vec![0.0; 2 * n] });
            assert_eq!(*p, input(root, 2 * n)[2 * r..2 * r + 2].to_vec(), "n = {n}, rank {r}");
        }
    }
}

#[test]
fn all_to_all_transposes_chunks() {
    for n in SIZES {
        let team: Vec<usize> = (0..n).collect();
        let outs = on_ranks(n, 5000, |r, c| {
            let out = zeros(2 * n);
            c.all_to_all(&at(r), &team, &view_of(DType::F32, &input(r, 2 * n)), &out).unwrap();
            out.read()
        });
        for (j, o) in outs.iter().enumerate() {
            let expected: Vec<f64> = (0..n).flat_map(|i| input(i, 2 * n)[2 * j..2 * j + 2].to_vec()).collect();
            assert_eq!(*o, expected, "n = {n}, rank {j}");
        }
    }
}

#[test]
fn collective_permute_shifts_a_ring_and_copies_locally() {
    for n in SIZES {
        let team: Vec<usize> = (0..n).collect();
        let outs = on_ranks(n, 5000, |r, c| {
            let out = zeros(3);
            let (next, prev) = ((r + 1) % n, (r + n - 1) % n);
            c.collective_permute(&at(r), &team, next, prev, &view_of(DType::F32, &input(r, 3)), &out).unwrap();
            let local = zeros(3);
            c.collective_permute(&at(r), &team, r, r, &view_of(DType::F32, &input(r, 3)), &local).unwrap();
            (out.read(), local.read())
        });
        for (r, (o, l)) in outs.iter().enumerate() {
            assert_eq!(*o, input((r + n - 1) % n, 3), "n = {n}");
            assert_eq!(*l, input(r, 3));
        }
    }
}

#[test]
fn strided_views_and_narrow_types_move_exactly() {
    let outs = on_ranks(2, 5000, |r, c| {
        let b = Buffer::new(DType::BF16, 8);
        let whole = View::whole(b, &[2, 4]).unwrap();
        whole.write(&input(r, 8)).unwrap();
        let column = whole.subview(&[0, 1], &[2, 1], &[1, 1]).unwrap();
        let out = View::whole(Buffer::new(DType::BF16, 4), &[4]).unwrap();
        c.allgather(&at(r), &[0, 1], &column, &out).unwrap();
        out.read()
    });
    assert_eq!(outs[0], vec![1.0, 5.0, 101.0, 105.0]);
}

#[test]
fn sequence_numbers_are_per_team() {
    // Ranks 0 and 1 share teams A = [0, 1] and B = [0, 1, 2]; rank 2 only B. Rank 0 posts A
    // then B, rank 1 B then A: posts are asynchronous, so both complete.
    let outs = on_ranks(3, 5000, |r, c| {
        let a = view_of(DType::F32, &[r as f64]);
        let b = view_of(DType::F32, &[10.0 * r as f64]);
        let ra =
            |c: &Communicator| c.post_collective(&at(r), &[0, 1], Collective::Allreduce(ReductionKind::Sum), &a, &a);
        let rb =
            |c: &Communicator| c.post_collective(&at(r), &[0, 1, 2], Collective::Allreduce(ReductionKind::Sum), &b, &b);
        let reqs = match r {
            0 => vec![ra(c).unwrap(), rb(c).unwrap()],
            1 => vec![rb(c).unwrap(), ra(c).unwrap()],
            _ => vec![rb(c).unwrap()],
        };
        Request::all(&reqs).wait(c.deadline()).unwrap();
        (a.read()[0], b.read()[0])
    });
    assert_eq!(outs[0], (1.0, 30.0));
    assert_eq!(outs[1], (1.0, 30.0));
    assert_eq!(outs[2], (2.0, 30.0));
}

#[test]
fn a_mismatch_names_the_ranks() {
    let errs = on_ranks(4, 5000, |r, c| {
        // Three rounds of agreement first, so the mismatch is collective #3.
        for _ in 0..3 {
            let v = zeros(2);
            c.allreduce(&at(r), &[0, 1, 2, 3], ReductionKind::Sum, &v, &v).unwrap();
        }
        if r == 2 {
            c.allgather(&at(r), &[0, 1, 2, 3], &zeros(64), &zeros(256)).unwrap_err()
        } else {
            let v = zeros(128);
            c.allreduce(&at(r), &[0, 1, 2, 3], ReductionKind::Sum, &v, &v).unwrap_err()
        }
    });
    for e in errs {
        assert!(
            e.message.contains(
                "allreduce #3 of team [0, 1, 2, 3]: rank 2 posts allgather with 64 elements, ranks 0, 1, 3 post allreduce with 128 elements"
            ),
            "{e}"
        );
    }
}

#[test]
fn dtype_root_and_reduction_mismatches_are_reported() {
    let errs = on_ranks(2, 5000, |r, c| {
        let v = View::whole(Buffer::new(if r == 0 { DType::F32 } else { DType::F64 }, 4), &[4]).unwrap();
        let dtype = c.allreduce(&at(r), &[0, 1], ReductionKind::Sum, &v, &v).unwrap_err().message;
        let root = c.broadcast(&at(r), &[0, 1], r, &zeros(4), &zeros(4)).unwrap_err().message;
        let kind = if r == 0 { ReductionKind::Sum } else { ReductionKind::Max };
        let red = c.allreduce(&at(r), &[0, 1], kind, &zeros(4), &zeros(4)).unwrap_err().message;
        (dtype, root, red)
    });
    let (dtype, root, red) = &errs[0];
    assert!(dtype.contains("rank 0 posts allreduce of f32, rank 1 posts allreduce of f64"), "{dtype}");
    assert!(root.contains("rank 0 posts broadcast with root 0, rank 1 posts broadcast with root 1"), "{root}");
    assert!(red.contains("rank 0 posts allreduce (sum), rank 1 posts allreduce (max)"), "{red}");
}

#[test]
fn a_malformed_post_fails_the_other_members_too() {
    let errs = on_ranks(2, 5000, |r, c| {
        let out = zeros(if r == 1 { 3 } else { 4 });
        c.allgather(&at(r), &[0, 1], &zeros(2), &out).unwrap_err().to_string()
    });
    assert!(errs[1].contains("output of 3 elements break the rule output = team size × input"), "{}", errs[1]);
    assert!(errs[0].contains("allgather #0 of team [0, 1]: rank 1 could not post"), "{}", errs[0]);
}

#[test]
fn bad_teams_are_rejected_at_post() {
    let c = Communicator::new(2, Duration::from_secs(1));
    let v = zeros(1);
    assert!(c.allgather(&at(0), &[1], &v, &zeros(1)).unwrap_err().message.contains("not part of"));
    assert!(c.allgather(&at(0), &[0, 0], &v, &zeros(2)).unwrap_err().message.contains("twice"));
    assert!(c.allgather(&at(0), &[0, 5], &v, &zeros(2)).unwrap_err().message.contains("outside the world"));
    let perm = Collective::CollectivePermute { send_to: 1, recv_from: 0 };
    assert!(c.post_collective(&at(0), &[0], perm, &v, &v).is_err());
}

#[test]
fn a_permutation_that_does_not_close_is_reported() {
    let errs = on_ranks(3, 5000, |r, c| {
        // Everybody sends to 0; rank 1 receives from 2, which sends to 0.
        let (to, from) = match r {
            0 => (0, 0),
            1 => (0, 2),
            _ => (0, 1),
        };
        c.collective_permute(&at(r), &[0, 1, 2], to, from, &zeros(1), &zeros(1)).unwrap_err().message
    });
    assert!(errs[0].contains("rank 1 receives from rank 2, which sends to rank 0"), "{}", errs[0]);
}

#[test]
fn a_rank_that_never_arrives_is_reported_by_the_watchdog() {
    let errs = on_ranks(3, 200, |r, c| {
        if r == 2 {
            return String::new();
        }
        let v = zeros(1);
        c.allreduce(&PostInfo::new(r, key("comm.allreduce", "t.mlir:4:3")), &[0, 1, 2], ReductionKind::Sum, &v, &v)
            .unwrap_err()
            .to_string()
    });
    for e in &errs[..2] {
        assert!(e.contains("waits in allreduce #0 of team [0, 1, 2] at t.mlir:4:3"), "{e}");
        assert!(e.contains("rank 2 (waited for by rank ") && e.contains(") is not blocked in any wait"), "{e}");
    }
}

#[test]
fn posting_does_not_block_and_wait_completes() {
    let c = Communicator::new(2, Duration::from_secs(5));
    let (src, dst) = (view_of(DType::F32, &[1.0, 2.0]), zeros(2));
    let recv = c.recv(&at(1), 0, &dst, Backend::Nccl, Protocol::Get).unwrap();
    assert!(!recv.is_complete() && recv.blocks_stream());
    let send = c.send(&at(0), 1, &src, Backend::Nccl, Protocol::Get).unwrap();
    send.wait(c.deadline()).unwrap();
    recv.wait(c.deadline()).unwrap();
    assert_eq!(dst.read(), vec![1.0, 2.0]);
    // A team of one completes at post.
    let r = c.post_collective(&at(0), &[0], Collective::Allgather, &src, &dst).unwrap();
    assert!(r.is_complete());
}

#[test]
fn p2p_matches_fifo_per_pair() {
    let c = Communicator::new(2, Duration::from_secs(5));
    let outs: Vec<View> = (0..3).map(|_| zeros(1)).collect();
    let recvs: Vec<Request> =
        outs.iter().map(|o| c.recv(&at(1), 0, o, Backend::Nccl, Protocol::Get).unwrap()).collect();
    for i in 0..3 {
        c.send(&at(0), 1, &view_of(DType::F32, &[i as f64]), Backend::Nccl, Protocol::Get).unwrap();
    }
    Request::all(&recvs).wait(c.deadline()).unwrap();
    assert_eq!(outs.iter().map(|o| o.read()[0]).collect::<Vec<_>>(), vec![0.0, 1.0, 2.0]);
}

#[test]
fn p2p_size_and_backend_mismatches_fail_both_sides() {
    let c = Communicator::new(2, Duration::from_secs(5));
    let s = c.send(&at(0), 1, &zeros(4), Backend::Nccl, Protocol::Get).unwrap();
    let r = c.recv(&at(1), 0, &zeros(8), Backend::Nccl, Protocol::Get).unwrap();
    let e = s.wait(c.deadline()).unwrap_err().message;
    assert!(e.contains("message #0 from rank 0 to rank 1: the send posts 4 f32 elements"), "{e}");
    assert!(e.contains("the recv expects 8 f32 elements"), "{e}");
    assert!(r.wait(c.deadline()).is_err());
}

/// Rank r exchanges a buffer with rank 1 - r: `send_first` per rank says the order of posts on
/// its stream (blocking posts wait right away, as a stream would).
fn exchange(backend: Backend, protocol: Protocol, send_first: bool, timeout_ms: u64) -> Vec<RtResult<Vec<f64>>> {
    on_ranks(2, timeout_ms, |r, c| {
        let peer = 1 - r;
        let (src, dst) = (view_of(DType::F32, &input(r, 2)), zeros(2));
        let info = PostInfo::new(r, key(if send_first { "comm.send" } else { "comm.recv" }, "f.mlir:12:5"));
        if backend == Backend::CudaIpc {
            c.share_handles(&info, &[(src.clone(), peer)], &[(dst.clone(), peer)])?.wait(c.deadline())?;
        }
        let send = || post_on_stream(c, c.send(&info, peer, &src, backend, protocol));
        let recv = || post_on_stream(c, c.recv(&info, peer, &dst, backend, protocol));
        let reqs = if send_first { vec![send()?, recv()?] } else { vec![recv()?, send()?] };
        Request::all(&reqs).wait(c.deadline())?;
        Ok(dst.read())
    })
}

#[test]
fn nccl_sends_first_on_both_ranks_deadlock_and_the_watchdog_says_why() {
    for result in exchange(Backend::Nccl, Protocol::Get, true, 200) {
        let e = result.unwrap_err().to_string();
        assert!(e.contains("rank 0 waits in send to rank 1 at f.mlir:12:5"), "{e}");
        assert!(e.contains("rank 1 waits in send to rank 0 at f.mlir:12:5"), "{e}");
        assert!(e.contains("wait cycle: rank"), "{e}");
    }
}

#[test]
fn an_nccl_group_avoids_the_deadlock() {
    let outs = on_ranks(2, 5000, |r, c| {
        let peer = 1 - r;
        let dst = zeros(2);
        let ops =
            [P2pOp::Send { peer, view: view_of(DType::F32, &input(r, 2)) }, P2pOp::Recv { peer, view: dst.clone() }];
        let g = c.group(&at(r), &ops).unwrap();
        assert!(!g.blocks_stream());
        g.wait(c.deadline()).unwrap();
        dst.read()
    });
    assert_eq!(outs, vec![input(1, 2), input(0, 2)]);
}

#[test]
fn get_works_send_first_and_deadlocks_recv_first() {
    let ok = exchange(Backend::CudaIpc, Protocol::Get, true, 5000);
    assert_eq!(ok.into_iter().map(Result::unwrap).collect::<Vec<_>>(), vec![input(1, 2), input(0, 2)]);
    for result in exchange(Backend::CudaIpc, Protocol::Get, false, 200) {
        let e = result.unwrap_err().to_string();
        assert!(
            e.contains("rank 0 waits in recv from rank 1") && e.contains("rank 1 waits in recv from rank 0"),
            "{e}"
        );
    }
}

#[test]
fn put_works_recv_first_and_deadlocks_send_first() {
    let ok = exchange(Backend::CudaIpc, Protocol::Put, false, 5000);
    assert_eq!(ok.into_iter().map(Result::unwrap).collect::<Vec<_>>(), vec![input(1, 2), input(0, 2)]);
    for result in exchange(Backend::CudaIpc, Protocol::Put, true, 200) {
        let e = result.unwrap_err().to_string();
        assert!(e.contains("rank 0 waits in send to rank 1") && e.contains("rank 1 waits in send to rank 0"), "{e}");
    }
}

#[test]
fn cuda_ipc_needs_shared_handles() {
    let c = Communicator::new(2, Duration::from_secs(5));
    let e = c.send(&at(0), 1, &zeros(2), Backend::CudaIpc, Protocol::Get).unwrap_err().to_string();
    assert!(e.contains("cuda_ipc send of buffer #"), "{e}");
    assert!(e.contains("to rank 1 without a comm.share_handles"), "{e}");
    let e = c.send(&at(0), 0, &zeros(2), Backend::CudaIpc, Protocol::Get).unwrap_err().to_string();
    assert!(e.contains("oneself"), "{e}");
    // Handles of other buffers do not count at match time.
    let (a, b, other) = (zeros(2), zeros(2), zeros(2));
    let s = c.share_handles(&at(0), &[(a.clone(), 1)], &[]).unwrap();
    let r = c.share_handles(&at(1), &[], &[(b.clone(), 0)]).unwrap();
    assert!(s.blocks_stream());
    Request::all(&[s, r]).wait(c.deadline()).unwrap();
    assert!(c.recv(&at(1), 0, &other, Backend::CudaIpc, Protocol::Get).is_err());
    let send = c.send(&at(0), 1, &a, Backend::CudaIpc, Protocol::Get).unwrap();
    assert!(!send.blocks_stream());
    let recv = c.recv(&at(1), 0, &b, Backend::CudaIpc, Protocol::Get).unwrap();
    Request::all(&[send, recv]).wait(c.deadline()).unwrap();
}

#[test]
fn protocol_disagreement_is_an_error() {
    let c = Communicator::new(2, Duration::from_secs(5));
    let (a, b) = (zeros(2), zeros(2));
    Request::all(&[
        c.share_handles(&at(0), &[(a.clone(), 1)], &[]).unwrap(),
        c.share_handles(&at(1), &[], &[(b.clone(), 0)]).unwrap(),
    ])
    .wait(c.deadline())
    .unwrap();
    let s = c.send(&at(0), 1, &a, Backend::CudaIpc, Protocol::Get).unwrap();
    c.recv(&at(1), 0, &b, Backend::CudaIpc, Protocol::Put).unwrap();
    let e = s.wait(c.deadline()).unwrap_err().to_string();
    assert!(e.contains("uses cuda_ipc/get, the recv"), "{e}");
    assert!(e.contains("uses cuda_ipc/put"), "{e}");
}

#[test]
fn completion_carries_the_clocks_of_all_participants() {
    let mut rc = RaceChecker::new();
    let (c0, c1) = (rc.on_record((0, 0)), rc.on_record((1, 0)));
    let c = Communicator::new(2, Duration::from_secs(5));
    let v0 = zeros(1);
    let v1 = zeros(1);
    let r0 = c
        .post_collective(&at(0).with_clock(c0.clone()), &[0, 1], Collective::Allreduce(ReductionKind::Sum), &v0, &v0)
        .unwrap();
    assert!(r0.joined_clock().is_none());
    let r1 = c
        .post_collective(&at(1).with_clock(c1.clone()), &[0, 1], Collective::Allreduce(ReductionKind::Sum), &v1, &v1)
        .unwrap();
    r0.wait(c.deadline()).unwrap();
    let mut expected = c0;
    expected.join(&c1);
    assert_eq!(r0.joined_clock(), Some(expected.clone()));
    assert_eq!(r1.joined_clock(), Some(expected));
}

#[test]
fn abort_releases_waiting_ranks() {
    let c = Communicator::new(2, Duration::from_secs(30));
    let start = Instant::now();
    std::thread::scope(|s| {
        let h = s.spawn(|| c.recv(&at(1), 0, &zeros(1), Backend::Nccl, Protocol::Get).unwrap().wait(c.deadline()));
        std::thread::sleep(Duration::from_millis(30));
        c.abort(RtError::new("kernel failed").on_rank(0));
        let e = h.join().unwrap().unwrap_err().to_string();
        assert!(e.contains("aborted: rank 0: kernel failed"), "{e}");
    });
    assert!(start.elapsed() < Duration::from_secs(5));
}

/// The executor's pattern: a rank's comm posts run as tasks of its stream, and a task that
/// posts a stream-blocking op waits for it. Ungrouped NCCL sends first on both ranks: the
/// streams deadlock, and the host synchronize reports the comm waits.
#[test]
fn stream_tasks_posting_blocking_sends_deadlock_visibly() {
    use crate::cpu::streams::Stream;
    let wd = crate::watchdog::Watchdog::new(Duration::from_millis(300));
    let comm = Communicator::with_watchdog(2, wd.clone());
    let errs: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..2)
            .map(|r| {
                let (comm, wd) = (comm.clone(), wd.clone());
                s.spawn(move || {
                    let stream = Stream::new(r, 0, wd).unwrap();
                    let peer = 1 - r;
                    let (src, dst) = (view_of(DType::F32, &input(r, 2)), zeros(2));
                    for send in [true, false] {
                        let (c, src, dst) = (comm.clone(), src.clone(), dst.clone());
                        let k = key(if send { "comm.send" } else { "comm.recv" }, "f.mlir:12:5");
                        let info = PostInfo::new(r, k.clone());
                        stream.post(
                            move || {
                                let req = if send {
                                    c.send(&info, peer, &src, Backend::Nccl, Protocol::Get)?
                                } else {
                                    c.recv(&info, peer, &dst, Backend::Nccl, Protocol::Get)?
                                };
                                if req.blocks_stream() {
                                    req.wait(c.deadline())?;
                                }
                                Ok(())
                            },
                            k,
                        );
                    }
                    stream.synchronize().unwrap_err().to_string()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for e in errs {
        assert!(e.contains("rank 0 waits in send to rank 1 at f.mlir:12:5"), "{e}");
        assert!(e.contains("rank 1 waits in send to rank 0 at f.mlir:12:5"), "{e}");
    }
}

#[test]
fn handles_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Request>();
    send_sync::<Communicator>();
    send_sync::<crate::cpu::streams::Event>();
}
