//! The lowering pipelines a case runs through, their textual form for the pass manager and
//! for `fuser-run --pass-pipeline`, and the *fusion prefix* of each: the passes up to
//! `fusion-to-host`, used to tell a clean rejection of the program (the prefix rejects it too)
//! from a later pass refusing a program the fusion lowering accepted.
//!
//! `tp-host` takes host programs; a case for it lowers the fusion program with the fusion
//! passes of `tp-default` and then runs `tp-host` on the result.
//!
//! Every pipeline runs `host-fuse` (issue 24) unless given `fuse=false`; a case fuses 3 times
//! in 4, so fused regions are checked against the reference and the unfused lowering stays
//! covered (coverage's `fusion` table, [`Pipeline::fusion_label`]).

use crate::rng::Rng;

/// The transport and protocol of a `tp-overlap-p2p` ring.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Ring {
    Nccl,
    IpcGet,
    IpcPut,
}

/// One pipeline with its options.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Pipeline {
    Default {
        streams: usize,
        fuse: bool,
    },
    Host {
        streams: usize,
        fuse: bool,
    },
    /// `copy_engine`: `backend=cuda_ipc`, the copy-engine implementation of every collective.
    Collective {
        streams: usize,
        chunks: usize,
        copy_engine: bool,
        fuse: bool,
    },
    P2p {
        streams: usize,
        chunks: usize,
        ring: Ring,
        fuse: bool,
    },
}

/// The fusion passes every pipeline starts with (after `fusion-set-stream-chunks`).
const FUSION_PASSES: &str = "fusion-propagate-sharding,fusion-decompose-resharding,fusion-to-host";

