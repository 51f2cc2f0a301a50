//! Named pipelines of the tensor-parallel compilation flow (`docs/dev/lowering.md` §6):
//!
//! - `tp-default{streams=N report=R}`: fusion program → host program, then the host passes and cleanup:
//!   `func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host,
//!   host-forward-copies, host-fuse-epilogue, host-fuse, host-assign-streams{streams=N}, host-insert-dealloc), canonicalize,
//!   cse` (`fuse=false` drops the three fusion passes: every pipeline takes that option, docs/dev/fusion.md);
//! - `tp-host{streams=N}`: only the host part, for programs already lowered to `host`/`comm`:
//!   `func.func(host-assign-streams{streams=N}, host-insert-dealloc), canonicalize, cse`;
//! - `tp-overlap-collective{streams=N chunks=S backend=B}`: `tp-default` with every stream split
//!   set to `S` chunks first (`fusion-set-stream-chunks`): collective-based pipelines (a
//!   collective per chunk, overlapped with the compute of other chunks); `backend=cuda_ipc`
//!   adds `comm-collective-backend{backend=cuda_ipc}` after `fusion-to-host` (copy-engine
//!   collectives of every kind, groups ungrouped: no NCCL op remains);
//! - `tp-overlap-p2p{streams=N chunks=S backend=B protocol=P}`: the same, then
//!   `comm-p2p-ring{backend=B protocol=P}` turns AllGather pipelines into point-to-point rings,
//!   and `licm` hoists the ring's index math; `backend=cuda_ipc` also adds
//!   `comm-collective-backend{backend=cuda_ipc}` after the ring, so the communications the
//!   ring leaves (reductions, other collectives) use CUDA IPC too.
//!
//! Pipelines are built from the pass names through the registry, so each pass keeps its own
//! metadata and option checking. Invariants: a pipeline whose passes are not all registered
//! fails to build with an error naming the missing ones (nothing is added to the manager
//! then); both run at module level (`builtin.module(tp-default)`) and refuse to be nested in a
//! `func.func` pipeline, where they would silently do nothing.

use fuser_ir::pass::{Anchor, OpPassManager, OptionDef, OptionType, OptionValues, PassRegistry, PipelineInfo};

static OPTIONS: &[OptionDef] = &[STREAMS_OPTION, FUSE_OPTION];
static TP_DEFAULT_OPTIONS: &[OptionDef] = &[STREAMS_OPTION, FUSE_OPTION, REPORT_OPTION];

/// `tp-default`.
pub static TP_DEFAULT: PipelineInfo = PipelineInfo {
    name: "tp-default",
    summary: "Lower a sharded fusion program to a stream-parallel host program",
    description: "Expands to `func.func(fusion-propagate-sharding, fusion-decompose-resharding, \
fusion-to-host, host-assign-streams{streams=N}, host-insert-dealloc), canonicalize, cse`: shardings \
are propagated, resharding ops decomposed into single communications, the fusion lowered to host \
and comm ops, stream loops spread over `streams` worker streams, buffers freed after their last \
use, and the result cleaned up. With `fuse=true` (the default) every pipeline fuses chains of \
elementwise ops, reductions and norms into `host.fused` regions before assigning streams \
(docs/dev/fusion.md); `fuse=false` leaves one kernel per op. With `report=true`, \
`fusion-to-host{report=true}` emits one remark per GEMM naming the overlap it got (as the overlap \
pipelines' `report`). Use it at module level: `builtin.module(tp-default{streams=2})`.",
    options: TP_DEFAULT_OPTIONS,
    build: |o, registry, pm| {
        let passes: Vec<String> = TP_DEFAULT_FUNC_PASSES
            .iter()
            .map(|p| if *p == "fusion-to-host" { to_host_text(o) } else { p.to_string() })
            .collect();
        build_texts(&TP_DEFAULT, &passes, o, registry, pm)
    },
};

