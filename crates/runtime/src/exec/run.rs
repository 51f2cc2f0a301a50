//! Interpreting a prepared [`Program`] for one rank over a [`Backend`]: `index` math inline on
//! `i64`s, buffers, views, streams and requests in the slots of a dense value store (a `Vec`
//! indexed by slot, allocated once per run), compute and communication handed to the backend.
//!
//! Invariant: an error carries the op key of the instruction that failed and the rank.

use super::backend::{Backend, CommOp, Kernel};
use super::prepare::{CommInstr, Dim, Instr, IntBinOp, KernelInstr, Layout, Program, Slot};
use crate::buffer::Dims;
use crate::error::{OpKey, RtError, RtResult};
use fuser_dialects::arith::CmpPredicate;

/// A runtime value.
pub enum Val<B: Backend> {
    Empty,
    Int(i64),
    Buf(B::Buf),
    Stream(B::Stream),
    Req(B::Request),
}

impl<B: Backend> Clone for Val<B> {
    fn clone(&self) -> Self {
        match self {
            Val::Empty => Val::Empty,
            Val::Int(v) => Val::Int(*v),
            Val::Buf(b) => Val::Buf(b.clone()),
            Val::Stream(s) => Val::Stream(s.clone()),
            Val::Req(r) => Val::Req(r.clone()),
        }
    }
}

/// The interpreter state of one rank.
struct Frame<'p, B: Backend> {
    prog: &'p Program,
    backend: &'p B,
    rank: usize,
    slots: Vec<Val<B>>,
    current: B::Stream,
    /// While inside a `comm.group`: the posts collected so far.
    group: Option<Vec<CommOp<B::Buf>>>,
    returned: Option<Vec<B::Buf>>,
}

/// Runs `prog` on `rank` with the argument buffers; returns the buffers `func.return` returns.
pub fn run_program<B: Backend>(prog: &Program, backend: &B, rank: usize, args: &[B::Buf]) -> RtResult<Vec<B::Buf>> {
    if args.len() != prog.args.len() {
        return Err(RtError::new(format!("'{}' takes {} arguments, got {}", prog.name, prog.args.len(), args.len())));
    }
    let mut f = Frame {
        prog,
        backend,
        rank,
        slots: vec![Val::Empty; prog.num_slots],
        current: backend.main_stream(rank).map_err(|e| e.on_rank(rank))?,
        group: None,
        returned: None,
    };
    for (&s, a) in prog.args.iter().zip(args) {
        f.slots[s as usize] = Val::Buf(a.clone());
    }
    f.range(0, prog.instrs.len()).map_err(|e| e.on_rank(rank))?;
    backend.finish(rank).map_err(|e| e.on_rank(rank))?;
    Ok(f.returned.unwrap_or_default())
}

fn wrap(v: i64, bits: u32) -> i64 {
    if bits >= 64 || bits == 0 {
        v
    } else if bits == 1 {
        v & 1
    } else {
        let shift = 64 - bits;
        (v << shift) >> shift
    }
}

fn unsigned(v: i64, bits: u32) -> u64 {
    if bits >= 64 { v as u64 } else { (v as u64) & ((1u64 << bits) - 1) }
}

fn int_bin(op: IntBinOp, a: i64, b: i64, bits: u32) -> Result<i64, String> {
    let zero = || Err("division by zero".to_string());
    Ok(wrap(
        match op {
            IntBinOp::Add => a.wrapping_add(b),
            IntBinOp::Sub => a.wrapping_sub(b),
            IntBinOp::Mul => a.wrapping_mul(b),
            IntBinOp::DivS => {
                if b == 0 {
                    return zero();
                }
                a.wrapping_div(b)
            }
            IntBinOp::RemS => {
                if b == 0 {
                    return zero();
                }
                a.wrapping_rem(b)
            }
            IntBinOp::DivU | IntBinOp::RemU => {
                let (ua, ub) = (unsigned(a, bits), unsigned(b, bits));
                if ub == 0 {
                    return zero();
                }
                (if op == IntBinOp::DivU { ua / ub } else { ua % ub }) as i64
            }
        },
        bits,
    ))
}

