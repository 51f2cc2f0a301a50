//! Preparing a host function for execution: every op is resolved once into an [`Instr`] whose
//! operands and results are slot indices of a dense value store (one slot per SSA value of the
//! function, numbered in definition order), loops and conditionals are nested instruction
//! ranges of one flat vector, and properties (teams, axes, kinds) are decoded. A [`Program`]
//! is then run any number of times by `run.rs` without looking at the IR again.
//!
//! Invariants: `instrs`, `keys` and `locs` have one entry per instruction; a `For`/`If`/`Group`
//! at position `i` owns the range that follows it, and its `end` is the position after that
//! range; every slot an instruction reads is written by an instruction before it in program
//! order (SSA dominance, guaranteed by the verified IR).

use crate::dtype::DType;
use crate::error::{OpKey, RtError};
use crate::fused::FusedGraph;
use crate::ops::{OpImpl, Params};
use fuser_dialects::arith::CmpPredicate;
use fuser_dialects::comm::attrs::{Backend as Transport, Protocol};
use fuser_dialects::host::types::BufferType;
use fuser_dialects::host::{ElementwiseKind, LinearEpilogue, ReduceKind};
use fuser_dialects::reduction::ReductionKind;
use fuser_ir::attrs::{Attr, AttrKind, DenseArrayData};
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId, Value};
use fuser_ir::types::{DYNAMIC, TypeKind};
use std::sync::Arc;

/// A slot of the value store.
pub type Slot = u32;

/// An extent or offset: known when preparing, or read from an `index` slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dim {
    Static(i64),
    Slot(Slot),
}

/// Integer binary operations of `arith`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntBinOp {
    Add,
    Sub,
    Mul,
    DivS,
    DivU,
    RemS,
    RemU,
}

/// A compute op with slot operands.
#[derive(Clone, Debug)]
pub enum KernelInstr {
    Copy {
        source: Slot,
        target: Slot,
    },
    Matmul {
        a: Slot,
        b: Slot,
        c: Slot,
        accumulate: bool,
    },
    /// `host.linear`: `y (+)= x·wᵀ (+ bias) (+ residual)`, then the epilogue.
    Linear {
        x: Slot,
        w: Slot,
        bias: Option<Slot>,
        residual: Option<Slot>,
        y: Slot,
        accumulate: bool,
        epilogue: Option<LinearEpilogue>,
    },
    Elementwise {
        kind: ElementwiseKind,
        inputs: Vec<Slot>,
        output: Slot,
    },
    Sum {
        input: Slot,
        output: Slot,
        dims: Vec<usize>,
    },
    Reduce {
        kind: ReduceKind,
        input: Slot,
        output: Slot,
        dims: Vec<usize>,
    },
    Fill {
        target: Slot,
        value: fuser_dialects::Scalar,
    },
    /// `host.kernel`: the resolved kernel, its decoded parameters, and the `index` slots of
    /// the origin (docs/dev/ops.md).
    Named {
        kernel: &'static OpImpl,
        params: Arc<Params>,
        inputs: Vec<Slot>,
        outputs: Vec<Slot>,
        origin: Vec<Slot>,
        global_shape: Arc<[usize]>,
    },
    /// `host.fused`: the region's graph (decoded and checked once) and the `index` slots of
    /// its origin.
    Fused {
        graph: Arc<FusedGraph>,
        inputs: Vec<Slot>,
        outputs: Vec<Slot>,
        origin: Vec<Slot>,
    },
}

/// A communication with slot operands (roots and peers are `index` slots).
#[derive(Clone, Debug)]
pub enum CommInstr {
    AllGather {
        input: Slot,
        output: Slot,
        team: Vec<usize>,
        transport: Transport,
    },
    AllReduce {
        input: Slot,
        output: Slot,
        team: Vec<usize>,
        reduction: ReductionKind,
        transport: Transport,
    },
    ReduceScatter {
        input: Slot,
        output: Slot,
        team: Vec<usize>,
        reduction: ReductionKind,
        transport: Transport,
    },
    Broadcast {
        input: Slot,
        output: Slot,
        team: Vec<usize>,
        root: Slot,
        transport: Transport,
    },
    Reduce {
        input: Slot,
        output: Slot,
        team: Vec<usize>,
        root: Slot,
        reduction: ReductionKind,
        transport: Transport,
    },
    Gather {
        input: Slot,
        output: Slot,
        team: Vec<usize>,
        root: Slot,
        transport: Transport,
    },
    Scatter {
        input: Slot,
        output: Slot,
        team: Vec<usize>,
        root: Slot,
        transport: Transport,
    },
    AllToAll {
        input: Slot,
        output: Slot,
        team: Vec<usize>,
        transport: Transport,
    },
    CollectivePermute {
        input: Slot,
        output: Slot,
        team: Vec<usize>,
        send_to: Slot,
        recv_from: Slot,
        transport: Transport,
    },
    Send {
        buffer: Slot,
        peer: Slot,
        transport: Transport,
        protocol: Protocol,
    },
    Recv {
        buffer: Slot,
        peer: Slot,
        transport: Transport,
        protocol: Protocol,
    },
    /// CUDA IPC handle exchange: (buffer, peer) pairs to export and to import.
    ShareHandles {
        sends: Vec<(Slot, Slot)>,
        recvs: Vec<(Slot, Slot)>,
    },
}