/// `tp-host`.
pub static TP_HOST: PipelineInfo = PipelineInfo {
    name: "tp-host",
    summary: "Schedule a host program on streams and free its buffers",
    description: "The host part of `tp-default`, for programs already made of `host` and `comm` \
ops: expands to `func.func(host-assign-streams{streams=N}, host-insert-dealloc), canonicalize, \
cse`. Use it at module level: `builtin.module(tp-host{streams=2})`.",
    options: OPTIONS,
    build: |o, registry, pm| build(&TP_HOST, HOST_FUNC_PASSES, o, registry, pm),
};

/// The `streams` option every pipeline takes.
const STREAMS_OPTION: OptionDef = OptionDef::new(
    "streams",
    OptionType::Int,
    "4",
    "Number of worker streams the iterations of stream loops are spread over (>= 1)",
);
/// The `fuse` option every pipeline takes.
const FUSE_OPTION: OptionDef = OptionDef::new(
    "fuse",
    OptionType::Bool,
    "true",
    "Fuse GEMM epilogues and chains of elementwise ops, reductions and norms into one kernel each (host-forward-copies, host-fuse-epilogue, host-fuse)",
);
/// The `chunks` option of the overlap pipelines.
const CHUNKS_OPTION: OptionDef = OptionDef::new(
    "chunks",
    OptionType::Int,
    "0",
    "Stream chunks of every stream split (0: as written in the program)",
);

static COLLECTIVE_BACKENDS: &[fuser_ir::pass::EnumCase] = &[
    fuser_ir::pass::EnumCase { name: "nccl", description: "NCCL's collective kernels" },
    fuser_ir::pass::EnumCase {
        name: "cuda_ipc",
        description: "Copy-engine collectives of every kind over CUDA IPC (no SMs taken from the GEMMs, no NCCL)",
    },
];

/// The `report` option of the overlap pipelines (`fusion-to-host{report=true}`).
const REPORT_OPTION: OptionDef = OptionDef::new(
    "report",
    OptionType::Bool,
    "false",
    "One remark per GEMM naming the overlap it got (AG+GEMM, GEMM+RS, GEMM+AR, or none and why; fusion-to-host's report)",
);

/// `fusion-to-host`, with `{report=true}` when the pipeline's `report` is set.
fn to_host_text(o: &OptionValues) -> String {
    if o.get_bool("report") { "fusion-to-host{report=true}".to_string() } else { "fusion-to-host".to_string() }
}

static OVERLAP_OPTIONS: &[OptionDef] = &[
    STREAMS_OPTION,
    FUSE_OPTION,
    CHUNKS_OPTION,
    REPORT_OPTION,
    OptionDef::new(
        "backend",
        OptionType::Enum(COLLECTIVE_BACKENDS),
        "nccl",
        "Implementation of the per-chunk collectives (comm-collective-backend)",
    ),
];

static P2P_BACKENDS: &[fuser_ir::pass::EnumCase] = &[
    fuser_ir::pass::EnumCase { name: "nccl", description: "NCCL send/recv in one group per ring step" },
    fuser_ir::pass::EnumCase {
        name: "cuda_ipc",
        description: "CUDA IPC copies with persistent buffers; every other communication CUDA IPC too",
    },
];
static P2P_PROTOCOLS: &[fuser_ir::pass::EnumCase] = &[
    fuser_ir::pass::EnumCase { name: "get", description: "The receiver reads the sender's buffer" },
    fuser_ir::pass::EnumCase { name: "put", description: "The sender writes the receiver's buffer" },
];

static P2P_OPTIONS: &[OptionDef] = &[
    STREAMS_OPTION,
    FUSE_OPTION,
    CHUNKS_OPTION,
    REPORT_OPTION,
    OptionDef::new("backend", OptionType::Enum(P2P_BACKENDS), "nccl", "Transport of the rings"),
    OptionDef::new("protocol", OptionType::Enum(P2P_PROTOCOLS), "get", "CUDA IPC protocol (ignored with nccl)"),
];

