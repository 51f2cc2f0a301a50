//! NCCL communicators of the CUDA backend: one world communicator over the process's GPUs
//! (made at start with `ncclCommInitAll`) for point-to-point traffic and whole-world
//! collectives, and one communicator per other team, made the first time the team is used
//! (every member calls `ncclCommInitRank` with a unique id that the first member to arrive
//! publishes; the members reach the same collective, so they join together).
//!
//! Invariant: a team's communicator orders its members as the team lists them (member `i` is
//! NCCL rank `i`); the world communicator's rank `r` is rank `r`.

use crate::dtype::DType;
use crate::error::{RtError, RtResult};
use crate::watchdog::lock;
use cudarc::nccl::sys as nc;
use fuser_dialects::reduction::ReductionKind;
use std::collections::HashMap;
use std::sync::Mutex;

/// A communicator handle.
#[derive(Clone, Copy, Debug)]
pub struct Comm(pub nc::ncclComm_t);
unsafe impl Send for Comm {}
unsafe impl Sync for Comm {}

/// Converts an NCCL status into an error naming the call.
pub fn check<T>(r: Result<T, cudarc::nccl::result::NcclError>, what: &str) -> RtResult<()> {
    r.map(|_| ()).map_err(|e| RtError::new(format!("nccl: {what} failed: {e:?}")))
}

/// The communicators of the ranks of this process.
pub struct NcclHub {
    world: Vec<Comm>,
    ids: Mutex<HashMap<Vec<usize>, nc::ncclUniqueId>>,
    teams: Vec<Mutex<HashMap<Vec<usize>, Comm>>>,
}

impl NcclHub {
    /// The world communicator over `ordinals` (rank r on GPU `ordinals[r]`).
    pub fn new(ordinals: &[i32]) -> RtResult<NcclHub> {
        let mut comms = vec![std::ptr::null_mut(); ordinals.len()];
        check(
            unsafe { cudarc::nccl::result::comm_init_all(comms.as_mut_ptr(), ordinals.len() as i32, ordinals.as_ptr()) },
            "ncclCommInitAll",
        )?;
        Ok(NcclHub {
            world: comms.into_iter().map(Comm).collect(),
            ids: Mutex::new(HashMap::new()),
            teams: ordinals.iter().map(|_| Mutex::new(HashMap::new())).collect(),
        })
    }

    pub fn world(&self, rank: usize) -> Comm {
        self.world[rank]
    }

    /// The communicator of `team` for `rank` (a member), made on first use. The caller's GPU
    /// context must be current.
    pub fn team(&self, rank: usize, team: &[usize]) -> RtResult<Comm> {
        if team.iter().copied().eq(0..self.world.len()) {
            return Ok(self.world[rank]);
        }
        if let Some(c) = lock(&self.teams[rank]).get(team) {
            return Ok(*c);
        }
        let position = team
            .iter()
            .position(|&m| m == rank)
            .ok_or_else(|| RtError::new(format!("rank {rank} is not in the team {team:?}")))?;
        let id = {
            let mut ids = lock(&self.ids);
            match ids.get(team) {
                Some(id) => *id,
                None => {
                    let mut id = std::mem::MaybeUninit::uninit();
                    check(unsafe { nc::ncclGetUniqueId(id.as_mut_ptr()).result() }, "ncclGetUniqueId")?;
                    let id = unsafe { id.assume_init() };
                    ids.insert(team.to_vec(), id);
                    id
                }
            }
        };
        let mut comm = std::ptr::null_mut();
        check(
            unsafe { cudarc::nccl::result::comm_init_rank(&mut comm, team.len() as i32, id, position as i32) },
            "ncclCommInitRank",
        )?;
        lock(&self.teams[rank]).insert(team.to_vec(), Comm(comm));
        Ok(Comm(comm))
    }
}

impl Drop for NcclHub {
    fn drop(&mut self) {
        let teams = self.teams.iter().flat_map(|t| lock(t).values().copied().collect::<Vec<_>>());
        for c in self.world.iter().copied().chain(teams.collect::<Vec<_>>()) {
            unsafe {
                let _ = cudarc::nccl::result::comm_destroy(c.0);
            }
        }
    }
}

/// The NCCL element type of `d`.
pub fn data_type(d: DType) -> nc::ncclDataType_t {
    use nc::ncclDataType_t::*;
    match d {
        DType::BF16 => ncclBfloat16,
        DType::F16 => ncclFloat16,
        DType::F32 => ncclFloat32,
        DType::F64 => ncclFloat64,
        DType::I8 => ncclInt8,
        // NCCL has no 16-bit integers: they travel as pairs of bytes, which only copies (no
        // reductions) can do; see `reducible`.
        DType::I16 => ncclUint8,
        DType::I32 => ncclInt32,
        DType::I64 => ncclInt64,
    }
}

/// Elements of `d` as NCCL counts them.
pub fn count(d: DType, numel: usize) -> usize {
    if d == DType::I16 { numel * 2 } else { numel }
}

/// Whether NCCL can reduce elements of `d`.
pub fn reducible(d: DType) -> bool {
    d != DType::I16
}

/// The NCCL reduction of `k`.
pub fn red_op(k: ReductionKind) -> nc::ncclRedOp_t {
    match k {
        ReductionKind::Sum => nc::ncclRedOp_t::ncclSum,
        ReductionKind::Prod => nc::ncclRedOp_t::ncclProd,
        ReductionKind::Min => nc::ncclRedOp_t::ncclMin,
        ReductionKind::Max => nc::ncclRedOp_t::ncclMax,
    }
}