/// How a layout view re-strides its source.
#[derive(Clone, Debug)]
pub enum Layout {
    /// New stride-0 axes at result positions `dims`; `shape` is the result's.
    Expand { dims: Vec<i64>, shape: Vec<usize> },
    /// Result axis `i` is source axis `dims[i]`.
    Permute { dims: Vec<i64> },
    /// A contiguous source seen with `shape`.
    Reshape { shape: Vec<usize> },
}

/// One prepared op.
#[derive(Clone, Debug)]
pub enum Instr {
    /// An integer (`index`, `iN`, `i1` as 0/1).
    Const {
        dst: Slot,
        value: i64,
    },
    /// `dst = a op b`, wrapped to `bits`.
    IntBin {
        op: IntBinOp,
        dst: Slot,
        a: Slot,
        b: Slot,
        bits: u32,
    },
    Cmp {
        pred: CmpPredicate,
        dst: Slot,
        a: Slot,
        b: Slot,
        bits: u32,
    },
    /// `dst = cond ? a : b` (any slot kind).
    Select {
        dst: Slot,
        cond: Slot,
        a: Slot,
        b: Slot,
    },
    /// `dst = src` wrapped to `bits` (index_cast).
    Cast {
        dst: Slot,
        src: Slot,
        bits: u32,
    },
    Alloc {
        dst: Slot,
        dtype: DType,
        shape: Vec<Dim>,
        persistent: bool,
    },
    Dealloc {
        buf: Slot,
    },
    ShardByStream {
        dst: Slot,
        src: Slot,
        index: Slot,
        axis: usize,
        chunks: usize,
    },
    SelectView {
        dst: Slot,
        src: Slot,
        index: Slot,
        axis: usize,
    },
    /// `host.expand` / `host.permute` / `host.reshape`: the source re-strided.
    LayoutView {
        dst: Slot,
        src: Slot,
        layout: Layout,
    },
    Slice {
        dst: Slot,
        src: Slot,
        offsets: Vec<Dim>,
        sizes: Vec<Dim>,
        steps: Vec<Dim>,
    },
    Compute(KernelInstr),
    /// A loop over `lb, lb + step, ... < ub`; its body is `[self + 1, end)`.
    For {
        iv: Slot,
        lb: Slot,
        ub: Slot,
        step: Slot,
        end: u32,
    },
    /// Then range `[self + 1, else_start)`, else range `[else_start, end)`.
    If {
        cond: Slot,
        else_start: u32,
        end: u32,
    },
    CurrentStream {
        dst: Slot,
    },
    GetStream {
        dst: Slot,
        index: Slot,
    },
    SetStream {
        stream: Slot,
    },
    StreamWait {
        stream: Slot,
    },
    Synchronize {
        stream: Slot,
    },
    Rank {
        dst: Slot,
    },
    WorldSize {
        dst: Slot,
    },
    /// A post; `dst` receives the request.
    Comm {
        op: CommInstr,
        dst: Option<Slot>,
    },
    /// `comm.group`: the posts of `[self + 1, end)` are issued together; `dst` gets one request.
    Group {
        dst: Option<Slot>,
        end: u32,
    },
    Wait {
        requests: Vec<Slot>,
    },
    Return {
        values: Vec<Slot>,
    },
}

/// A prepared host function.
#[derive(Clone, Debug)]
pub struct Program {
    pub name: String,
    pub instrs: Vec<Instr>,
    /// The op of each instruction, for reports.
    pub keys: Vec<OpKey>,
    /// The location attribute of each instruction (for diagnostics).
    pub locs: Vec<Attr>,
    pub num_slots: usize,
    /// The slots of the function arguments.
    pub args: Vec<Slot>,
    /// The buffer type of each argument (shape with `?` as `DYNAMIC`, element type).
    pub arg_types: Vec<(Vec<i64>, DType)>,
    /// The location of the function, for errors without an op.
    pub func_loc: Attr,
}

