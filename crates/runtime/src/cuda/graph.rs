//! CUDA graphs of one rank (`--cuda-graph`): one iteration of the host program captured from
//! the rank's main stream and replayed with `cuGraphLaunch`.
//!
//! Capture: `cuStreamBeginCapture` in relaxed mode on the main stream (relaxed: the cuBLAS,
//! cuBLASLt and NCCL calls of the iteration may make calls that the stricter modes refuse);
//! every worker stream joins the capture through an event recorded on the main stream
//! ([`RankGraph::fork`], when the stream is first used during the capture or at its start)
//! and leaves it through an event the main stream waits for ([`RankGraph::end`]), so the graph
//! holds all streams' work with the orderings the program made (events for
//! `host.stream_wait` and `comm.wait`, NCCL kernels for collectives).
//!
//! Memory: the allocator holds every block released from the capture's start until the graph
//! goes ([`super::memory::Allocator::begin_graph`]), since the replays reuse the captured
//! addresses. The executor runs at least one eager iteration first (see
//! [`crate::exec::capture`]), so the capture takes cached blocks.
//!
//! Invariant: at most one capture or graph per rank; a graph is destroyed (after its streams
//! were synchronized) before the allocator lets its blocks go.

use super::api::{self, Ctx, Event, RawStream};
use super::memory::Allocator;
use crate::error::{RtError, RtResult};
use cudarc::driver::sys;
use std::sync::Arc;

/// Where a rank stands with graphs.
#[derive(Default)]
pub enum RankGraph {
    #[default]
    None,
    /// Recording: the stream indices that joined, and the rank's op counters at the start.
    Capturing {
        forked: Vec<usize>,
        counters_before: (u64, u64),
    },
    Ready(Graph),
}

/// An instantiated graph and what its replays count.
pub struct Graph {
    graph: sys::CUgraph,
    exec: sys::CUgraphExec,
    ctx: Ctx,
    alloc: Arc<Allocator>,
    /// Ops and bytes of the captured iteration (added to the counters per replay).
    pub counters: (u64, u64),
    /// Nodes in the graph (for the run's note).
    pub nodes: usize,
}
unsafe impl Send for Graph {}

impl RankGraph {
    /// Starts capturing on `main`; `workers`: the worker streams that exist (index, stream).
    pub fn begin(
        alloc: &Allocator,
        main: RawStream,
        workers: &[(usize, RawStream)],
        counters_before: (u64, u64),
    ) -> RtResult<RankGraph> {
        alloc.begin_graph();
        let begun = api::check(
            unsafe { sys::cuStreamBeginCapture_v2(main.0, sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_RELAXED) },
            "cuStreamBeginCapture",
        );
        if let Err(e) = begun {
            alloc.end_graph();
            return Err(e);
        }
        let mut g = RankGraph::Capturing { forked: Vec::new(), counters_before };
        for &(index, s) in workers {
            g.fork(main, index, s)?;
        }
        Ok(g)
    }

    /// Makes worker stream `index` join the capture (once).
    pub fn fork(&mut self, main: RawStream, index: usize, worker: RawStream) -> RtResult<()> {
        let RankGraph::Capturing { forked, .. } = self else { return Ok(()) };
        if index == 0 || forked.contains(&index) {
            return Ok(());
        }
        Event::record_on(main)?.wait_on(worker)?;
        forked.push(index);
        Ok(())
    }

    pub fn capturing(&self) -> bool {
        matches!(self, RankGraph::Capturing { .. })
    }

    /// Joins the worker streams back into `main`, ends the capture and instantiates the graph
    /// (uploaded on `main`); `stream(i)`: worker stream `i`; `counters_now`: the rank's op
    /// counters.
    pub fn end(
        &mut self,
        ctx: Ctx,
        alloc: &Arc<Allocator>,
        main: RawStream,
        stream: impl Fn(usize) -> RtResult<RawStream>,
        counters_now: (u64, u64),
    ) -> RtResult<()> {
        let RankGraph::Capturing { forked, counters_before } = std::mem::take(self) else {
            return Err(RtError::new("cuda graph: no capture to end"));
        };
        let joined: RtResult<()> = forked.iter().try_for_each(|&i| Event::record_on(stream(i)?)?.wait_on(main));
        let mut graph = std::ptr::null_mut();
        let ended = api::check(unsafe { sys::cuStreamEndCapture(main.0, &mut graph) }, "cuStreamEndCapture");
        let fail = |e: RtError| {
            if !graph.is_null() {
                unsafe { sys::cuGraphDestroy(graph) };
            }
            alloc.end_graph();
            RtError::new(format!("--cuda-graph: capturing the iteration failed: {}", e.message))
        };
        joined.map_err(fail)?;
        ended.map_err(fail)?;
        let mut exec = std::ptr::null_mut();
        api::check(unsafe { sys::cuGraphInstantiateWithFlags(&mut exec, graph, 0) }, "cuGraphInstantiate")
            .map_err(fail)?;
        let mut nodes = 0usize;
        let _ = unsafe { sys::cuGraphGetNodes(graph, std::ptr::null_mut(), &mut nodes) };
        let g = Graph {
            graph,
            exec,
            ctx,
            alloc: alloc.clone(),
            counters: (counters_now.0 - counters_before.0, counters_now.1 - counters_before.1),
            nodes,
        };
        api::check(unsafe { sys::cuGraphUpload(exec, main.0) }, "cuGraphUpload")?;
        *self = RankGraph::Ready(g);
        Ok(())
    }

    /// Abandons a capture that failed midway (the stream leaves capture mode).
    pub fn abandon(&mut self, alloc: &Allocator, main: RawStream) {
        if let RankGraph::Capturing { .. } = std::mem::take(self) {
            let mut graph = std::ptr::null_mut();
            unsafe {
                let _ = sys::cuStreamEndCapture(main.0, &mut graph);
                if !graph.is_null() {
                    sys::cuGraphDestroy(graph);
                }
            }
            alloc.end_graph();
        }
    }
}

impl Graph {
    /// Enqueues one replay on `stream`.
    pub fn launch(&self, stream: RawStream) -> RtResult<()> {
        api::check(unsafe { sys::cuGraphLaunch(self.exec, stream.0) }, "cuGraphLaunch")
    }
}

impl Drop for Graph {
    /// Call only when no stream runs the graph (the backend synchronizes first).
    fn drop(&mut self) {
        unsafe {
            let _ = sys::cuCtxSetCurrent(self.ctx.0);
            let _ = sys::cuGraphExecDestroy(self.exec);
            let _ = sys::cuGraphDestroy(self.graph);
        }
        self.alloc.end_graph();
    }
}