fn compare(pred: CmpPredicate, a: i64, b: i64, bits: u32) -> bool {
    let (ua, ub) = (unsigned(a, bits), unsigned(b, bits));
    match pred {
        CmpPredicate::Eq => ua == ub,
        CmpPredicate::Ne => ua != ub,
        CmpPredicate::Slt => a < b,
        CmpPredicate::Sle => a <= b,
        CmpPredicate::Sgt => a > b,
        CmpPredicate::Sge => a >= b,
        CmpPredicate::Ult => ua < ub,
        CmpPredicate::Ule => ua <= ub,
        CmpPredicate::Ugt => ua > ub,
        CmpPredicate::Uge => ua >= ub,
    }
}

impl<'p, B: Backend> Frame<'p, B> {
    fn key(&self, pc: usize) -> &'p OpKey {
        &self.prog.keys[pc]
    }

    fn int(&self, s: Slot) -> RtResult<i64> {
        match &self.slots[s as usize] {
            Val::Int(v) => Ok(*v),
            other => Err(RtError::new(format!("expected an integer, found {}", kind_name(other)))),
        }
    }
    fn index(&self, s: Slot) -> RtResult<usize> {
        let v = self.int(s)?;
        usize::try_from(v).map_err(|_| RtError::new(format!("negative index {v}")))
    }
    /// The buffer in slot `s`, borrowed (views of it need no clone of it).
    fn buf_ref(&self, s: Slot) -> RtResult<&B::Buf> {
        match &self.slots[s as usize] {
            Val::Buf(b) => Ok(b),
            other => Err(RtError::new(format!("expected a buffer, found {}", kind_name(other)))),
        }
    }
    fn buf(&self, s: Slot) -> RtResult<B::Buf> {
        self.buf_ref(s).cloned()
    }
    fn stream(&self, s: Slot) -> RtResult<B::Stream> {
        match &self.slots[s as usize] {
            Val::Stream(x) => Ok(x.clone()),
            other => Err(RtError::new(format!("expected a stream, found {}", kind_name(other)))),
        }
    }
    fn request(&self, s: Slot) -> RtResult<B::Request> {
        match &self.slots[s as usize] {
            Val::Req(x) => Ok(x.clone()),
            other => Err(RtError::new(format!("expected a request, found {}", kind_name(other)))),
        }
    }
    fn set(&mut self, s: Slot, v: Val<B>) {
        self.slots[s as usize] = v;
    }
    /// Stores an integer; in place when the slot already holds one (a `Val` is as large as
    /// the biggest backend value, so moving a whole one per index op would dominate them).
    #[inline]
    fn set_int(&mut self, s: Slot, v: i64) {
        match &mut self.slots[s as usize] {
            Val::Int(old) => *old = v,
            other => *other = Val::Int(v),
        }
    }
    fn dim(&self, d: &Dim) -> RtResult<usize> {
        match *d {
            Dim::Static(v) => usize::try_from(v).map_err(|_| RtError::new(format!("negative extent {v}"))),
            Dim::Slot(s) => self.index(s),
        }
    }
    fn dims(&self, ds: &[Dim]) -> RtResult<Dims> {
        ds.iter().map(|d| self.dim(d)).collect()
    }

    /// Runs the instructions `[start, end)`.
    fn range(&mut self, start: usize, end: usize) -> RtResult<()> {
        let mut pc = start;
        while pc < end && self.returned.is_none() {
            pc = self.step(pc).map_err(|e| e.at(self.key(pc)))?;
        }
        Ok(())
    }

    /// Runs the instruction at `pc`; returns the next position.
    fn step(&mut self, pc: usize) -> RtResult<usize> {
        let (backend, rank) = (self.backend, self.rank);
        let key = self.key(pc);
        match &self.prog.instrs[pc] {
            Instr::Const { dst, value } => self.set_int(*dst, *value),
            Instr::IntBin { op, dst, a, b, bits } => {
                let v = int_bin(*op, self.int(*a)?, self.int(*b)?, *bits).map_err(RtError::new)?;
                self.set_int(*dst, v);
            }
            Instr::Cmp { pred, dst, a, b, bits } => {
                let v = compare(*pred, self.int(*a)?, self.int(*b)?, *bits);
                self.set_int(*dst, v as i64);
            }
            Instr::Select { dst, cond, a, b } => {
                let v = if self.int(*cond)? & 1 != 0 {
                    self.slots[*a as usize].clone()
                } else {
                    self.slots[*b as usize].clone()
                };
                self.set(*dst, v);
            }
            Instr::Cast { dst, src, bits } => {
                let v = wrap(self.int(*src)?, *bits);
                self.set_int(*dst, v);
            }
            Instr::Alloc { dst, dtype, shape, persistent } => {
                let shape = self.dims(shape)?;
                let b = backend.alloc(rank, *dtype, &shape, *persistent, key)?;
                self.set(*dst, Val::Buf(b));
            }
            Instr::Dealloc { buf } => backend.dealloc(rank, &self.current, self.buf_ref(*buf)?, key)?,
            Instr::ShardByStream { dst, src, index, axis, chunks } => {
                let v = self.shard_by_stream(*src, *index, *axis, *chunks)?;
                self.set(*dst, Val::Buf(v));
            }
            Instr::SelectView { dst, src, index, axis } => {
                let v = backend.select(self.buf_ref(*src)?, *axis, self.index(*index)?)?;
                self.set(*dst, Val::Buf(v));
            }
            Instr::LayoutView { dst, src, layout } => {
                let v = layout_view(backend, self.buf_ref(*src)?, layout)?;
                self.set(*dst, Val::Buf(v));
            }
            Instr::Slice { dst, src, offsets, sizes, steps } => {
                let v = backend.subview(
                    self.buf_ref(*src)?,
                    &self.dims(offsets)?,
                    &self.dims(sizes)?,
                    &self.dims(steps)?,
                )?;
                self.set(*dst, Val::Buf(v));
            }
            Instr::Compute(k) => {
                let k = self.kernel(k)?;
                backend.compute(rank, &self.current, k, key)?;
            }
            Instr::For { iv, lb, ub, step, end } => {
                let (lb, ub, step) = (self.int(*lb)?, self.int(*ub)?, self.int(*step)?);
                if step <= 0 {
                    return Err(RtError::new(format!("loop step must be positive, got {step}")));
                }
                let mut i = lb;
                while i < ub && self.returned.is_none() {
                    self.set_int(*iv, i);
                    self.range(pc + 1, *end as usize)?;
                    i = i.saturating_add(step);
                }
                return Ok(*end as usize);
            }
            Instr::If { cond, else_start, end } => {
                if self.int(*cond)? & 1 != 0 {
                    self.range(pc + 1, *else_start as usize)?;
                } else {
                    self.range(*else_start as usize, *end as usize)?;
                }
                return Ok(*end as usize);
            }
            Instr::CurrentStream { dst } => {
                let s = self.current.clone();
                self.set(*dst, Val::Stream(s));
            }
            Instr::GetStream { dst, index } => {
                let s = backend.worker_stream(rank, self.index(*index)?)?;
                self.set(*dst, Val::Stream(s));
            }
            Instr::SetStream { stream } => self.current = self.stream(*stream)?,
            Instr::StreamWait { stream } => backend.stream_wait(rank, &self.current, &self.stream(*stream)?, key)?,
            Instr::Synchronize { stream } => backend.synchronize(rank, &self.stream(*stream)?, key)?,
            Instr::Rank { dst } => self.set_int(*dst, rank as i64),
            Instr::WorldSize { dst } => self.set_int(*dst, backend.world_size() as i64),
            Instr::Comm { op, dst } => {
                let c = self.comm(op)?;
                if let Some(group) = &mut self.group {
                    group.push(c);
                } else {
                    let r = backend.post(rank, &self.current, c, key)?;
                    if let Some(d) = dst {
                        self.set(*d, Val::Req(r));
                    }
                }
            }
            Instr::Group { dst, end } => {
                if self.group.is_some() {
                    return Err(RtError::new("nested comm.group"));
                }
                self.group = Some(Vec::new());
                let body = self.range(pc + 1, *end as usize);
                let posts = self.group.take().unwrap_or_default();
                body?;
                let r = backend.post(rank, &self.current, CommOp::Group(posts), key)?;
                if let Some(d) = dst {
                    self.set(*d, Val::Req(r));
                }
                return Ok(*end as usize);
            }
            Instr::Wait { requests } => {
                let reqs = requests.iter().map(|&s| self.request(s)).collect::<RtResult<Vec<_>>>()?;
                backend.wait(rank, &self.current, &reqs, key)?;
            }
            Instr::Return { values } => {
                let bufs = values.iter().map(|&s| self.buf(s)).collect::<RtResult<Vec<_>>>()?;
                backend.returned(rank, &self.current, &bufs, key)?;
                self.returned = Some(bufs);
            }
        }
        Ok(pc + 1)
    }

    fn shard_by_stream(&self, src: Slot, index: Slot, axis: usize, chunks: usize) -> RtResult<B::Buf> {
        let buf = self.buf_ref(src)?;
        let shape = self.backend.shape(buf);
        let i = self.index(index)?;
        let extent = *shape.get(axis).ok_or_else(|| RtError::new(format!("axis {axis} out of range for {shape:?}")))?;
        if extent % chunks != 0 {
            return Err(RtError::new(format!("extent {extent} of axis {axis} is not divisible into {chunks} chunks")));
        }
        if i >= chunks {
            return Err(RtError::new(format!("chunk index {i} out of range for {chunks} chunks")));
        }
        let chunk = extent / chunks;
        let mut offsets = Dims::filled(shape.len(), 0);
        let mut sizes = Dims::from_slice(&shape);
        offsets[axis] = i * chunk;
        sizes[axis] = chunk;
        self.backend.subview(buf, &offsets, &sizes, &Dims::filled(shape.len(), 1))
    }

    fn kernel(&self, k: &KernelInstr) -> RtResult<Kernel<B::Buf>> {
        Ok(match k {
            KernelInstr::Copy { source, target } => {
                Kernel::Copy { source: self.buf(*source)?, target: self.buf(*target)? }
            }
            KernelInstr::Matmul { a, b, c, accumulate } => {
                Kernel::Matmul { a: self.buf(*a)?, b: self.buf(*b)?, c: self.buf(*c)?, accumulate: *accumulate }
            }
            KernelInstr::Linear { x, w, bias, residual, y, accumulate, epilogue } => Kernel::Linear {
                x: self.buf(*x)?,
                w: self.buf(*w)?,
                bias: bias.map(|b| self.buf(b)).transpose()?,
                residual: residual.map(|r| self.buf(r)).transpose()?,
                y: self.buf(*y)?,
                accumulate: *accumulate,
                epilogue: *epilogue,
            },
            KernelInstr::Elementwise { kind, inputs, output } => Kernel::Elementwise {
                kind: *kind,
                inputs: {
                    let mut bufs = Vec::with_capacity(inputs.len());
                    for &s in inputs {
                        bufs.push(self.buf(s)?);
                    }
                    bufs
                },
                output: self.buf(*output)?,
            },
            KernelInstr::Fill { target, value } => Kernel::Fill { target: self.buf(*target)?, value: *value },
            KernelInstr::Sum { input, output, dims } => {
                Kernel::Sum { input: self.buf(*input)?, output: self.buf(*output)?, dims: dims.clone() }
            }
            KernelInstr::Reduce { kind, input, output, dims } => {
                Kernel::Reduce { kind: *kind, input: self.buf(*input)?, output: self.buf(*output)?, dims: dims.clone() }
            }
            KernelInstr::Named { kernel, params, inputs, outputs, origin, global_shape } => Kernel::Named {
                kernel,
                params: params.clone(),
                inputs: inputs.iter().map(|&s| self.buf(s)).collect::<RtResult<_>>()?,
                outputs: outputs.iter().map(|&s| self.buf(s)).collect::<RtResult<_>>()?,
                origin: origin.iter().map(|&s| self.index(s)).collect::<RtResult<_>>()?,
                global_shape: global_shape.clone(),
            },
            KernelInstr::Fused { graph, inputs, outputs, origin } => Kernel::Fused {
                graph: graph.clone(),
                inputs: inputs.iter().map(|&s| self.buf(s)).collect::<RtResult<_>>()?,
                outputs: outputs.iter().map(|&s| self.buf(s)).collect::<RtResult<_>>()?,
                origin: origin.iter().map(|&s| self.index(s)).collect::<RtResult<_>>()?,
            },
        })
    }

    fn comm(&self, c: &CommInstr) -> RtResult<CommOp<B::Buf>> {
        Ok(match c {
            CommInstr::AllGather { input, output, team, transport } => CommOp::AllGather {
                input: self.buf(*input)?,
                output: self.buf(*output)?,
                team: team.clone(),
                transport: *transport,
            },
            CommInstr::AllReduce { input, output, team, reduction, transport } => CommOp::AllReduce {
                input: self.buf(*input)?,
                output: self.buf(*output)?,
                team: team.clone(),
                reduction: *reduction,
                transport: *transport,
            },
            CommInstr::ReduceScatter { input, output, team, reduction, transport } => CommOp::ReduceScatter {
                input: self.buf(*input)?,
                output: self.buf(*output)?,
                team: team.clone(),
                reduction: *reduction,
                transport: *transport,
            },
            CommInstr::Broadcast { input, output, team, root, transport } => CommOp::Broadcast {
                input: self.buf(*input)?,
                output: self.buf(*output)?,
                team: team.clone(),
                root: self.index(*root)?,
                transport: *transport,
            },
            CommInstr::Reduce { input, output, team, root, reduction, transport } => CommOp::Reduce {
                input: self.buf(*input)?,
                output: self.buf(*output)?,
                team: team.clone(),
                root: self.index(*root)?,
                reduction: *reduction,
                transport: *transport,
            },
            CommInstr::Gather { input, output, team, root, transport } => CommOp::Gather {
                input: self.buf(*input)?,
                output: self.buf(*output)?,
                team: team.clone(),
                root: self.index(*root)?,
                transport: *transport,
            },
            CommInstr::Scatter { input, output, team, root, transport } => CommOp::Scatter {
                input: self.buf(*input)?,
                output: self.buf(*output)?,
                team: team.clone(),
                root: self.index(*root)?,
                transport: *transport,
            },
            CommInstr::AllToAll { input, output, team, transport } => CommOp::AllToAll {
                input: self.buf(*input)?,
                output: self.buf(*output)?,
                team: team.clone(),
                transport: *transport,
            },
            CommInstr::CollectivePermute { input, output, team, send_to, recv_from, transport } => {
                CommOp::CollectivePermute {
                    input: self.buf(*input)?,
                    output: self.buf(*output)?,
                    team: team.clone(),
                    send_to: self.index(*send_to)?,
                    recv_from: self.index(*recv_from)?,
                    transport: *transport,
                }
            }
            CommInstr::Send { buffer, peer, transport, protocol } => CommOp::Send {
                buffer: self.buf(*buffer)?,
                peer: self.index(*peer)?,
                transport: *transport,
                protocol: *protocol,
            },
            CommInstr::Recv { buffer, peer, transport, protocol } => CommOp::Recv {
                buffer: self.buf(*buffer)?,
                peer: self.index(*peer)?,
                transport: *transport,
                protocol: *protocol,
            },
            CommInstr::ShareHandles { sends, recvs } => {
                let pairs = |ps: &[(Slot, Slot)]| -> RtResult<Vec<(B::Buf, usize)>> {
                    ps.iter().map(|&(b, p)| Ok((self.buf(b)?, self.index(p)?))).collect()
                };
                CommOp::ShareHandles { sends: pairs(sends)?, recvs: pairs(recvs)? }
            }
        })
    }
}