/// Builds a [`Program`] from a `func.func` of host ops.
struct Preparer<'a> {
    ctx: &'a Context,
    ir: &'a Ir,
    /// SSA value index -> slot + 1 (0: not yet defined).
    slot_of: Vec<Slot>,
    num_slots: u32,
    instrs: Vec<Instr>,
    keys: Vec<OpKey>,
    locs: Vec<Attr>,
}

/// Prepares `func` (a `func.func` whose body holds host, comm and arith ops).
pub fn prepare(ctx: &Context, ir: &Ir, func: OpId) -> Result<Program, (Attr, String)> {
    let name = fuser_dialects::func::symbol_name(ctx, ir, func).unwrap_or("").to_string();
    let Some(&body) = ir.regions(func).first() else { return Err((ir.loc(func), "function has no body".into())) };
    let Some(entry) = ir.region_entry(body) else { return Err((ir.loc(func), "function has no body".into())) };
    if ir.region_blocks(body).len() != 1 {
        return Err((ir.loc(func), "host functions must have a single block".into()));
    }
    let mut p = Preparer {
        ctx,
        ir,
        slot_of: vec![0; ir.value_index_bound()],
        num_slots: 0,
        instrs: Vec::new(),
        keys: Vec::new(),
        locs: Vec::new(),
    };
    let mut args = Vec::new();
    let mut arg_types = Vec::new();
    for &a in ir.block_args(entry) {
        args.push(p.define(a));
        let t = BufferType::of(ctx, ir.value_type(a)).ok_or_else(|| {
            (ir.loc(func), format!("argument of type {} is not a host buffer", type_text(ctx, ir, a)))
        })?;
        let dtype = DType::of(ctx, t.elem).map_err(|e| (ir.loc(func), e.message))?;
        arg_types.push((t.shape, dtype));
    }
    p.block(entry)?;
    Ok(Program {
        name,
        instrs: p.instrs,
        keys: p.keys,
        locs: p.locs,
        num_slots: p.num_slots as usize,
        args,
        arg_types,
        func_loc: ir.loc(func),
    })
}

fn type_text(ctx: &Context, ir: &Ir, v: Value) -> String {
    fuser_dialects::type_str(ctx, ir.value_type(v))
}

type PResult<T> = Result<T, (Attr, String)>;

impl<'a> Preparer<'a> {
    fn define(&mut self, v: Value) -> Slot {
        let s = self.num_slots;
        self.num_slots += 1;
        if let Some(e) = self.slot_of.get_mut(v.index()) {
            *e = s + 1;
        }
        s
    }

    fn use_of(&self, op: OpId, v: Value) -> PResult<Slot> {
        match self.slot_of.get(v.index()).copied() {
            Some(s) if s > 0 => Ok(s - 1),
            _ => Err((self.ir.loc(op), "operand defined outside the function".into())),
        }
    }

    fn operand(&self, op: OpId, i: usize) -> PResult<Slot> {
        let ops = self.ir.operands(op);
        let v = *ops.get(i).ok_or_else(|| (self.ir.loc(op), format!("missing operand #{i}")))?;
        self.use_of(op, v)
    }

    fn result(&mut self, op: OpId) -> PResult<Slot> {
        let r = *self.ir.results(op).first().ok_or_else(|| (self.ir.loc(op), "missing result".into()))?;
        Ok(self.define(r))
    }

    fn attr(&self, op: OpId, name: &str) -> Option<Attr> {
        self.ir
            .props(op)
            .and_then(|p| self.ctx.dict_get(p, name))
            .or_else(|| self.ctx.dict_get(self.ir.attrs(op), name))
    }

    fn int_attr(&self, op: OpId, name: &str) -> PResult<i64> {
        self.attr(op, name)
            .and_then(|a| self.ctx.attr_i64(a))
            .ok_or_else(|| (self.ir.loc(op), format!("missing integer property '{name}'")))
    }