/// `tp-overlap-collective`.
pub static TP_OVERLAP_COLLECTIVE: PipelineInfo = PipelineInfo {
    name: "tp-overlap-collective",
    summary: "Lower with one collective per stream chunk, overlapped with the compute of other chunks",
    description: "Expands to `func.func(fusion-set-stream-chunks{chunks=S}, fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host, host-assign-streams{streams=N}, host-insert-dealloc), canonicalize, cse`: every stream split gets `chunks` chunks (0 keeps the program's), then the program lowers as with `tp-default` (allgather, allreduce or reduce_scatter per chunk, in the same loop as the matmul that produces or consumes the chunk). With `backend=cuda_ipc`, `comm-collective-backend{backend=cuda_ipc}` follows `fusion-to-host`: every collective uses the copy-engine implementation (docs/dev/copy-engine.md), so the collectives take no SMs from the GEMMs of other chunks, and no NCCL op remains (ranks may share a GPU). With `report=true`, `fusion-to-host{report=true}` emits one remark per GEMM naming the overlap it got (`AG+GEMM`, `GEMM+RS`, `GEMM+AR`, or `none` and why), backward GEMMs named by their `fusion.grad_of`.",
    options: OVERLAP_OPTIONS,
    build: |o, registry, pm| {
        let chunks = chunks_option(&TP_OVERLAP_COLLECTIVE, o)?;
        let mut passes = vec![format!("fusion-set-stream-chunks{{chunks={chunks}}}")];
        for p in TP_DEFAULT_FUNC_PASSES {
            passes.push(if *p == "fusion-to-host" { to_host_text(o) } else { p.to_string() });
            if *p == "fusion-to-host" && o.get_str("backend") != "nccl" {
                passes.push(format!("comm-collective-backend{{backend={}}}", o.get_str("backend")));
            }
        }
        build_texts(&TP_OVERLAP_COLLECTIVE, &passes, o, registry, pm)
    },
};

/// `tp-overlap-p2p`.
pub static TP_OVERLAP_P2P: PipelineInfo = PipelineInfo {
    name: "tp-overlap-p2p",
    summary: "Lower AllGather + Matmul pipelines to point-to-point rings",
    description: "Like `tp-overlap-collective`, with `comm-p2p-ring{backend=B protocol=P}` after `fusion-to-host` (the per-chunk broadcasts of a DID→Stream resharding become a ring of sends and receives between neighbours; with `cuda_ipc` the buffers become persistent and their handles are exchanged once) and `licm` before the cleanup. With `backend=cuda_ipc`, `comm-collective-backend{backend=cuda_ipc}` follows the ring: the other communications use the copy-engine implementation too, and no NCCL op remains. Use `chunks` equal to the team size for a ring. `report=true` as for `tp-overlap-collective`.",
    options: P2P_OPTIONS,
    build: |o, registry, pm| {
        let chunks = chunks_option(&TP_OVERLAP_P2P, o)?;
        let ring = format!("comm-p2p-ring{{backend={} protocol={}}}", o.get_str("backend"), o.get_str("protocol"));
        let mut passes = vec![format!("fusion-set-stream-chunks{{chunks={chunks}}}")];
        for p in TP_DEFAULT_FUNC_PASSES {
            passes.push(if *p == "fusion-to-host" { to_host_text(o) } else { p.to_string() });
            if *p == "fusion-to-host" {
                passes.push(ring.clone());
                if o.get_str("backend") != "nccl" {
                    passes.push(format!("comm-collective-backend{{backend={}}}", o.get_str("backend")));
                }
            }
        }
        passes.push("licm".to_string());
        build_texts(&TP_OVERLAP_P2P, &passes, o, registry, pm)
    },
};

fn chunks_option(info: &PipelineInfo, o: &OptionValues) -> Result<i64, String> {
    let chunks = o.get_int("chunks");
    if chunks < 0 {
        return Err(format!("{}: 'chunks' must be >= 0, got {chunks}", info.name));
    }
    Ok(chunks)
}

