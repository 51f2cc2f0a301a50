//! Fused regions on the GPU (`host.fused`, docs/dev/fusion.md "Code generation"): the region's
//! graph compiled to a CUDA C kernel (`codegen.rs`) with NVRTC, cached for the process by
//! [`codegen::key`] (the graph's structure, shapes and types, each operand's strides and
//! alignment, the schedule and vector width, the compute capability), loaded once per GPU, and
//! launched with the operands' addresses. A cached kernel is launched without compilation, so
//! iterations after the first (and a `--cuda-graph` capture after a warm-up) only launch; a
//! graph launched again with the same layouts skips even the planning and the key (a fast path
//! by the graph's address, checked by value). `FUSER_FUSED_DUMP=DIR` writes each new kernel's source to `DIR/fused_<hash>.cu`.

pub mod codegen;

use crate::cuda::api::RawStream;
use crate::cuda::gpu::Gpu;
use crate::cuda::memory::CudaBuf;
use crate::cuda::ops::module::{self, KernelFn, launch};
use crate::error::{RtError, RtResult};
use crate::fused::{FusedGraph, Kind};
use crate::watchdog::lock;
use codegen::{MAX_OPERANDS, Operand, Plan, row_major};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// A compiled kernel: its PTX and, per GPU (ordinal), its loaded function.
struct Compiled {
    ptx: String,
    loaded: Mutex<Vec<(i32, KernelFn)>>,
}

/// The process's kernels, by key.
fn cache() -> &'static Mutex<HashMap<String, Arc<Compiled>>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<Compiled>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The layout of buffer `b` as an operand of kind `kind` (its shape must be the kind's shape,
/// or hold as many elements densely).
fn operand(graph: &FusedGraph, b: &CudaBuf, kind: Kind, what: &str, index: usize) -> RtResult<Operand> {
    let shape = graph.shape_of(kind);
    let strides = if b.shape == shape {
        b.strides.clone()
    } else if b.numel() == shape.iter().product::<usize>() && b.is_contiguous() {
        row_major(shape)
    } else {
        return Err(RtError::new(format!(
            "host.fused: {what} {index} has shape {:?}, the region expects {shape:?}",
            b.shape
        )));
    };
    // Only the operands read or written by vectors depend on their alignment.
    let aligned16 = matches!(kind, Kind::Full | Kind::Col) && b.addr().is_multiple_of(16);
    Ok(Operand { dtype: b.dtype, strides, aligned16 })
}

/// A kernel of the fast path: a graph (compared by value) with its operands' layouts on one
/// device, and what to launch.
struct Recent {
    graph: FusedGraph,
    ins: Vec<Operand>,
    outs: Vec<Operand>,
    ordinal: i32,
    plan: Plan,
    f: KernelFn,
}

