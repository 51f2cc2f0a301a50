//! The abstract interpreter of `comm-verify`: runs a rank-generic host program for one concrete
//! rank of a team of known size and records its [`RankTrace`].
//!
//! What it evaluates: `host.rank`, `host.world_size`, the integer `arith` ops (constant,
//! add/sub/mul, signed and unsigned div/rem, cmpi, select, index_cast, min/max when present),
//! `host.for` with concrete indices, `host.if` on computed conditions, the stream ops (which
//! stream is current, which stream a value names) and the `comm` ops (peers, roots, requests).
//! Buffers are known only by their static types and, for the buffers of a post, by the index
//! values of the views leading to them ([`ViewKey`]); compute, copy, view, alloc and launch ops
//! are no-ops here. Anything else is a diagnostic ("cannot interpret"), never a panic.
//!
//! Invariants: every value read was computed by an earlier op of this run or is reported as
//! unknown; loops run at most [`MAX_TRIP_COUNT`] iterations and a rank interprets at most
//! [`MAX_STEPS`] ops in total, so interpretation always terminates.

use super::trace::{
    BufInfo, CommKind, CommPost, Entry, Event, HandleExchange, RankTrace, ReqId, Site, StreamId, ViewKey,
};
use fuser_dialects::IntConst;
use fuser_dialects::arith::CmpPredicate;
use fuser_dialects::comm::{self, Backend};
use fuser_dialects::host::types::BufferType;
use fuser_ir::apint::ApInt;
use fuser_ir::attrs::Attr;
use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{BlockId, Ir, OpId, Value};
use fuser_ir::types::{Type, TypeKind};
use rustc_hash::FxHashMap;

/// The most iterations one `host.for` may run.
pub const MAX_TRIP_COUNT: i64 = 1_000_000;
/// The most ops one rank may interpret (all loop iterations together).
pub const MAX_STEPS: u64 = 20_000_000;

/// An abstract value.
#[derive(Clone, PartialEq, Eq, Debug)]
enum AbsVal {
    Int(IntConst),
    Stream(StreamId),
    Request(ReqId),
}

/// Ops that only touch buffers (no effect on communication or control).
const NO_OPS: &[&str] = &[
    "host.alloc",
    "host.dealloc",
    "host.shard_by_stream",
    "host.select",
    "host.slice",
    "host.expand",
    "host.permute",
    "host.reshape",
    "host.copy",
    "host.matmul",
    "host.linear",
    "host.elementwise",
    "host.fill",
    "host.sum",
    "host.reduce",
    "host.kernel",
    "host.fused",
    "host.launch",
    "func.return",
];

/// Ops that make a view of their first operand; their other operands are indices.
const VIEW_OPS: &[&str] =
    &["host.shard_by_stream", "host.select", "host.slice", "host.expand", "host.permute", "host.reshape"];

/// The longest chain of views followed back to a buffer (a guard against malformed IR).
const MAX_VIEW_DEPTH: usize = 64;

/// Interprets the body of `func` as rank `rank` of `world` ranks.
pub fn interpret(ctx: &Context, ir: &Ir, func: OpId, rank: i64, world: i64) -> Result<RankTrace, Diagnostic> {
    let mut it = Interp {
        ctx,
        ir,
        rank,
        world,
        values: FxHashMap::default(),
        current: StreamId::Main,
        posted: FxHashMap::default(),
        iters: Vec::new(),
        trace: RankTrace::default(),
        steps: 0,
        group: None,
    };
    let Some(body) = ir.regions(func).first().and_then(|&r| ir.region_entry(r)) else {
        return Ok(it.trace);
    };
    it.run_block(body)?;
    Ok(it.trace)
}

/// The posts of the `comm.group` being interpreted and the request id they complete with.
struct OpenGroup {
    posts: Vec<CommPost>,
    request: ReqId,
}

struct Interp<'a> {
    ctx: &'a Context,
    ir: &'a Ir,
    rank: i64,
    world: i64,
    values: FxHashMap<Value, AbsVal>,
    current: StreamId,
    /// Entries posted so far per stream.
    posted: FxHashMap<StreamId, usize>,
    iters: Vec<i64>,
    trace: RankTrace,
    steps: u64,
    group: Option<OpenGroup>,
}