/// Like [`build`] for passes given as pipeline text (with their own options).
fn build_texts(
    info: &PipelineInfo,
    func_passes: &[String],
    options: &OptionValues,
    registry: &PassRegistry,
    pm: &mut OpPassManager,
) -> Result<(), String> {
    check_anchor(info, pm.anchor())?;
    let streams = checked_streams(info, options)?;
    let names: Vec<&str> = func_passes.iter().map(|p| p.split('{').next().unwrap_or(p)).collect();
    check_registered(info, names.iter().chain(CLEANUP_PASSES).chain(FUSION_PASSES), registry)?;
    let texts: Vec<&str> = func_passes.iter().map(String::as_str).collect();
    let text = pipeline_text(&texts, streams, options.get_bool("fuse"));
    pm.add_pipeline_text(&text, registry).map_err(|e| format!("{}: {e}", info.name))
}

/// The function passes of `tp-default` before the host part.
const TP_DEFAULT_FUNC_PASSES: &[&str] = &[
    "fusion-propagate-sharding",
    "fusion-decompose-resharding",
    "fusion-to-host",
    "host-assign-streams",
    "host-insert-dealloc",
];

/// The function passes of `tp-host`.
const HOST_FUNC_PASSES: &[&str] = &["host-assign-streams", "host-insert-dealloc"];

/// The passes `fuse=true` adds before `host-assign-streams` (docs/dev/fusion.md).
const FUSION_PASSES: &[&str] = &["host-forward-copies", "host-fuse-epilogue", "host-fuse"];

/// The module passes both pipelines end with.
const CLEANUP_PASSES: &[&str] = &["canonicalize", "cse"];

/// Every pipeline of this module, for registration.
pub fn all() -> [&'static PipelineInfo; 4] {
    [&TP_DEFAULT, &TP_HOST, &TP_OVERLAP_COLLECTIVE, &TP_OVERLAP_P2P]
}

/// Appends `func.func(<func_passes>), canonicalize, cse` to `pm`, `host-assign-streams` getting
/// the pipeline's `streams`.
fn build(
    info: &PipelineInfo,
    func_passes: &[&str],
    options: &OptionValues,
    registry: &PassRegistry,
    pm: &mut OpPassManager,
) -> Result<(), String> {
    check_anchor(info, pm.anchor())?;
    let streams = checked_streams(info, options)?;
    check_registered(info, func_passes.iter().chain(CLEANUP_PASSES).chain(FUSION_PASSES), registry)?;
    let text = pipeline_text(func_passes, streams, options.get_bool("fuse"));
    pm.add_pipeline_text(&text, registry).map_err(|e| format!("{}: {e}", info.name))
}

/// The pipeline's `streams` option, at least 1.
fn checked_streams(info: &PipelineInfo, options: &OptionValues) -> Result<i64, String> {
    let streams = options.get_int("streams");
    if streams < 1 {
        return Err(format!("{}: 'streams' must be at least 1, got {streams}", info.name));
    }
    Ok(streams)
}

fn check_anchor(info: &PipelineInfo, anchor: &Anchor) -> Result<(), String> {
    match anchor {
        Anchor::Op(name) if name != "builtin.module" => Err(format!(
            "{} runs on a module: use it as 'builtin.module({})', not inside a '{name}' pipeline",
            info.name, info.name
        )),
        _ => Ok(()),
    }
}

/// Fails with the list of passes the pipeline needs but the registry lacks.
fn check_registered<'a>(
    info: &PipelineInfo,
    names: impl Iterator<Item = &'a &'a str>,
    registry: &PassRegistry,
) -> Result<(), String> {
    let missing: Vec<String> = names.filter(|n| registry.pass(n).is_none()).map(|n| format!("'{n}'")).collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{} needs {} {}, which {} not registered in this build",
        info.name,
        if missing.len() == 1 { "pass" } else { "passes" },
        missing.join(", "),
        if missing.len() == 1 { "is" } else { "are" }
    ))
}