    fn array_attr(&self, op: OpId, name: &str) -> PResult<Vec<i64>> {
        let missing = || (self.ir.loc(op), format!("missing array property '{name}'"));
        match self.attr(op, name).map(|a| self.ctx.attr_kind(a)) {
            Some(AttrKind::DenseArray { data: DenseArrayData::Int(v), .. }) => Ok(v.clone()),
            Some(AttrKind::Array(items)) => items.iter().map(|&a| self.ctx.attr_i64(a).ok_or_else(missing)).collect(),
            _ => Err(missing()),
        }
    }

    /// A `host.kernel`: the kernel resolved by name, its parameters decoded, and its shapes
    /// checked when they are static (an unknown kernel or a bad shape is an error here, before
    /// anything runs).
    fn named_kernel(&self, op: OpId) -> PResult<KernelInstr> {
        let (ctx, ir, loc) = (self.ctx, self.ir, self.ir.loc(op));
        let name = fuser_dialects::host::kernel_name(ctx, ir, op)
            .ok_or_else(|| (loc, "host.kernel without a name".to_string()))?;
        let kernel = crate::ops::lookup(name).ok_or_else(|| {
            let known: Vec<&str> = crate::ops::ALL.iter().map(|k| k.name).collect();
            (loc, format!("unknown kernel '{name}' (the runtime has: {})", known.join(", ")))
        })?;
        let mut params = Params::from_attr(ctx, fuser_dialects::host::kernel_params(ctx, ir, op))
            .map_err(|e| (loc, format!("kernel '{name}': {}", e.message)))?;
        let global_shape: Vec<usize> = match params.get("global_shape") {
            Some(crate::ops::Param::Ints(v)) => v.iter().map(|&d| d.max(0) as usize).collect(),
            _ => Vec::new(),
        };
        params = params.without("global_shape");
        let (inputs, outputs, origin) = fuser_dialects::host::kernel_operands(ctx, ir, op);
        let slots = |vs: &[Value]| vs.iter().map(|&v| self.use_of(op, v)).collect::<PResult<Vec<_>>>();
        let static_types = |vs: &[Value]| -> Option<Vec<(DType, Vec<usize>)>> {
            vs.iter()
                .map(|&v| {
                    let t = BufferType::of(ctx, ir.value_type(v))?;
                    let dtype = DType::of(ctx, t.elem).ok()?;
                    let shape = t.shape.iter().map(|&d| usize::try_from(d).ok()).collect::<Option<Vec<_>>>()?;
                    Some((dtype, shape))
                })
                .collect()
        };
        if let (Some(ins), Some(outs)) = (static_types(&inputs), static_types(&outputs)) {
            (kernel.check)(&params, &ins, &outs).map_err(|m| (loc, format!("kernel '{name}': {m}")))?;
        }
        Ok(KernelInstr::Named {
            kernel,
            params: Arc::new(params),
            inputs: slots(&inputs)?,
            outputs: slots(&outputs)?,
            origin: slots(&origin)?,
            global_shape: global_shape.into(),
        })
    }

    fn bits_of(&self, v: Value) -> u32 {
        match self.ctx.type_kind(self.ir.value_type(v)) {
            TypeKind::Integer { width, .. } => (*width).min(64),
            _ => 64,
        }
    }

    fn push(&mut self, op: OpId, instr: Instr) -> usize {
        let name = self.ctx.op_name_str(self.ir.op_name(op)).to_string();
        let loc = fuser_ir::diag::file_line_col(self.ctx, self.ir.loc(op)).map(|(f, l, c)| format!("{f}:{l}:{c}"));
        self.keys.push(OpKey { index: self.instrs.len() as u32, loc: loc.map(Into::into), name: name.into() });
        self.locs.push(self.ir.loc(op));
        self.instrs.push(instr);
        self.instrs.len() - 1
    }

    fn end(&self) -> u32 {
        self.instrs.len() as u32
    }

    fn block(&mut self, b: fuser_ir::ir::BlockId) -> PResult<()> {
        let ops: Vec<OpId> = self.ir.block_ops(b).collect();
        for op in ops {
            self.op(op)?;
        }
        Ok(())
    }

    fn region_block(&self, op: OpId, i: usize) -> Option<fuser_ir::ir::BlockId> {
        self.ir.regions(op).get(i).and_then(|&r| self.ir.region_entry(r))
    }

    fn dims(&self, op: OpId, statics: &[i64], operands: &[Value]) -> PResult<Vec<Dim>> {
        let mut next = operands.iter();
        statics
            .iter()
            .map(|&s| {
                if s == DYNAMIC {
                    let v = next.next().ok_or_else(|| (self.ir.loc(op), "missing dynamic operand".to_string()))?;
                    Ok(Dim::Slot(self.use_of(op, *v)?))
                } else {
                    Ok(Dim::Static(s))
                }
            })
            .collect()
    }