impl Interp<'_> {
    fn name(&self, op: OpId) -> &str {
        self.ctx.op_name_str(self.ir.op_name(op))
    }

    fn error(&self, op: OpId, msg: impl Into<String>) -> Diagnostic {
        fuser_ir::pass::op_error(self.ctx, self.ir, op, format!("comm-verify: {}", msg.into()))
    }

    fn site(&self, op: OpId) -> Site {
        Site { op, loc: self.ir.loc(op), iters: self.iters.clone() }
    }

    fn run_block(&mut self, b: BlockId) -> Result<(), Diagnostic> {
        for op in self.ir.block_ops(b) {
            self.steps += 1;
            if self.steps > MAX_STEPS {
                return Err(
                    self.error(op, format!("rank {} interprets more than {MAX_STEPS} ops; giving up", self.rank))
                );
            }
            self.run_op(op)?;
        }
        Ok(())
    }

    fn run_op(&mut self, op: OpId) -> Result<(), Diagnostic> {
        let name = self.name(op).to_string();
        if name.starts_with("arith.") {
            return self.run_arith(op, &name);
        }
        if let Some(kind) = CommKind::from_op_name(&name) {
            return self.run_post(op, kind);
        }
        match name.as_str() {
            "host.rank" => self.set_int(op, IntConst::new(64, self.rank as u128)),
            "host.world_size" => self.set_int(op, IntConst::new(64, self.world as u128)),
            "host.for" => self.run_for(op),
            "host.if" => self.run_if(op),
            "host.current_stream" => {
                self.set(op, AbsVal::Stream(self.current));
                Ok(())
            }
            "host.get_stream" => {
                let k = sval(&self.int(op, 0)?.0);
                self.set(op, AbsVal::Stream(StreamId::Worker(k)));
                Ok(())
            }
            "host.set_stream" => {
                self.current = self.stream(op, 0)?;
                Ok(())
            }
            "host.stream_wait" => self.run_stream_wait(op),
            "host.synchronize" => {
                let stream = self.stream(op, 0)?;
                let position = self.posted_on(stream);
                self.push(op, None, Event::Synchronize { stream, position });
                Ok(())
            }
            "comm.group" => self.run_group(op),
            "comm.wait" => self.run_wait(op),
            "comm.share_handles" => self.run_share_handles(op),
            n if NO_OPS.contains(&n) => Ok(()),
            n => Err(self.error(op, format!("cannot interpret '{n}'"))),
        }
    }

    // ----- values ----------------------------------------------------------------------------

    fn set(&mut self, op: OpId, v: AbsVal) {
        if let Some(&r) = self.ir.results(op).first() {
            self.values.insert(r, v);
        }
    }

    fn set_int(&mut self, op: OpId, c: IntConst) -> Result<(), Diagnostic> {
        self.set(op, AbsVal::Int(c));
        Ok(())
    }

    fn value(&self, op: OpId, v: Value) -> Result<AbsVal, Diagnostic> {
        self.values.get(&v).cloned().ok_or_else(|| {
            self.error(
                op,
                format!(
                    "operand of '{}' is not computable from the rank, the team size and loop indices",
                    self.name(op)
                ),
            )
        })
    }

    fn int_value(&self, op: OpId, v: Value) -> Result<IntConst, Diagnostic> {
        match self.value(op, v)? {
            AbsVal::Int(c) => Ok(c),
            _ => Err(self.error(op, format!("expected an integer operand of '{}'", self.name(op)))),
        }
    }

    fn int(&self, op: OpId, i: usize) -> Result<IntConst, Diagnostic> {
        self.int_value(op, self.ir.operand(op, i))
    }

    fn stream(&self, op: OpId, i: usize) -> Result<StreamId, Diagnostic> {
        match self.value(op, self.ir.operand(op, i))? {
            AbsVal::Stream(s) => Ok(s),
            _ => Err(self.error(op, format!("expected a stream operand of '{}'", self.name(op)))),
        }
    }

    /// A property (or, for generic IR without `<{...}>`, a discardable attribute).
    fn prop(&self, op: OpId, name: &str) -> Option<Attr> {
        self.ir
            .props(op)
            .and_then(|p| self.ctx.dict_get(p, name))
            .or_else(|| self.ctx.dict_get(self.ir.attrs(op), name))
    }

    fn width(&self, t: Type) -> Option<u32> {
        match self.ctx.type_kind(t) {
            TypeKind::Index => Some(64),
            TypeKind::Integer { width, .. } if *width <= 64 => Some(*width),
            _ => None,
        }
    }

    // ----- arith -----------------------------------------------------------------------------

    fn run_arith(&mut self, op: OpId, name: &str) -> Result<(), Diagnostic> {
        let Some(&res) = self.ir.results(op).first() else {
            return Err(self.error(op, format!("cannot interpret '{name}'")));
        };
        let Some(w) = self.width(self.ir.value_type(res)) else {
            return Err(self.error(op, format!("cannot interpret '{name}' on a non-integer type")));
        };
        let c = match name {
            "arith.constant" => {
                let a = self.prop(op, "value").and_then(|a| fuser_dialects::int_const(self.ctx, a));
                let Some((c, _)) = a else {
                    return Err(self.error(op, "cannot interpret 'arith.constant' of this value"));
                };
                IntConst(c.sext_or_trunc(w))
            }
            "arith.index_cast" => IntConst(self.int(op, 0)?.sext_or_trunc(w)),
            "arith.select" => {
                let cond = self.int(op, 0)?;
                self.int(op, if cond.is_zero() { 2 } else { 1 })?
            }
            "arith.cmpi" => {
                let pred =
                    self.prop(op, "predicate").and_then(|a| self.ctx.attr_i64(a)).and_then(CmpPredicate::from_i64);
                let Some(pred) = pred else { return Err(self.error(op, "arith.cmpi without a predicate")) };
                IntConst::new(1, pred.eval(&self.int(op, 0)?.0, &self.int(op, 1)?.0) as u128)
            }
            _ => {
                let (l, r) = (self.int(op, 0)?, self.int(op, 1)?);
                match binary(name, &l, &r) {
                    Binary::Value(v) => IntConst(v.sext_or_trunc(w)),
                    Binary::DivByZero => {
                        return Err(self.error(
                            op,
                            format!("division by zero on rank {}{}", self.rank, self.site(op).iter_suffix()),
                        ));
                    }
                    Binary::Unknown => return Err(self.error(op, format!("cannot interpret '{name}'"))),
                }
            }
        };
        self.set_int(op, c)
    }

    // ----- control flow ----------------------------------------------------------------------

    fn run_for(&mut self, op: OpId) -> Result<(), Diagnostic> {
        let (lb, ub, step) = (self.int(op, 0)?, self.int(op, 1)?, self.int(op, 2)?);
        let (lb, ub, step) = (sval(&lb) as i128, sval(&ub) as i128, sval(&step) as i128);
        if step <= 0 {
            return Err(self.error(op, format!("loop step {step} is not positive on rank {}", self.rank)));
        }
        let trips = if ub > lb { (ub - lb + step - 1) / step } else { 0 };
        if trips > MAX_TRIP_COUNT as i128 {
            return Err(self.error(
                op,
                format!("loop runs {trips} iterations, more than the {MAX_TRIP_COUNT} comm-verify interprets"),
            ));
        }
        let Some(body) = self.ir.regions(op).first().and_then(|&r| self.ir.region_entry(r)) else { return Ok(()) };
        let Some(&index) = self.ir.block_args(body).first() else { return Ok(()) };
        let mut i = lb;
        while i < ub {
            self.values.insert(index, AbsVal::Int(IntConst::new(64, i as u128)));
            self.iters.push(i as i64);
            let r = self.run_block(body);
            self.iters.pop();
            r?;
            i += step;
        }
        Ok(())
    }

    fn run_if(&mut self, op: OpId) -> Result<(), Diagnostic> {
        let cond = self.int(op, 0)?;
        let region = if cond.is_zero() { 1 } else { 0 };
        let Some(&r) = self.ir.regions(op).get(region) else { return Ok(()) };
        match self.ir.region_entry(r) {
            Some(b) => self.run_block(b),
            None => Ok(()),
        }
    }

    // ----- streams ---------------------------------------------------------------------------

    fn posted_on(&self, s: StreamId) -> usize {
        self.posted.get(&s).copied().unwrap_or(0)
    }

    /// Appends an entry on `stream` (`None`: host-side); returns its index.
    fn push(&mut self, op: OpId, stream: Option<StreamId>, event: Event) -> usize {
        if let Some(s) = stream {
            *self.posted.entry(s).or_insert(0) += 1;
        }
        let site = self.site(op);
        self.trace.entries.push(Entry { stream, event, site });
        self.trace.entries.len() - 1
    }

    fn run_stream_wait(&mut self, op: OpId) -> Result<(), Diagnostic> {
        let other = self.stream(op, 0)?;
        if other == self.current {
            return Ok(());
        }
        let position = self.posted_on(other);
        self.push(op, Some(self.current), Event::StreamWait { other, position });
        Ok(())
    }

    // ----- communication ---------------------------------------------------------------------

    fn buf_info(&self, v: Option<Value>) -> Option<BufInfo> {
        let bt = BufferType::of(self.ctx, self.ir.value_type(v?))?;
        Some(BufInfo { count: bt.static_num_elements(), elem: bt.elem })
    }

    /// The values of the index operands of the views leading to `v`, outermost view first;
    /// `None` when one is not computable.
    fn view_key(&self, v: Option<Value>) -> Option<ViewKey> {
        let mut key = Vec::new();
        let mut cur = v?;
        for _ in 0..MAX_VIEW_DEPTH {
            let Some(def) = self.ir.defining_op(cur) else { break };
            if !VIEW_OPS.contains(&self.name(def)) {
                break;
            }
            let operands = self.ir.operands(def);
            let mut indices = Vec::with_capacity(operands.len().saturating_sub(1));
            for &index in operands.iter().skip(1) {
                match self.values.get(&index) {
                    Some(AbsVal::Int(c)) => indices.push(sval(c)),
                    _ => return None,
                }
            }
            key.splice(0..0, indices);
            cur = operands[0];
        }
        Some(key)
    }

    fn opt_int(&self, op: OpId, v: Option<Value>) -> Result<Option<i64>, Diagnostic> {
        v.map(|v| self.int_value(op, v).map(|c| sval(&c))).transpose()
    }

    fn describe(&self, op: OpId, kind: CommKind) -> Result<CommPost, Diagnostic> {
        let (ctx, ir) = (self.ctx, self.ir);
        let (input, output) = match kind {
            CommKind::Send => (comm::buffer(ctx, ir, op), None),
            CommKind::Recv => (None, comm::buffer(ctx, ir, op)),
            _ => (comm::input(ctx, ir, op), comm::output(ctx, ir, op)),
        };
        Ok(CommPost {
            kind,
            team: comm::team(ctx, ir, op).unwrap_or_default(),
            reduction: comm::reduction_kind(ctx, ir, op),
            root: self.opt_int(op, comm::root(ctx, ir, op))?,
            peer: self.opt_int(op, comm::peer(ctx, ir, op))?,
            send_to: self.opt_int(op, comm::send_to(ctx, ir, op))?,
            recv_from: self.opt_int(op, comm::recv_from(ctx, ir, op))?,
            backend: comm::backend(ctx, ir, op),
            protocol: comm::protocol(ctx, ir, op),
            input: self.buf_info(input),
            output: self.buf_info(output),
            input_view: self.view_key(input),
            output_view: self.view_key(output),
            site: self.site(op),
        })
    }

    fn run_post(&mut self, op: OpId, kind: CommKind) -> Result<(), Diagnostic> {
        let post = self.describe(op, kind)?;
        if post.backend == Backend::CudaIpc && !matches!(kind, CommKind::Send | CommKind::Recv) {
            self.check_copy_engine(op, kind)?;
        }
        if let Some(g) = &mut self.group {
            g.posts.push(post);
            let request = g.request;
            self.set(op, AbsVal::Request(request));
            return Ok(());
        }
        let index = self.push(op, Some(self.current), Event::Post(Box::new(post)));
        self.set(op, AbsVal::Request(index));
        Ok(())
    }

    /// A copy-engine collective (`backend = cuda_ipc`, docs/dev/copy-engine.md; every kind
    /// has one) is posted on its own: its copies are not NCCL calls, so it cannot join the
    /// NCCL group of a `comm.group` (`comm-collective-backend{backend=cuda_ipc}` ungroups).
    /// Its blocking is modelled as an NCCL collective's ([`super::trace::Blocking::Rendezvous`]):
    /// the copies of a member wait for the ready flags of the peers it pulls from on its posting
    /// stream; a member that only signals (a broadcast's or scatter's root, a reduce's or
    /// gather's non-roots) blocks less on the GPU, so the model is the conservative side.
    fn check_copy_engine(&self, op: OpId, kind: CommKind) -> Result<(), Diagnostic> {
        if self.group.is_some() {
            return Err(self.error(
                op,
                format!("a copy-engine {} (backend = cuda_ipc) cannot be part of a comm.group", kind.op_name()),
            ));
        }
        Ok(())
    }

    fn run_group(&mut self, op: OpId) -> Result<(), Diagnostic> {
        if self.group.is_some() {
            return Err(self.error(op, "nested comm.group"));
        }
        let request = self.trace.entries.len();
        self.group = Some(OpenGroup { posts: Vec::new(), request });
        let body = self.ir.regions(op).first().and_then(|&r| self.ir.region_entry(r));
        let r = match body {
            Some(b) => self.run_block(b),
            None => Ok(()),
        };
        let group = self.group.take();
        r?;
        let posts = group.map(|g| g.posts).unwrap_or_default();
        let index = self.push(op, Some(self.current), Event::Group(posts));
        debug_assert_eq!(index, request);
        self.set(op, AbsVal::Request(index));
        Ok(())
    }

    fn run_wait(&mut self, op: OpId) -> Result<(), Diagnostic> {
        if self.group.is_some() {
            return Err(self.error(op, "comm.wait inside a comm.group"));
        }
        let mut requests = Vec::new();
        for v in self.ir.operands(op) {
            match self.value(op, v)? {
                AbsVal::Request(r) => requests.push(r),
                _ => return Err(self.error(op, "expected a request operand of 'comm.wait'")),
            }
        }
        self.push(op, Some(self.current), Event::Wait(requests));
        Ok(())
    }

    fn run_share_handles(&mut self, op: OpId) -> Result<(), Diagnostic> {
        let mut peers = Vec::new();
        let pairs = comm::share_handles_sends(self.ctx, self.ir, op)
            .into_iter()
            .chain(comm::share_handles_recvs(self.ctx, self.ir, op));
        for (_, p) in pairs {
            let peer = sval(&self.int_value(op, p)?.0);
            if !peers.contains(&peer) {
                peers.push(peer);
            }
        }
        self.push(op, None, Event::ShareHandles(HandleExchange { peers }));
        Ok(())
    }
}