/// `func.func(p1,p2{streams=N},...),canonicalize,cse`, with the fusion passes before
/// `host-assign-streams` when `fuse`.
fn pipeline_text(func_passes: &[&str], streams: i64, fuse: bool) -> String {
    let mut func: Vec<String> = Vec::new();
    for &p in func_passes {
        if p == "host-assign-streams" {
            if fuse {
                func.extend(FUSION_PASSES.iter().map(|f| f.to_string()));
            }
            func.push(format!("{p}{{streams={streams}}}"));
        } else {
            func.push(p.to_string());
        }
    }
    format!("func.func({}),{}", func.join(","), CLEANUP_PASSES.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fuser_ir::pass::{Pass, PassInfo, PassOutcome};
    use fuser_ir::{Context, Diagnostic, Ir, OpId};

    fn registry() -> PassRegistry {
        let mut r = PassRegistry::new();
        crate::register_all(&mut r).unwrap();
        r
    }

    fn expand(text: &str, registry: &PassRegistry) -> Result<String, String> {
        OpPassManager::parse(text, registry).map(|pm| pm.to_pipeline_string()).map_err(|e| e.to_string())
    }

    #[test]
    fn overlap_report_option_reaches_fusion_to_host() {
        let r = registry();
        for p in ["tp-overlap-collective", "tp-overlap-p2p"] {
            let on = expand(&format!("builtin.module({p}{{report=true}})"), &r).unwrap();
            assert!(on.contains("fusion-to-host{report=true}"), "{on}");
            let off = expand(&format!("builtin.module({p})"), &r).unwrap();
            assert!(off.contains("fusion-to-host{report=false}"), "{off}");
        }
    }

    #[test]
    fn overlap_collective_selects_the_collective_backend_after_fusion_to_host() {
        let r = registry();
        let ce = expand("builtin.module(tp-overlap-collective{streams=2 chunks=2 backend=cuda_ipc})", &r).unwrap();
        assert!(
            ce.contains(
                "fusion-to-host{report=false},comm-collective-backend{backend=cuda_ipc},host-forward-copies{elementwise-strided=false gemm-strided=true},host-fuse-epilogue,host-fuse{enabled=true},host-assign-streams"
            ),
            "{ce}"
        );
        let nccl = expand("builtin.module(tp-overlap-collective{streams=2 chunks=2})", &r).unwrap();
        assert!(!nccl.contains("comm-collective-backend"), "{nccl}");
        let bad = expand("builtin.module(tp-overlap-collective{backend=mpi})", &r).unwrap_err();
        assert!(bad.contains("mpi"), "{bad}");
    }

    #[test]
    fn overlap_p2p_with_cuda_ipc_makes_every_other_communication_cuda_ipc() {
        let r = registry();
        let ipc =
            expand("builtin.module(tp-overlap-p2p{streams=2 chunks=2 backend=cuda_ipc protocol=put})", &r).unwrap();
        assert!(
            ipc.contains("comm-p2p-ring{backend=cuda_ipc protocol=put stage-buffers=true},comm-collective-backend{backend=cuda_ipc},host-forward-copies{elementwise-strided=false gemm-strided=true},host-fuse-epilogue,host-fuse{enabled=true},host-assign-streams"),
            "{ipc}"
        );
        let nccl = expand("builtin.module(tp-overlap-p2p{streams=2 chunks=2})", &r).unwrap();
        assert!(!nccl.contains("comm-collective-backend"), "{nccl}");
    }

    #[test]
    fn text_puts_streams_on_assign_streams_only() {
        assert_eq!(
            pipeline_text(HOST_FUNC_PASSES, 3, false),
            "func.func(host-assign-streams{streams=3},host-insert-dealloc),canonicalize,cse"
        );
        assert_eq!(
            pipeline_text(HOST_FUNC_PASSES, 3, true),
            "func.func(host-forward-copies,host-fuse-epilogue,host-fuse,host-assign-streams{streams=3},host-insert-dealloc),canonicalize,cse"
        );
    }

    #[test]
    fn tp_host_expands_with_default_and_given_streams() {
        let r = registry();
        let default = expand("builtin.module(tp-host)", &r).unwrap();
        assert!(
            default.starts_with(
                "builtin.module(func.func(host-forward-copies{elementwise-strided=false gemm-strided=true},host-fuse-epilogue,host-fuse{enabled=true},host-assign-streams{streams=4},host-insert-dealloc),canonicalize{"
            ),
            "{default}"
        );
        assert!(default.ends_with("},cse)"), "{default}");
        let two = expand("builtin.module(tp-host{streams=2})", &r).unwrap();
        assert!(two.contains("host-assign-streams{streams=2}"), "{two}");
    }

    #[test]
    fn bad_streams_and_nesting_are_errors() {
        let r = registry();
        let zero = expand("builtin.module(tp-host{streams=0})", &r).unwrap_err();
        assert!(zero.contains("tp-host: 'streams' must be at least 1, got 0"), "{zero}");
        let nested = expand("builtin.module(func.func(tp-host))", &r).unwrap_err();
        assert!(nested.contains("tp-host runs on a module"), "{nested}");
    }

    /// Stands in for the fusion passes that other branches add: the expansion only needs names.
    struct Stub(&'static PassInfo);
    impl Pass for Stub {
        fn info(&self) -> &'static PassInfo {
            self.0
        }
        fn run(&self, _: &Context, _: &mut Ir, _: OpId) -> Result<PassOutcome, Diagnostic> {
            Ok(PassOutcome::unchanged())
        }
    }
    static STUBS: [PassInfo; 2] = [
        PassInfo {
            name: "fusion-decompose-resharding",
            display: "Stub",
            summary: "",
            description: "",
            anchor: Some("func.func"),
            options: &[],
            create: |_| Ok(Box::new(Stub(&STUBS[0]))),
        },
        PassInfo {
            name: "fusion-to-host",
            display: "Stub",
            summary: "",
            description: "",
            anchor: Some("func.func"),
            options: &[],
            create: |_| Ok(Box::new(Stub(&STUBS[1]))),
        },
    ];

    #[test]
    fn tp_default_expands_in_order() {
        let mut r = registry();
        for stub in &STUBS {
            if r.pass(stub.name).is_none() {
                r.register_pass(stub).unwrap();
            }
        }
        let text = expand("builtin.module(tp-default{streams=2})", &r).unwrap();
        let func = "builtin.module(func.func(fusion-propagate-sharding,fusion-decompose-resharding,fusion-to-host{report=false},\
host-forward-copies{elementwise-strided=false gemm-strided=true},host-fuse-epilogue,host-fuse{enabled=true},host-assign-streams{streams=2},host-insert-dealloc),canonicalize{";
        let off = expand("builtin.module(tp-default{streams=2 fuse=false})", &r).unwrap();
        assert!(off.contains("fusion-to-host{report=false},host-assign-streams{streams=2}"), "{off}");
        assert!(text.starts_with(func), "{text}");
        assert!(text.ends_with("},cse)"), "{text}");
    }

    #[test]
    fn missing_passes_are_named() {
        let mut r = PassRegistry::new();
        r.register_pass(&crate::registration::CSE).unwrap();
        r.register_pipeline(&TP_HOST).unwrap();
        let err = expand("builtin.module(tp-host)", &r).unwrap_err();
        assert!(
            err.contains("tp-host needs passes 'host-assign-streams', 'host-insert-dealloc', 'canonicalize', 'host-forward-copies', 'host-fuse-epilogue', 'host-fuse', which are not registered"),
            "{err}"
        );
    }
}