/// The kernels recently launched, by the graph's address: a launch of a graph seen before (the
/// same `FusedGraph`, decoded once per program, launched every iteration) finds its kernel
/// without planning or formatting a key (about 15 us per launch otherwise). An address reused
/// by another graph fails the comparison and takes the slow path.
fn recent() -> &'static Mutex<HashMap<usize, Vec<Recent>>> {
    static RECENT: OnceLock<Mutex<HashMap<usize, Vec<Recent>>>> = OnceLock::new();
    RECENT.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Layouts per graph address kept by the fast path, at most (then the address's list restarts).
const RECENT_PER_GRAPH: usize = 16;

/// The plan and the loaded kernel of `graph` with these operands on `gpu`: from the fast path,
/// else planned, keyed, compiled on the cache's miss, loaded on the device's first use.
fn kernel_for(gpu: &Gpu, graph: &FusedGraph, ins: Vec<Operand>, outs: Vec<Operand>) -> RtResult<(Plan, KernelFn)> {
    let err = |m: String| RtError::new(format!("host.fused: {m}"));
    let ordinal = gpu.dev.ordinal;
    let addr = graph as *const FusedGraph as usize;
    if let Some(r) = lock(recent()).get(&addr).and_then(|list| {
        list.iter().find(|r| r.ordinal == ordinal && r.ins == ins && r.outs == outs && r.graph == *graph)
    }) {
        return Ok((r.plan, r.f));
    }
    let plan = codegen::plan(graph, &ins, &outs, &gpu.dev.props).map_err(err)?;
    let key = codegen::key(graph, &ins, &outs, &plan.schedule, gpu.dev.capability);
    let found = lock(cache()).get(&key).cloned();
    let compiled = match found {
        Some(c) => c,
        None => {
            let src = codegen::source(graph, &ins, &outs, &plan.schedule).map_err(err)?;
            if let Some(dir) = std::env::var_os("FUSER_FUSED_DUMP") {
                use std::hash::{Hash, Hasher};
                let mut h = std::collections::hash_map::DefaultHasher::new();
                key.hash(&mut h);
                let path = std::path::Path::new(&dir).join(format!("fused_{:016x}.cu", h.finish()));
                std::fs::write(&path, &src).map_err(|e| err(format!("writing {}: {e}", path.display())))?;
            }
            let ptx = module::compile("fused", &src, gpu.dev.capability)?;
            let c = Arc::new(Compiled { ptx, loaded: Mutex::new(Vec::new()) });
            lock(cache()).entry(key).or_insert(c).clone()
        }
    };
    let found = lock(&compiled.loaded).iter().find(|(o, _)| *o == ordinal).map(|(_, f)| *f);
    let f = match found {
        Some(f) => f,
        None => {
            let f = module::load_function(&compiled.ptx, codegen::KERNEL)?;
            lock(&compiled.loaded).push((ordinal, f));
            f
        }
    };
    let mut recent = lock(recent());
    let list = recent.entry(addr).or_default();
    if list.len() >= RECENT_PER_GRAPH {
        list.clear();
    }
    list.push(Recent { graph: graph.clone(), ins, outs, ordinal, plan, f });
    Ok((plan, f))
}

/// Runs `graph` on the buffers on `stream`; `origin`: the global coordinates of the piece's
/// first element (dropout).
pub fn run(
    gpu: &Gpu,
    graph: &FusedGraph,
    inputs: &[CudaBuf],
    outputs: &[CudaBuf],
    origin: &[usize],
    stream: RawStream,
) -> RtResult<()> {
    let err = |m: String| RtError::new(format!("host.fused: {m}"));
    if inputs.len() != graph.inputs.len() || outputs.len() != graph.outputs.len() {
        return Err(err(format!(
            "{} inputs and {} outputs for a region of {} and {}",
            inputs.len(),
            outputs.len(),
            graph.inputs.len(),
            graph.outputs.len()
        )));
    }
    if graph.domain.iter().product::<usize>() == 0 {
        return Ok(());
    }
    let ins: Vec<Operand> = inputs
        .iter()
        .zip(&graph.inputs)
        .enumerate()
        .map(|(i, (b, inp))| operand(graph, b, inp.kind, "input", i))
        .collect::<RtResult<_>>()?;
    let outs: Vec<Operand> = outputs
        .iter()
        .zip(&graph.outputs)
        .enumerate()
        .map(|(i, (b, &o))| operand(graph, b, graph.nodes[o].kind, "output", i))
        .collect::<RtResult<_>>()?;
    let has_dropout = !graph.global_shape.is_empty();
    if has_dropout && origin.len() != graph.domain.len() {
        return Err(err(format!("a region with dropout needs an origin of rank {}", graph.domain.len())));
    }
    let (plan, f) = kernel_for(gpu, graph, ins, outs)?;
    let mut params = [0u64; MAX_OPERANDS + 1];
    for (slot, b) in params.iter_mut().zip(inputs.iter().chain(outputs)) {
        *slot = b.addr();
    }
    if has_dropout {
        params[inputs.len() + outputs.len()] = codegen::global_offset(graph, origin);
    }
    launch(f, (plan.grid, 1, 1), (plan.schedule.block(), 1, 1), 0, &mut params, stream)
}