/// A value of at most 64 bits (every integer the interpreter holds, see `width`) as `i64`.
fn sval(c: &ApInt) -> i64 {
    c.sext_or_trunc(64).low_u64() as i64
}

/// The result of a binary integer op.
enum Binary {
    Value(ApInt),
    DivByZero,
    Unknown,
}

/// Evaluates a binary `arith` op on two constants of one width (the caller truncates).
fn binary(name: &str, l: &ApInt, r: &ApInt) -> Binary {
    let div = |v: Option<ApInt>| v.map_or(Binary::DivByZero, Binary::Value);
    let pick = |left: bool| Binary::Value(if left { l.clone() } else { r.clone() });
    match name {
        "arith.addi" => Binary::Value(l.add(r)),
        "arith.subi" => Binary::Value(l.sub(r)),
        "arith.muli" => Binary::Value(l.mul(r)),
        "arith.divsi" => div(l.sdiv(r)),
        "arith.remsi" => div(l.srem(r)),
        "arith.divui" => div(l.udiv(r)),
        "arith.remui" => div(l.urem(r)),
        "arith.minsi" => pick(l.sle(r)),
        "arith.maxsi" => pick(!l.slt(r)),
        "arith.minui" => pick(l.ule(r)),
        "arith.maxui" => pick(!l.ult(r)),
        _ => Binary::Unknown,
    }
}
