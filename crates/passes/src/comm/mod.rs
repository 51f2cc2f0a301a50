//! Passes that restructure the communication of host programs: the point-to-point ring for
//! AllGather + Matmul (`p2p_ring`) and the choice of the collectives' implementation
//! (`collective_backend`: NCCL or copy engine). See docs/dev/lowering.md §8 and
//! docs/dev/copy-engine.md.

pub mod collective_backend;
pub mod p2p_ring;
