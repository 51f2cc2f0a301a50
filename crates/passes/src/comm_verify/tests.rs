//! Unit tests of the matcher and the deadlock simulation on small synthetic traces (no IR is
//! interpreted: entries are built by hand).

use super::matching::match_all;
use super::report::Reporter;
use super::sim::simulate;
use super::trace::*;
use super::verify_traces;
use fuser_dialects::comm::{Backend, Protocol};
use fuser_dialects::reduction::ReductionKind;
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, OperationState};

struct Fixture {
    ctx: Context,
    op: OpId,
}

impl Fixture {
    fn new() -> Self {
        let ctx = Context::new(fuser_dialects::registry());
        let mut ir = Ir::new();
        let op = ir.create_op(OperationState {
            name: ctx.op_name("test.op"),
            operands: vec![],
            result_types: vec![],
            successors: vec![],
            regions: vec![],
            attrs: ctx.empty_dict(),
            props: None,
            loc: ctx.file_loc("t", 1, 1),
        });
        Fixture { ctx, op }
    }
    fn site(&self) -> Site {
        Site { op: self.op, loc: self.ctx.file_loc("t", 1, 1), iters: vec![] }
    }
    fn buf(&self, n: i64) -> Option<BufInfo> {
        Some(BufInfo { count: Some(n), elem: self.ctx.float_type(fuser_ir::types::FloatKind::F32) })
    }
    fn post(
        &self,
        kind: CommKind,
        peer: Option<i64>,
        team: &[i64],
        backend: Backend,
        protocol: Option<Protocol>,
    ) -> CommPost {
        CommPost {
            kind,
            team: team.to_vec(),
            reduction: (kind == CommKind::Allreduce).then_some(ReductionKind::Sum),
            root: None,
            peer,
            send_to: None,
            recv_from: None,
            backend,
            protocol,
            input: if kind == CommKind::Recv { None } else { self.buf(8) },
            output: if kind == CommKind::Send { None } else { self.buf(8) },
            input_view: Some(Vec::new()),
            output_view: Some(Vec::new()),
            site: self.site(),
        }
    }
    fn send(&self, to: i64) -> Event {
        Event::Post(Box::new(self.post(CommKind::Send, Some(to), &[], Backend::Nccl, None)))
    }
    fn recv(&self, from: i64) -> Event {
        Event::Post(Box::new(self.post(CommKind::Recv, Some(from), &[], Backend::Nccl, None)))
    }
    fn ipc(&self, kind: CommKind, peer: i64, protocol: Protocol) -> Event {
        Event::Post(Box::new(self.post(kind, Some(peer), &[], Backend::CudaIpc, Some(protocol))))
    }
    fn allreduce(&self, team: &[i64]) -> Event {
        Event::Post(Box::new(self.post(CommKind::Allreduce, None, team, Backend::Nccl, None)))
    }
    fn entry(&self, stream: Option<StreamId>, event: Event) -> Entry {
        Entry { stream, event, site: self.site() }
    }
    fn on_main(&self, events: Vec<Event>) -> RankTrace {
        RankTrace { entries: events.into_iter().map(|e| self.entry(Some(StreamId::Main), e)).collect() }
    }
    /// Matches the traces (asserting no mismatch) and simulates them.
    fn run(&self, traces: &[RankTrace]) -> Result<(), super::sim::Deadlock> {
        let mut out = Reporter::default();
        let links = match_all(&self.ctx, traces, &mut out);
        assert!(!out.has_errors(), "unexpected mismatch: {:?}", out.finish());
        simulate(traces, &links)
    }
}