fn kind_name<B: Backend>(v: &Val<B>) -> &'static str {
    match v {
        Val::Empty => "an undefined value",
        Val::Int(_) => "an integer",
        Val::Buf(_) => "a buffer",
        Val::Stream(_) => "a stream",
        Val::Req(_) => "a request",
    }
}

/// The view a layout instruction makes of `src`.
fn layout_view<B: Backend>(backend: &B, src: &B::Buf, layout: &Layout) -> RtResult<B::Buf> {
    let (shape, strides) = (backend.shape(src), backend.strides(src));
    match layout {
        Layout::Expand { dims, shape: out } => {
            let mut from = shape.iter().zip(&strides);
            let mut new_strides = Vec::with_capacity(out.len());
            for r in 0..out.len() {
                if dims.contains(&(r as i64)) {
                    new_strides.push(0);
                } else {
                    let (_, &s) = from.next().ok_or_else(|| RtError::new("host.expand: rank mismatch"))?;
                    new_strides.push(s);
                }
            }
            backend.restride(src, out, &new_strides)
        }
        Layout::Permute { dims } => {
            let pick = |v: &[usize]| dims.iter().map(|&d| v.get(d as usize).copied()).collect::<Option<Vec<usize>>>();
            let (s, t) = (pick(&shape), pick(&strides));
            let (Some(s), Some(t)) = (s, t) else { return Err(RtError::new("host.permute: bad dims")) };
            backend.restride(src, &s, &t)
        }
        Layout::Reshape { shape: out } => {
            // Dense row-major; an extent-1 axis is never stepped, so its stride does not matter
            // (the dialect's rule: a stream chunk `[1, 5]` of a `[1, 15]` buffer).
            if !crate::layout::is_dense(&shape, &strides) {
                return Err(RtError::new("host.reshape: the source is not contiguous"));
            }
            backend.restride(src, out, &crate::buffer::contiguous_strides(out))
        }
    }
}
