//! NCCL communicators of the CUDA backend: one world communicator over the process's GPUs
//! (made at start with `ncclCommInitAll`) for point-to-point traffic and whole-world
//! collectives, and one communicator per other team, made the first time the team is used
//! (every member calls `ncclCommInitRank` with a unique id that the first member to arrive
//! publishes; the members reach the same collective, so they join together).
//!
//! In a multi-process run (one rank per process, [`NcclHub::for_process`]) the unique ids
//! travel through the run's [`Store`]: rank 0 publishes the world's, a team's first member
//! publishes the team's.
//!
//! Ranks may share a GPU (`fuser-run --devices 0,0`), but NCCL refuses two members of one
//! communicator on one GPU: the hub then makes no world communicator, and every NCCL op of a
//! team with two members on one GPU is an error naming them ([`shared_gpu`]).
//!
//! Invariant: a team's communicator orders its members as the team lists them (member `i` is
//! NCCL rank `i`); the world communicator's rank `r` is rank `r`.

use crate::dtype::DType;
use crate::error::{RtError, RtResult};
use crate::store::Store;
use crate::watchdog::lock;
use cudarc::nccl::sys as nc;
use fuser_dialects::reduction::ReductionKind;
use std::collections::HashMap;
use std::sync::Arc;
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

/// Where the unique ids of team communicators come from.
enum Ids {
    /// All ranks in this process: the first member to arrive makes the id.
    Local(Mutex<HashMap<Vec<usize>, nc::ncclUniqueId>>),
    /// One rank per process: through the run's store.
    Store(Arc<Store>),
}

/// The communicators of the ranks of this process (ranks `first..first + world.len()`).
pub struct NcclHub {
    first: usize,
    world_size: usize,
    /// Empty when two ranks share a GPU (see [`shared_gpu`]).
    world: Vec<Comm>,
    /// The GPU of every rank of the world (PCI bus ids, or ordinals within one process).
    gpus: Vec<String>,
    ids: Ids,
    teams: Vec<Mutex<HashMap<Vec<usize>, Comm>>>,
    /// Set once the communicators were aborted (they are then never destroyed).
    aborted: std::sync::atomic::AtomicBool,
}

fn new_unique_id() -> RtResult<nc::ncclUniqueId> {
    let mut id = std::mem::MaybeUninit::uninit();
    check(unsafe { nc::ncclGetUniqueId(id.as_mut_ptr()).result() }, "ncclGetUniqueId")?;
    Ok(unsafe { id.assume_init() })
}

fn id_bytes(id: &nc::ncclUniqueId) -> Vec<u8> {
    id.internal.iter().map(|&c| c as u8).collect()
}

fn id_from_bytes(b: &[u8]) -> RtResult<nc::ncclUniqueId> {
    let mut id = nc::ncclUniqueId { internal: [0; 128] };
    if b.len() != id.internal.len() {
        return Err(RtError::new("nccl: a unique id of the wrong size came through the store"));
    }
    for (d, &s) in id.internal.iter_mut().zip(b) {
        *d = s as std::ffi::c_char;
    }
    Ok(id)
}

impl NcclHub {
    /// The world communicator over `ordinals` (rank r on GPU `ordinals[r]`).
    /// With two ranks on one GPU there is no world communicator (NCCL ops then fail).
    pub fn new(ordinals: &[i32]) -> RtResult<NcclHub> {
        let gpus: Vec<String> = ordinals.iter().map(|o| format!("GPU {o}")).collect();
        let mut comms = vec![std::ptr::null_mut(); ordinals.len()];
        if shared_gpu(&gpus, &(0..gpus.len()).collect::<Vec<_>>()).is_none() {
            check(
                unsafe {
                    cudarc::nccl::result::comm_init_all(comms.as_mut_ptr(), ordinals.len() as i32, ordinals.as_ptr())
                },
                "ncclCommInitAll",
            )?;
        } else {
            comms.clear();
        }
        Ok(NcclHub {
            first: 0,
            world_size: ordinals.len(),
            world: comms.into_iter().map(Comm).collect(),
            gpus,
            ids: Ids::Local(Mutex::new(HashMap::new())),
            teams: ordinals.iter().map(|_| Mutex::new(HashMap::new())).collect(),
            aborted: Default::default(),
        })
    }

    /// The world communicator of a process hosting rank `rank` of `world_size` (the GPU's
    /// context must be current); `gpus`: the GPU of every rank (the same list in every
    /// process). With two ranks on one GPU there is no world communicator.
    pub fn for_process(rank: usize, world_size: usize, store: Arc<Store>, gpus: Vec<String>) -> RtResult<NcclHub> {
        if shared_gpu(&gpus, &(0..world_size).collect::<Vec<_>>()).is_some() {
            return Ok(NcclHub {
                first: rank,
                world_size,
                world: Vec::new(),
                gpus,
                ids: Ids::Store(store),
                teams: vec![Mutex::new(HashMap::new())],
                aborted: Default::default(),
            });
        }
        let id = if rank == 0 {
            let id = new_unique_id()?;
            store.set("nccl/world", &id_bytes(&id))?;
            id
        } else {
            id_from_bytes(&store.get("nccl/world")?)?
        };
        let mut comm = std::ptr::null_mut();
        check(
            unsafe { cudarc::nccl::result::comm_init_rank(&mut comm, world_size as i32, id, rank as i32) },
            "ncclCommInitRank",
        )?;
        Ok(NcclHub {
            first: rank,
            world_size,
            world: vec![Comm(comm)],
            gpus,
            ids: Ids::Store(store),
            teams: vec![Mutex::new(HashMap::new())],
            aborted: Default::default(),
        })
    }

