//! Passes that restructure the communication of host programs: the point-to-point ring for
//! AllGather + Matmul (`p2p_ring`). See docs/dev/lowering.md §8.

pub mod p2p_ring;
