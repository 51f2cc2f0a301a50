//! The lowering pipelines a case runs through, their textual form for the pass manager and
//! for `fuser-run --pass-pipeline`, and the *fusion prefix* of each: the passes up to
//! `fusion-to-host`, used to tell a clean rejection of the program (the prefix rejects it too)
//! from a later pass refusing a program the fusion lowering accepted.
//!
//! `tp-host` takes host programs; a case for it lowers the fusion program with the fusion
//! passes of `tp-default` and then runs `tp-host` on the result.

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
    },
    Host {
        streams: usize,
    },
    /// `copy_engine`: `backend=cuda_ipc`, the copy-engine implementation of every collective.
    Collective {
        streams: usize,
        chunks: usize,
        copy_engine: bool,
    },
    P2p {
        streams: usize,
        chunks: usize,
        ring: Ring,
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

    /// The stream chunk count the pipeline forces on every `Stream(n)`, if any.
    pub fn chunk_override(&self) -> Option<usize> {
        match self {
            Pipeline::Collective { chunks, .. } | Pipeline::P2p { chunks, .. } if *chunks > 0 => Some(*chunks),
            _ => None,
        }
    }

    /// The full pipeline, `builtin.module(...)`.
    pub fn text(&self) -> String {
        let body = match *self {
            Pipeline::Default { streams } => format!("tp-default{{streams={streams}}}"),
            Pipeline::Host { streams } => format!("func.func({FUSION_PASSES}),tp-host{{streams={streams}}}"),
            Pipeline::Collective { streams, chunks, copy_engine: false } => {
                format!("tp-overlap-collective{{streams={streams} chunks={chunks}}}")
            }
            Pipeline::Collective { streams, chunks, copy_engine: true } => {
                format!("tp-overlap-collective{{streams={streams} chunks={chunks} backend=cuda_ipc}}")
            }
            Pipeline::P2p { streams, chunks, ring } => {
                let (backend, protocol) = match ring {
                    Ring::Nccl => ("nccl", "get"),
                    Ring::IpcGet => ("cuda_ipc", "get"),
                    Ring::IpcPut => ("cuda_ipc", "put"),
                };
                format!("tp-overlap-p2p{{streams={streams} chunks={chunks} backend={backend} protocol={protocol}}}")
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
        match rng.weighted(&[2, 1, 2, 2, 2, 2, 2]) {
            0 => Pipeline::Default { streams },
            1 => Pipeline::Host { streams },
            2 => Pipeline::Collective { streams, chunks, copy_engine: false },
            6 => Pipeline::Collective { streams, chunks, copy_engine: true },
            3 => Pipeline::P2p { streams, chunks, ring: Ring::Nccl },
            4 => Pipeline::P2p { streams, chunks, ring: Ring::IpcGet },
            _ => Pipeline::P2p { streams, chunks, ring: Ring::IpcPut },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_name_the_options() {
        let p = Pipeline::P2p { streams: 2, chunks: 4, ring: Ring::IpcPut };
        assert_eq!(p.text(), "builtin.module(tp-overlap-p2p{streams=2 chunks=4 backend=cuda_ipc protocol=put})");
        assert!(p.fusion_prefix().contains("fusion-set-stream-chunks{chunks=4}"));
        assert_eq!(p.chunk_override(), Some(4));
        assert!(Pipeline::Host { streams: 3 }.text().ends_with("tp-host{streams=3})"));
        assert_eq!(Pipeline::Collective { streams: 1, chunks: 0, copy_engine: false }.chunk_override(), None);
        let ce = Pipeline::Collective { streams: 2, chunks: 2, copy_engine: true };
        assert_eq!(ce.text(), "builtin.module(tp-overlap-collective{streams=2 chunks=2 backend=cuda_ipc})");
        assert!(Pipeline::LABELS.contains(&ce.label()));
    }
}