#[test]
fn nccl_send_recv_in_opposite_order_deadlocks_without_group() {
    let f = Fixture::new();
    let t0 = f.on_main(vec![f.send(1), f.recv(1)]);
    let t1 = f.on_main(vec![f.send(0), f.recv(0)]);
    let dl = f.run(&[t0, t1]).unwrap_err();
    assert_eq!(dl.blocked.len(), 2);
    assert!(dl.blocked.iter().all(|b| b.entry == 0 && b.stream == Some(StreamId::Main)));
    assert!(dl.blocked[0].waits_for.contains("rank 1 to reach comm.recv from rank 0"), "{:?}", dl.blocked[0]);
}

#[test]
fn nccl_send_recv_in_matching_order_completes() {
    let f = Fixture::new();
    let t0 = f.on_main(vec![f.send(1), f.recv(1)]);
    let t1 = f.on_main(vec![f.recv(0), f.send(0)]);
    assert!(f.run(&[t0, t1]).is_ok());
}

#[test]
fn group_breaks_the_send_send_cycle() {
    let f = Fixture::new();
    let group = |me: i64| {
        let peer = 1 - me;
        Event::Group(vec![
            f.post(CommKind::Send, Some(peer), &[], Backend::Nccl, None),
            f.post(CommKind::Recv, Some(peer), &[], Backend::Nccl, None),
        ])
    };
    let t0 = f.on_main(vec![group(0), Event::Wait(vec![0])]);
    let t1 = f.on_main(vec![group(1), Event::Wait(vec![0])]);
    assert!(f.run(&[t0, t1]).is_ok());
}

#[test]
fn ipc_get_needs_send_first_and_put_needs_recv_first() {
    let f = Fixture::new();
    let (s, r) = (CommKind::Send, CommKind::Recv);
    let get_ok = |me: i64| {
        f.on_main(vec![f.ipc(s, 1 - me, Protocol::Get), f.ipc(r, 1 - me, Protocol::Get), Event::Wait(vec![0, 1])])
    };
    assert!(f.run(&[get_ok(0), get_ok(1)]).is_ok());
    let get_bad = |me: i64| f.on_main(vec![f.ipc(r, 1 - me, Protocol::Get), f.ipc(s, 1 - me, Protocol::Get)]);
    assert!(f.run(&[get_bad(0), get_bad(1)]).is_err());
    let put_ok = |me: i64| {
        f.on_main(vec![f.ipc(r, 1 - me, Protocol::Put), f.ipc(s, 1 - me, Protocol::Put), Event::Wait(vec![0, 1])])
    };
    assert!(f.run(&[put_ok(0), put_ok(1)]).is_ok());
    let put_bad = |me: i64| f.on_main(vec![f.ipc(s, 1 - me, Protocol::Put), f.ipc(r, 1 - me, Protocol::Put)]);
    assert!(f.run(&[put_bad(0), put_bad(1)]).is_err());
}

#[test]
fn waiting_on_a_signal_needs_the_counterpart_to_pass() {
    // Rank 0's get-send signals at once, but its wait completes only after rank 1's recv ran;
    // rank 1 first waits (via an allreduce) for rank 0 to pass its wait: a deadlock.
    let f = Fixture::new();
    let t0 = f.on_main(vec![f.ipc(CommKind::Send, 1, Protocol::Get), Event::Wait(vec![0]), f.allreduce(&[0, 1])]);
    let t1 = f.on_main(vec![f.allreduce(&[0, 1]), f.ipc(CommKind::Recv, 0, Protocol::Get)]);
    let dl = f.run(&[t0, t1]).unwrap_err();
    assert_eq!(dl.blocked[0].entry, 1, "rank 0 is stuck at its wait: {dl:?}");
    assert!(dl.blocked[0].waits_for.contains("completion of comm.send to rank 1"));
}