    fn team(&self, op: OpId) -> PResult<Vec<usize>> {
        let team = fuser_dialects::comm::team(self.ctx, self.ir, op)
            .ok_or_else(|| (self.ir.loc(op), "missing team".to_string()))?;
        Ok(team.into_iter().map(|d| d.max(0) as usize).collect())
    }

    fn named(&self, op: OpId, v: Option<Value>, what: &str) -> PResult<Slot> {
        let v = v.ok_or_else(|| (self.ir.loc(op), format!("missing operand '{what}'")))?;
        self.use_of(op, v)
    }

    fn comm(&self, op: OpId, name: &str) -> PResult<CommInstr> {
        use fuser_dialects::comm as c;
        let (ctx, ir) = (self.ctx, self.ir);
        let input = || self.named(op, c::input(ctx, ir, op), "input");
        let output = || self.named(op, c::output(ctx, ir, op), "output");
        let root = || self.named(op, c::root(ctx, ir, op), "root");
        let reduction = || c::reduction_kind(ctx, ir, op).unwrap_or_default();
        Ok(match name {
            "comm.allgather" => CommInstr::AllGather {
                input: input()?,
                output: output()?,
                team: self.team(op)?,
                transport: c::backend(ctx, ir, op),
            },
            "comm.allreduce" => CommInstr::AllReduce {
                input: input()?,
                output: output()?,
                team: self.team(op)?,
                reduction: reduction(),
                transport: c::backend(ctx, ir, op),
            },
            "comm.reduce_scatter" => CommInstr::ReduceScatter {
                input: input()?,
                output: output()?,
                team: self.team(op)?,
                reduction: reduction(),
                transport: c::backend(ctx, ir, op),
            },
            "comm.broadcast" => CommInstr::Broadcast {
                input: input()?,
                output: output()?,
                team: self.team(op)?,
                root: root()?,
                transport: c::backend(ctx, ir, op),
            },
            "comm.reduce" => CommInstr::Reduce {
                input: input()?,
                output: output()?,
                team: self.team(op)?,
                root: root()?,
                reduction: reduction(),
                transport: c::backend(ctx, ir, op),
            },
            "comm.gather" => CommInstr::Gather {
                input: input()?,
                output: output()?,
                team: self.team(op)?,
                root: root()?,
                transport: c::backend(ctx, ir, op),
            },
            "comm.scatter" => CommInstr::Scatter {
                input: input()?,
                output: output()?,
                team: self.team(op)?,
                root: root()?,
                transport: c::backend(ctx, ir, op),
            },
            "comm.all_to_all" => CommInstr::AllToAll {
                input: input()?,
                output: output()?,
                team: self.team(op)?,
                transport: c::backend(ctx, ir, op),
            },
            "comm.collective_permute" => CommInstr::CollectivePermute {
                input: input()?,
                output: output()?,
                team: self.team(op)?,
                send_to: self.named(op, c::send_to(ctx, ir, op), "send_to")?,
                recv_from: self.named(op, c::recv_from(ctx, ir, op), "recv_from")?,
                transport: c::backend(ctx, ir, op),
            },
            "comm.send" => CommInstr::Send {
                buffer: self.named(op, c::buffer(ctx, ir, op), "buffer")?,
                peer: self.named(op, c::peer(ctx, ir, op), "peer")?,
                transport: c::backend(ctx, ir, op),
                protocol: c::protocol(ctx, ir, op).unwrap_or_default(),
            },
            "comm.recv" => CommInstr::Recv {
                buffer: self.named(op, c::buffer(ctx, ir, op), "buffer")?,
                peer: self.named(op, c::peer(ctx, ir, op), "peer")?,
                transport: c::backend(ctx, ir, op),
                protocol: c::protocol(ctx, ir, op).unwrap_or_default(),
            },
            _ => return Err((ir.loc(op), format!("the runtime cannot execute '{name}'"))),
        })
    }