    /// Why no world communicator exists (two ranks of the run share a GPU), or None.
    pub fn world_shares_gpu(&self) -> Option<String> {
        shared_gpu(&self.gpus, &(0..self.world_size).collect::<Vec<_>>())
    }

    /// The world communicator of `rank`; an error when ranks share a GPU.
    pub fn world(&self, rank: usize) -> RtResult<Comm> {
        if let Some(why) = self.world_shares_gpu() {
            return Err(RtError::new(why));
        }
        self.world
            .get(rank - self.first)
            .copied()
            .ok_or_else(|| RtError::new(format!("nccl: rank {rank} has no world communicator")))
    }

    /// The unique id of `team`'s communicator.
    fn team_id(&self, rank: usize, team: &[usize]) -> RtResult<nc::ncclUniqueId> {
        match &self.ids {
            Ids::Local(ids) => {
                let mut ids = lock(ids);
                match ids.get(team) {
                    Some(id) => Ok(*id),
                    None => {
                        let id = new_unique_id()?;
                        ids.insert(team.to_vec(), id);
                        Ok(id)
                    }
                }
            }
            Ids::Store(store) => {
                let key = format!("nccl/team/{team:?}");
                if team.first() == Some(&rank) {
                    let id = new_unique_id()?;
                    store.set(&key, &id_bytes(&id))?;
                    Ok(id)
                } else {
                    id_from_bytes(&store.get(&key)?)
                }
            }
        }
    }

    /// The communicator of `team` for `rank` (a member), made on first use. The caller's GPU
    /// context must be current.
    pub fn team(&self, rank: usize, team: &[usize]) -> RtResult<Comm> {
        if let Some(why) = shared_gpu(&self.gpus, team) {
            return Err(RtError::new(why));
        }
        if team.iter().copied().eq(0..self.world_size) {
            return self.world(rank);
        }
        let local = rank - self.first;
        if let Some(c) = lock(&self.teams[local]).get(team) {
            return Ok(*c);
        }
        let position = team
            .iter()
            .position(|&m| m == rank)
            .ok_or_else(|| RtError::new(format!("rank {rank} is not in the team {team:?}")))?;
        let id = self.team_id(rank, team)?;
        let mut comm = std::ptr::null_mut();
        check(
            unsafe { cudarc::nccl::result::comm_init_rank(&mut comm, team.len() as i32, id, position as i32) },
            "ncclCommInitRank",
        )?;
        lock(&self.teams[local]).insert(team.to_vec(), Comm(comm));
        Ok(Comm(comm))
    }
}

impl NcclHub {
    fn all_comms(&self) -> Vec<Comm> {
        let teams: Vec<Comm> = self.teams.iter().flat_map(|t| lock(t).values().copied().collect::<Vec<_>>()).collect();
        self.world.iter().copied().chain(teams).collect()
    }

    /// Aborts every communicator of the process (once): their pending operations return, so
    /// streams blocked in them drain. The communicators are unusable afterwards.
    pub fn abort(&self) {
        if self.aborted.swap(true, std::sync::atomic::Ordering::AcqRel) {
            return;
        }
        for c in self.all_comms() {
            unsafe {
                let _ = cudarc::nccl::result::comm_abort(c.0);
            }
        }
    }
}

impl Drop for NcclHub {
    fn drop(&mut self) {
        if self.aborted.load(std::sync::atomic::Ordering::Acquire) {
            return;
        }
        for c in self.all_comms() {
            unsafe {
                let _ = cudarc::nccl::result::comm_destroy(c.0);
            }
        }
    }
}

/// Why NCCL cannot serve `team` when two of its members are on one GPU of `gpus` (the GPU of
/// every rank); `None` when their GPUs differ.
pub fn shared_gpu(gpus: &[String], team: &[usize]) -> Option<String> {
    for (i, &a) in team.iter().enumerate() {
        for &b in &team[i + 1..] {
            let (Some(ga), Some(gb)) = (gpus.get(a), gpus.get(b)) else { continue };
            if ga == gb {
                return Some(format!(
                    "nccl: ranks {a} and {b} run on the same GPU ({ga}), and NCCL refuses two members of one \
                     communicator on one GPU: give them different GPUs (--devices) or use a program without NCCL \
                     ops between them (e.g. cuda_ipc transfers)"
                ));
            }
        }
    }
    None
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
        // Booleans travel as bytes; a sum of bytes is no boolean: not reducible (`reducible`).
        DType::I1 => ncclUint8,
    }
}

/// Elements of `d` as NCCL counts them.
pub fn count(d: DType, numel: usize) -> usize {
    if d == DType::I16 { numel * 2 } else { numel }
}

/// Whether NCCL can reduce elements of `d`.
pub fn reducible(d: DType) -> bool {
    d != DType::I16 && d != DType::I1
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn teams_with_two_members_on_one_gpu_are_named() {
        let gpus: Vec<String> = ["GPU 0", "GPU 0", "GPU 1"].iter().map(|s| s.to_string()).collect();
        assert_eq!(shared_gpu(&gpus, &[0, 2]), None);
        assert_eq!(shared_gpu(&gpus, &[1, 2]), None);
        let why = shared_gpu(&gpus, &[0, 1, 2]).unwrap();
        assert!(why.contains("ranks 0 and 1 run on the same GPU (GPU 0)"), "{why}");
    }
}