#[test]
fn stream_wait_orders_streams() {
    let f = Fixture::new();
    let w = StreamId::Worker(0);
    // Rank 0: the recv on worker 0, then main waits for worker 0 and sends: the recv must run
    // before the send. Rank 1 sends, then receives: fine.
    let t0 = RankTrace {
        entries: vec![
            f.entry(Some(w), f.recv(1)),
            f.entry(Some(StreamId::Main), Event::StreamWait { other: w, position: 1 }),
            f.entry(Some(StreamId::Main), f.send(1)),
        ],
    };
    let t1 = f.on_main(vec![f.send(0), f.recv(0)]);
    assert!(f.run(&[t0.clone(), t1]).is_ok());
    // If rank 1 receives first, rank 0's send is held behind the stream wait: a deadlock that
    // names the stream wait.
    let t1 = f.on_main(vec![f.recv(0), f.send(0)]);
    let dl = f.run(&[t0, t1]).unwrap_err();
    assert!(dl.blocked.iter().any(|b| b.rank == 0 && b.waits_for.contains("stream worker 0 to pass 1")), "{dl:?}");
}

#[test]
fn synchronize_holds_later_posts_of_the_host() {
    let f = Fixture::new();
    let w = StreamId::Worker(3);
    // Rank 0 synchronizes its worker (blocked on a recv) before posting the send that rank 1
    // waits for on its way to the matching send: a host-side deadlock.
    let t0 = RankTrace {
        entries: vec![
            f.entry(Some(w), f.recv(1)),
            f.entry(None, Event::Synchronize { stream: w, position: 1 }),
            f.entry(Some(StreamId::Main), f.send(1)),
        ],
    };
    let t1 = f.on_main(vec![f.recv(0), f.send(0)]);
    let dl = f.run(&[t0, t1]).unwrap_err();
    assert!(dl.blocked.iter().any(|b| b.rank == 0 && b.stream.is_none()), "{dl:?}");
}

#[test]
fn collectives_on_different_streams_match_by_posting_order() {
    let f = Fixture::new();
    let t0 = RankTrace { entries: vec![f.entry(Some(StreamId::Worker(1)), f.allreduce(&[0, 1]))] };
    let t1 = f.on_main(vec![f.allreduce(&[0, 1])]);
    assert!(f.run(&[t0, t1]).is_ok());
}

#[test]
fn mismatches_are_reported_not_simulated() {
    let f = Fixture::new();
    // Rank 1 never enters the allreduce; rank 0's send has no recv.
    let t0 = f.on_main(vec![f.allreduce(&[0, 1]), f.send(1)]);
    let t1 = f.on_main(vec![]);
    let diags = verify_traces(&f.ctx, &[t0, t1]);
    let msgs: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(diags.len(), 2, "{msgs:?}");
    assert!(msgs.iter().any(|m| m.contains("rank 1 never posts the comm.allreduce that rank 0 posts")), "{msgs:?}");
    assert!(msgs.iter().any(|m| m.contains("has no matching recv")), "{msgs:?}");
}

#[test]
fn collective_size_rules() {
    let f = Fixture::new();
    let gather = |input: i64, output: i64| {
        let mut p = f.post(CommKind::Allgather, None, &[0, 1], Backend::Nccl, None);
        p.input = f.buf(input);
        p.output = f.buf(output);
        f.on_main(vec![Event::Post(Box::new(p))])
    };
    assert!(verify_traces(&f.ctx, &[gather(4, 8), gather(4, 8)]).is_empty());
    let diags = verify_traces(&f.ctx, &[gather(4, 8), gather(4, 4)]);
    assert_eq!(diags.len(), 1);
    assert!(diags[0].message.contains("output = team size x input"), "{}", diags[0].message);
}

#[test]
fn reporter_caps_repeats_per_op() {
    let f = Fixture::new();
    let mut r = Reporter::default();
    for i in 0..10 {
        r.report(f.op, "x", fuser_ir::Diagnostic::error(f.ctx.unknown_loc(), format!("problem {i}")));
    }
    let diags = r.finish();
    assert_eq!(diags.len(), super::report::MAX_PER_SITE);
    assert!(diags.last().unwrap().notes[0].message.contains("7 more similar problems"));
}