impl Pipeline {
    /// A short label for coverage tables: `tp-default`, `tp-overlap-p2p/cuda_ipc-put`, ...
    pub fn label(&self) -> &'static str {
        match self {
            Pipeline::Default { .. } => "tp-default",
            Pipeline::Host { .. } => "tp-host",
            Pipeline::Collective { copy_engine: false, .. } => "tp-overlap-collective",
            Pipeline::Collective { copy_engine: true, .. } => "tp-overlap-collective/cuda_ipc",
            Pipeline::P2p { ring: Ring::Nccl, .. } => "tp-overlap-p2p/nccl",
            Pipeline::P2p { ring: Ring::IpcGet, .. } => "tp-overlap-p2p/cuda_ipc-get",
            Pipeline::P2p { ring: Ring::IpcPut, .. } => "tp-overlap-p2p/cuda_ipc-put",
        }
    }

    pub const LABELS: [&'static str; 7] = [
        "tp-default",
        "tp-host",
        "tp-overlap-collective",
        "tp-overlap-collective/cuda_ipc",
        "tp-overlap-p2p/nccl",
        "tp-overlap-p2p/cuda_ipc-get",
        "tp-overlap-p2p/cuda_ipc-put",
    ];

    /// Whether the pipeline runs `host-fuse` (the default; `fuse=false` in the text when not).
    pub fn fuse(&self) -> bool {
        match *self {
            Pipeline::Default { fuse, .. }
            | Pipeline::Host { fuse, .. }
            | Pipeline::Collective { fuse, .. }
            | Pipeline::P2p { fuse, .. } => fuse,
        }
    }

    /// The same pipeline with `host-fuse` on or off.
    pub fn with_fuse(mut self, on: bool) -> Pipeline {
        match &mut self {
            Pipeline::Default { fuse, .. }
            | Pipeline::Host { fuse, .. }
            | Pipeline::Collective { fuse, .. }
            | Pipeline::P2p { fuse, .. } => *fuse = on,
        }
        self
    }

    /// `fused` or `unfused`, for the coverage tables and the per-pipeline counts.
    pub fn fusion_label(&self) -> &'static str {
        if self.fuse() { "fused" } else { "unfused" }
    }

    /// The stream chunk count the pipeline forces on every `Stream(n)`, if any.
    pub fn chunk_override(&self) -> Option<usize> {
        match self {
            Pipeline::Collective { chunks, .. } | Pipeline::P2p { chunks, .. } if *chunks > 0 => Some(*chunks),
            _ => None,
        }
    }

    /// The full pipeline, `builtin.module(...)`.
    pub fn text(&self) -> String {
        let nofuse = if self.fuse() { "" } else { " fuse=false" };
        let body = match *self {
            Pipeline::Default { streams, .. } => format!("tp-default{{streams={streams}{nofuse}}}"),
            Pipeline::Host { streams, .. } => {
                format!("func.func({FUSION_PASSES}),tp-host{{streams={streams}{nofuse}}}")
            }
            Pipeline::Collective { streams, chunks, copy_engine: false, .. } => {
                format!("tp-overlap-collective{{streams={streams} chunks={chunks}{nofuse}}}")
            }
            Pipeline::Collective { streams, chunks, copy_engine: true, .. } => {
                format!("tp-overlap-collective{{streams={streams} chunks={chunks} backend=cuda_ipc{nofuse}}}")
            }
            Pipeline::P2p { streams, chunks, ring, .. } => {
                let (backend, protocol) = match ring {
                    Ring::Nccl => ("nccl", "get"),
                    Ring::IpcGet => ("cuda_ipc", "get"),
                    Ring::IpcPut => ("cuda_ipc", "put"),
                };
                format!(
                    "tp-overlap-p2p{{streams={streams} chunks={chunks} backend={backend} protocol={protocol}{nofuse}}}"
                )
            }
        };
        format!("builtin.module({body})")
    }

    /// The passes up to and including `fusion-to-host`, with the same stream chunks.
    pub fn fusion_prefix(&self) -> String {
        let chunks = match *self {
            Pipeline::Collective { chunks, .. } | Pipeline::P2p { chunks, .. } => chunks,
            _ => 0,
        };
        format!("builtin.module(func.func(fusion-set-stream-chunks{{chunks={chunks}}},{FUSION_PASSES}))")
    }

    /// A random pipeline for a mesh of `devices` devices.
    pub fn random(rng: &mut Rng, devices: usize) -> Pipeline {
        let streams = *rng.pick(&[1, 2, 3, 4]).unwrap_or(&2);
        // Rings want one chunk per device; other counts are valid and exercised too.
        let chunks = match rng.below(4) {
            0 => 0,
            1 => 2,
            _ => devices,
        };
        let kind = rng.weighted(&[2, 1, 2, 2, 2, 2, 2]);
        // Drawn after the kind, so the kind sequence of the seeds stays what it was.
        let fuse = !rng.chance(25);
        match kind {
            0 => Pipeline::Default { streams, fuse },
            1 => Pipeline::Host { streams, fuse },
            2 => Pipeline::Collective { streams, chunks, copy_engine: false, fuse },
            6 => Pipeline::Collective { streams, chunks, copy_engine: true, fuse },
            3 => Pipeline::P2p { streams, chunks, ring: Ring::Nccl, fuse },
            4 => Pipeline::P2p { streams, chunks, ring: Ring::IpcGet, fuse },
            _ => Pipeline::P2p { streams, chunks, ring: Ring::IpcPut, fuse },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_name_the_options() {
        let p = Pipeline::P2p { streams: 2, chunks: 4, ring: Ring::IpcPut, fuse: true };
        assert_eq!(p.text(), "builtin.module(tp-overlap-p2p{streams=2 chunks=4 backend=cuda_ipc protocol=put})");
        assert!(p.fusion_prefix().contains("fusion-set-stream-chunks{chunks=4}"));
        assert_eq!(p.chunk_override(), Some(4));
        assert!(Pipeline::Host { streams: 3, fuse: true }.text().ends_with("tp-host{streams=3})"));
        assert!(Pipeline::Host { streams: 3, fuse: false }.text().ends_with("tp-host{streams=3 fuse=false})"));
        let unfused = Pipeline::Collective { streams: 1, chunks: 0, copy_engine: false, fuse: false };
        assert_eq!(unfused.chunk_override(), None);
        assert_eq!(unfused.text(), "builtin.module(tp-overlap-collective{streams=1 chunks=0 fuse=false})");
        assert_eq!(unfused.fusion_label(), "unfused");
        assert_eq!(unfused.with_fuse(true).fusion_label(), "fused");
        let ce = Pipeline::Collective { streams: 2, chunks: 2, copy_engine: true, fuse: true };
        assert_eq!(ce.text(), "builtin.module(tp-overlap-collective{streams=2 chunks=2 backend=cuda_ipc})");
        assert!(Pipeline::LABELS.contains(&ce.label()));
        let p = Pipeline::P2p { streams: 1, chunks: 2, ring: Ring::Nccl, fuse: false };
        assert!(p.text().ends_with("protocol=get fuse=false})"), "{}", p.text());
    }
}