    fn op(&mut self, op: OpId) -> PResult<()> {
        let (ctx, ir) = (self.ctx, self.ir);
        let name = ctx.op_name_str(ir.op_name(op)).to_string();
        let operands: Vec<Value> = ir.operands(op).to_vec();
        let loc = ir.loc(op);
        match name.as_str() {
            "arith.constant" => {
                let a = self.attr(op, "value").ok_or_else(|| (loc, "constant without value".to_string()))?;
                let (c, _) = fuser_dialects::int_const(ctx, a)
                    .ok_or_else(|| (loc, "the runtime only executes integer constants".to_string()))?;
                let value = if c.width() == 1 { c.low_u64() as i64 } else { c.sext_or_trunc(64).low_u64() as i64 };
                let dst = self.result(op)?;
                self.push(op, Instr::Const { dst, value });
            }
            "arith.addi" | "arith.subi" | "arith.muli" | "arith.divsi" | "arith.divui" | "arith.remsi"
            | "arith.remui" => {
                let bin = match name.as_str() {
                    "arith.addi" => IntBinOp::Add,
                    "arith.subi" => IntBinOp::Sub,
                    "arith.muli" => IntBinOp::Mul,
                    "arith.divsi" => IntBinOp::DivS,
                    "arith.divui" => IntBinOp::DivU,
                    "arith.remsi" => IntBinOp::RemS,
                    _ => IntBinOp::RemU,
                };
                let (a, b) = (self.operand(op, 0)?, self.operand(op, 1)?);
                let bits = self.bits_of(operands[0]);
                let dst = self.result(op)?;
                self.push(op, Instr::IntBin { op: bin, dst, a, b, bits });
            }
            "arith.cmpi" => {
                let pred = self
                    .attr(op, "predicate")
                    .and_then(|a| ctx.attr_i64(a))
                    .and_then(CmpPredicate::from_i64)
                    .ok_or_else(|| (loc, "cmpi without predicate".to_string()))?;
                let (a, b) = (self.operand(op, 0)?, self.operand(op, 1)?);
                let bits = self.bits_of(operands[0]);
                let dst = self.result(op)?;
                self.push(op, Instr::Cmp { pred, dst, a, b, bits });
            }
            "arith.select" => {
                let (cond, a, b) = (self.operand(op, 0)?, self.operand(op, 1)?, self.operand(op, 2)?);
                let dst = self.result(op)?;
                self.push(op, Instr::Select { dst, cond, a, b });
            }
            "arith.index_cast" | "arith.index_castui" => {
                let src = self.operand(op, 0)?;
                let bits = self.bits_of(ir.results(op)[0]);
                let dst = self.result(op)?;
                self.push(op, Instr::Cast { dst, src, bits });
            }
            "host.alloc" => {
                let t = BufferType::of(ctx, ir.value_type(ir.result(op, 0)))
                    .ok_or_else(|| (loc, "alloc of a non-buffer".to_string()))?;
                let dtype = DType::of(ctx, t.elem).map_err(|e| (loc, e.message))?;
                let shape = self.dims(op, &t.shape, &operands)?;
                let persistent = self.attr(op, "persistent").is_some();
                let dst = self.result(op)?;
                self.push(op, Instr::Alloc { dst, dtype, shape, persistent });
            }
            "host.expand" | "host.permute" | "host.reshape" => {
                let src = self.operand(op, 0)?;
                let t = BufferType::of(ctx, ir.value_type(ir.result(op, 0)))
                    .ok_or_else(|| (loc, "a layout view of a non-buffer".to_string()))?;
                if t.shape.iter().any(|&d| d < 0) {
                    return Err((loc, "layout views need static shapes".to_string()));
                }
                let shape: Vec<usize> = t.shape.iter().map(|&d| d as usize).collect();
                let layout = match name.as_str() {
                    "host.expand" => Layout::Expand { dims: self.array_attr(op, "dims")?, shape },
                    "host.permute" => Layout::Permute { dims: self.array_attr(op, "dims")? },
                    _ => Layout::Reshape { shape },
                };
                let dst = self.result(op)?;
                self.push(op, Instr::LayoutView { dst, src, layout });
            }
            "host.dealloc" => {
                let buf = self.operand(op, 0)?;
                self.push(op, Instr::Dealloc { buf });
            }
            "host.shard_by_stream" => {
                let (src, index) = (self.operand(op, 0)?, self.operand(op, 1)?);
                let axis = self.int_attr(op, "axis")?.max(0) as usize;
                let chunks = self.int_attr(op, "chunks")?.max(1) as usize;
                let dst = self.result(op)?;
                self.push(op, Instr::ShardByStream { dst, src, index, axis, chunks });
            }
            "host.select" => {
                let (src, index) = (self.operand(op, 0)?, self.operand(op, 1)?);
                let axis = self.int_attr(op, "axis")?.max(0) as usize;
                let dst = self.result(op)?;
                self.push(op, Instr::SelectView { dst, src, index, axis });
            }
            "host.slice" => {
                let src = self.operand(op, 0)?;
                let (so, sz, st) = (
                    self.array_attr(op, "static_offsets")?,
                    self.array_attr(op, "static_sizes")?,
                    self.array_attr(op, "static_strides")?,
                );
                let group = |i: usize| -> Vec<Value> {
                    fuser_dialects::host::SLICE.operand_group(ctx, ir, op, i).unwrap_or_default()
                };
                let offsets = self.dims(op, &so, &group(1))?;
                let sizes = self.dims(op, &sz, &group(2))?;
                let steps = self.dims(op, &st, &group(3))?;
                let dst = self.result(op)?;
                self.push(op, Instr::Slice { dst, src, offsets, sizes, steps });
            }
            "host.copy" => {
                let k = KernelInstr::Copy { source: self.operand(op, 0)?, target: self.operand(op, 1)? };
                self.push(op, Instr::Compute(k));
            }
            "host.matmul" => {
                let k = KernelInstr::Matmul {
                    a: self.operand(op, 0)?,
                    b: self.operand(op, 1)?,
                    c: self.operand(op, 2)?,
                    accumulate: self.attr(op, "accumulate").is_some(),
                };
                self.push(op, Instr::Compute(k));
            }
            "host.linear" => {
                let parts = fuser_dialects::host::linear_parts(ctx, ir, op)
                    .ok_or_else(|| (loc, "host.linear operands do not match its operandSegmentSizes".to_string()))?;
                let epilogue = parts.epilogue.map_err(|e| (loc, format!("host.linear: unknown epilogue '{e}'")))?;
                let k = KernelInstr::Linear {
                    x: self.use_of(op, parts.x)?,
                    w: self.use_of(op, parts.w)?,
                    bias: parts.bias.map(|b| self.use_of(op, b)).transpose()?,
                    residual: parts.residual.map(|r| self.use_of(op, r)).transpose()?,
                    y: self.use_of(op, parts.y)?,
                    accumulate: parts.accumulate,
                    epilogue,
                };
                self.push(op, Instr::Compute(k));
            }
            "host.elementwise" => {
                let kind =
                    ElementwiseKind::of_op(ctx, ir, op).ok_or_else(|| (loc, "unknown elementwise kind".to_string()))?;
                let mut slots: Vec<Slot> = (0..operands.len()).map(|i| self.operand(op, i)).collect::<PResult<_>>()?;
                let output = slots.pop().ok_or_else(|| (loc, "elementwise without output".to_string()))?;
                self.push(op, Instr::Compute(KernelInstr::Elementwise { kind, inputs: slots, output }));
            }
            "host.fill" => {
                let value = self
                    .attr(op, "value")
                    .and_then(|a| fuser_dialects::scalar_value(ctx, a))
                    .ok_or_else(|| (loc, "host.fill needs an integer or float 'value'".to_string()))?
                    .0;
                self.push(op, Instr::Compute(KernelInstr::Fill { target: self.operand(op, 0)?, value }));
            }
            "host.sum" => {
                let dims = self.array_attr(op, "dims")?.into_iter().map(|d| d.max(0) as usize).collect();
                let k = KernelInstr::Sum { input: self.operand(op, 0)?, output: self.operand(op, 1)?, dims };
                self.push(op, Instr::Compute(k));
            }
            "host.reduce" => {
                let kind = ReduceKind::of_op(ctx, ir, op).map_err(|m| (loc, m))?;
                let dims = self.array_attr(op, "dims")?.into_iter().map(|d| d.max(0) as usize).collect();
                let (input, output) = (self.operand(op, 0)?, self.operand(op, 1)?);
                self.push(op, Instr::Compute(KernelInstr::Reduce { kind, input, output, dims }));
            }
            "host.kernel" => {
                let k = self.named_kernel(op)?;
                self.push(op, Instr::Compute(k));
            }
            "host.fused" => {
                let graph = crate::fused::decode::decode(ctx, ir, op).map_err(|m| (loc, format!("host.fused: {m}")))?;
                let (inputs, outputs, origin) = fuser_dialects::host::fused_operands(ctx, ir, op);
                let slots = |vs: &[Value]| vs.iter().map(|&v| self.use_of(op, v)).collect::<PResult<Vec<_>>>();
                let k = KernelInstr::Fused {
                    graph: Arc::new(graph),
                    inputs: slots(&inputs)?,
                    outputs: slots(&outputs)?,
                    origin: slots(&origin)?,
                };
                self.push(op, Instr::Compute(k));
            }
            "host.for" => {
                let (lb, ub, step) = (self.operand(op, 0)?, self.operand(op, 1)?, self.operand(op, 2)?);
                let body = self.region_block(op, 0).ok_or_else(|| (loc, "loop without body".to_string()))?;
                let iv_value =
                    *ir.block_args(body).first().ok_or_else(|| (loc, "loop without induction variable".to_string()))?;
                let iv = self.define(iv_value);
                let at = self.push(op, Instr::For { iv, lb, ub, step, end: 0 });
                self.block(body)?;
                let end = self.end();
                if let Instr::For { end: e, .. } = &mut self.instrs[at] {
                    *e = end;
                }
            }
            "host.if" => {
                let cond = self.operand(op, 0)?;
                let at = self.push(op, Instr::If { cond, else_start: 0, end: 0 });
                if let Some(b) = self.region_block(op, 0) {
                    self.block(b)?;
                }
                let else_start = self.end();
                if let Some(b) = self.region_block(op, 1) {
                    self.block(b)?;
                }
                let end = self.end();
                if let Instr::If { else_start: s, end: e, .. } = &mut self.instrs[at] {
                    (*s, *e) = (else_start, end);
                }
            }
            "host.current_stream" => {
                let dst = self.result(op)?;
                self.push(op, Instr::CurrentStream { dst });
            }
            "host.get_stream" => {
                let index = self.operand(op, 0)?;
                let dst = self.result(op)?;
                self.push(op, Instr::GetStream { dst, index });
            }
            "host.set_stream" => {
                let stream = self.operand(op, 0)?;
                self.push(op, Instr::SetStream { stream });
            }
            "host.stream_wait" => {
                let stream = self.operand(op, 0)?;
                self.push(op, Instr::StreamWait { stream });
            }
            "host.synchronize" => {
                let stream = self.operand(op, 0)?;
                self.push(op, Instr::Synchronize { stream });
            }
            "host.rank" => {
                let dst = self.result(op)?;
                self.push(op, Instr::Rank { dst });
            }
            "host.world_size" => {
                let dst = self.result(op)?;
                self.push(op, Instr::WorldSize { dst });
            }
            "host.launch" => {
                return Err((loc, "host.launch is not supported by the cpu backend (no device kernels)".into()));
            }
            "comm.wait" => {
                let requests = (0..operands.len()).map(|i| self.operand(op, i)).collect::<PResult<_>>()?;
                self.push(op, Instr::Wait { requests });
            }
            "comm.share_handles" => {
                let pairs =
                    |ps: Vec<(fuser_ir::Value, fuser_ir::Value)>, this: &mut Self| -> PResult<Vec<(Slot, Slot)>> {
                        ps.into_iter().map(|(b, p)| Ok((this.use_of(op, b)?, this.use_of(op, p)?))).collect()
                    };
                let sends = pairs(fuser_dialects::comm::share_handles_sends(ctx, ir, op), self)?;
                let recvs = pairs(fuser_dialects::comm::share_handles_recvs(ctx, ir, op), self)?;
                self.push(op, Instr::Comm { op: CommInstr::ShareHandles { sends, recvs }, dst: None });
            }
            "comm.group" => {
                let at = self.push(op, Instr::Group { dst: None, end: 0 });
                if let Some(b) = self.region_block(op, 0) {
                    self.block(b)?;
                }
                let end = self.end();
                let dst = ir.results(op).first().map(|&r| self.define(r));
                if let Instr::Group { dst: d, end: e } = &mut self.instrs[at] {
                    (*d, *e) = (dst, end);
                }
            }
            n if n.starts_with("comm.") => {
                let c = self.comm(op, n)?;
                let dst = ir.results(op).first().map(|&r| self.define(r));
                self.push(op, Instr::Comm { op: c, dst });
            }
            "func.return" => {
                let values = (0..operands.len()).map(|i| self.operand(op, i)).collect::<PResult<_>>()?;
                self.push(op, Instr::Return { values });
            }
            other => return Err((loc, format!("the runtime cannot execute '{other}'"))),
        }
        Ok(())
    }
}

impl Program {
    /// The error of a failed run, at the op it names (the function when none).
    pub fn error_loc(&self, e: &RtError) -> Attr {
        e.op.as_ref().and_then(|k| self.locs.get(k.index as usize).copied()).unwrap_or(self.func_loc)
    }
}
