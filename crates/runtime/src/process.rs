//! Multi-process runs (the cuda backend's; the codec of rank results is shared with the cpu
//! backend's, [`crate::procs`]): one process per GPU, as started by `fuser-run --launch` or by any
//! launcher that sets the usual variables (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR,
//! MASTER_PORT), so the same binary runs across nodes over NCCL.
//!
//! Every process computes the same seeded global inputs and takes its rank's piece, runs its
//! rank on GPU LOCAL_RANK ([`crate::cuda::CudaBackend::for_process`]), and publishes its
//! result (times, counters, output pieces) in the run's [`Store`]; rank 0 collects all of them
//! and returns the whole outcome (the others return `None`). A rank that fails publishes its
//! error instead, so rank 0 reports it rather than timing out.

use crate::driver::RankResult;
#[cfg(feature = "cuda")]
use crate::driver::{Failure, RunConfig, RunIo, RunOutcome, run_ranks};
use crate::dtype::DType;
use crate::error::{RtError, RtResult};
#[cfg(feature = "cuda")]
use crate::exec::Program;
use crate::exec::backend::RankStats;
use crate::store::TOKEN_VAR;
#[cfg(feature = "cuda")]
use crate::store::{Store, StoreConfig};
use crate::tensor::HostTensor;
#[cfg(feature = "cuda")]
use fuser_ir::context::Context;
#[cfg(feature = "cuda")]
use fuser_ir::ir::{Ir, OpId};
#[cfg(feature = "cuda")]
use std::sync::Arc;
#[cfg(feature = "cuda")]
use std::time::Duration;

/// The process's place in a multi-process run, from the environment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessEnv {
    pub rank: usize,
    pub world: usize,
    pub local_rank: usize,
    /// `MASTER_ADDR:MASTER_PORT` (or `MASTER_ADDR:FUSER_STORE_PORT`), where rank 0 serves
    /// the store.
    pub master: String,
    /// The run's store token ([`crate::store::TOKEN_VAR`]).
    pub token: String,
}

impl ProcessEnv {
    /// `None` when RANK is unset (a single-process run); an error when the variables are
    /// incomplete or inconsistent.
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> RtResult<Option<ProcessEnv>> {
        let Some(rank) = var("RANK") else { return Ok(None) };
        let num = |name: &str, v: Option<String>| -> RtResult<usize> {
            v.ok_or_else(|| RtError::new(format!("RANK is set but {name} is not")))?
                .parse()
                .map_err(|_| RtError::new(format!("{name} is not a number")))
        };
        let rank = num("RANK", Some(rank))?;
        let world = num("WORLD_SIZE", var("WORLD_SIZE"))?;
        let local_rank = match var("LOCAL_RANK") {
            Some(v) => num("LOCAL_RANK", Some(v))?,
            None => rank,
        };
        if rank >= world {
            return Err(RtError::new(format!("RANK {rank} is not below WORLD_SIZE {world}")));
        }
        let addr = var("MASTER_ADDR").unwrap_or_else(|| "127.0.0.1".into());
        // FUSER_STORE_PORT moves rank 0's store off MASTER_PORT, where torchrun's own agent
        // store already listens.
        let port = match var("FUSER_STORE_PORT") {
            Some(p) => num("FUSER_STORE_PORT", Some(p))?,
            None => num("MASTER_PORT", var("MASTER_PORT"))?,
        };
        let token = var(TOKEN_VAR).ok_or_else(|| {
            RtError::new(format!(
                "RANK is set but {TOKEN_VAR} is not: give every rank the same secret, e.g. \
`export {TOKEN_VAR}=$(openssl rand -hex 16)` before the launcher (fuser-run --launch sets it itself)"
            ))
        })?;
        crate::store::token::check_token(&token).map_err(RtError::new)?;
        Ok(Some(ProcessEnv { rank, world, local_rank, master: format!("{addr}:{port}"), token }))
    }
}

/// Runs this process's rank of a multi-process run on the cuda backend; rank 0 gets the
/// outcome of all ranks. (The cpu backend's multi-process runs: [`crate::procs`].) Before
/// running, the ranks compare their fingerprints through the store
/// ([`crate::procs::fingerprint`]; `about`: its explanatory parts, as for the cpu backend).
#[cfg(feature = "cuda")]
pub fn run_as_process(
    ctx: &Context,
    ir: &Ir,
    func: OpId,
    prog: &Program,
    cfg: &RunConfig,
    env: &ProcessEnv,
    about: &[(&str, &str)],
) -> Result<Option<RunOutcome>, Failure> {
    if cfg.ranks != env.world {
        let msg = format!(
            "the run has {} ranks (--ranks, or the devices of the program's meshes) but WORLD_SIZE is {}",
            cfg.ranks, env.world
        );
        return Err(RtError::new(msg).into());
    }
    // Results arrive when the slowest rank finished: give the store far more than one wait.
    let store = Arc::new(Store::connect(&StoreConfig {
        addr: env.master.clone(),
        rank: env.rank,
        world: env.world,
        token: env.token.clone(),
        timeout: cfg.timeout.max(Duration::from_secs(120)),
        // Rank 0's store reports connections it drops (garbage, wrong tokens) on stderr and
        // the run goes on.
        log: Arc::new(|line| eprintln!("fuser-run: rank 0 {line}")),
    })?);
    let io = RunIo::new(ctx, ir, func, cfg)?;
    use crate::procs::fingerprint::{Fingerprint, check_through_store};
    let fingerprint = about
        .iter()
        .fold(Fingerprint::of_run(ctx, ir, func, &cfg.fingerprint_options(), env.world), |f, (name, text)| {
            f.explained_by(name, text)
        });
    check_through_store(&store, env.rank, env.world, &fingerprint)?;
    let mut trace = Vec::new();
    let mine = gpu_of_process(env, cfg.devices.as_deref(), crate::cuda::api::visible_devices)
        .and_then(|device| {
            crate::cuda::CudaBackend::for_process(env.rank, env.world, device, store.clone(), cfg.timeout)
                .map(|b| b.with_gemm(cfg.gemm))
        })
        .map_err(Failure::from)
        .and_then(|backend| {
            let backend = if cfg.trace { backend.with_trace() } else { backend };
            let r = run_ranks(&backend, env.rank..env.rank + 1, prog, &io, cfg);
            trace = crate::exec::Backend::trace_events(&backend);
            r
        });
    let published = match &mine {
        Ok(r) => encode_result(&r[0]),
        Err(f) => encode_error(&f.error),
    };
    let sent = store.set(&format!("result/{}", env.rank), &published);
    // This rank's own failure says more than a store that went away with rank 0.
    let mine = mine?;
    sent?;
    if env.rank != 0 {
        return Ok(None);
    }
    let mut all = mine;
    for r in 1..env.world {
        let bytes = store.get(&format!("result/{r}"))?;
        all.push(decode(&bytes).map_err(|e| e.on_rank(r))?);
    }
    // The trace holds rank 0's tracks only: other processes keep theirs.
    io.assemble(all, cfg, trace).map(Some)
}

/// The GPU (an ordinal among the visible ones) of this process's rank: `devices[RANK]` when
/// the run names the GPU of every rank (`--devices`), else LOCAL_RANK; a process that sees a
/// single GPU through CUDA_VISIBLE_DEVICES (a launcher that binds one GPU per process) runs on
/// it whatever its LOCAL_RANK. `visible`: the number of GPUs this process sees.
pub fn gpu_of_process(
    env: &ProcessEnv,
    devices: Option<&[usize]>,
    visible: impl FnOnce() -> RtResult<usize>,
) -> RtResult<usize> {
    if let Some(d) = devices {
        if d.len() != env.world {
            return Err(RtError::new(format!(
                "--devices names {} GPUs but WORLD_SIZE is {} (one per rank)",
                d.len(),
                env.world
            )));
        }
        return Ok(d[env.rank]);
    }
    let n = visible()?;
    if env.local_rank < n {
        return Ok(env.local_rank);
    }
    if n == 1 && std::env::var_os("CUDA_VISIBLE_DEVICES").is_some() {
        return Ok(0);
    }
    Err(RtError::new(format!(
        "rank {} has LOCAL_RANK {} but this process sees {n} GPU(s): set CUDA_VISIBLE_DEVICES to one GPU per \
         process, or name the GPU of every rank with --devices (ranks may share a GPU)",
        env.rank, env.local_rank
    )))
}

// A small binary encoding of a rank's result: tag byte (0 = result, 1 = error), then
// little-endian fields.

fn put_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

pub(crate) fn encode_result(r: &RankResult) -> Vec<u8> {
    let mut out = vec![0u8];
    put_u64(&mut out, r.times_s.len() as u64);
    r.times_s.iter().for_each(|t| out.extend_from_slice(&t.to_le_bytes()));
    put_u64(&mut out, r.stats.ops);
    put_u64(&mut out, r.stats.bytes_moved);
    put_u64(&mut out, r.iterations as u64);
    put_u64(&mut out, r.pieces.len() as u64);
    for p in &r.pieces {
        let name = p.dtype.name().as_bytes();
        put_u64(&mut out, name.len() as u64);
        out.extend_from_slice(name);
        put_u64(&mut out, p.shape.len() as u64);
        p.shape.iter().for_each(|&d| put_u64(&mut out, d as u64));
        put_u64(&mut out, p.data.len() as u64);
        p.data.iter().for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
    }
    out
}

pub(crate) fn encode_error(e: &RtError) -> Vec<u8> {
    let mut out = vec![1u8];
    out.extend_from_slice(e.message.as_bytes());
    out
}

struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn bytes(&mut self, n: usize) -> RtResult<&[u8]> {
        if self.0.len() < n {
            return Err(RtError::new("a truncated result came through the store"));
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Ok(a)
    }
    fn u64(&mut self) -> RtResult<u64> {
        Ok(u64::from_le_bytes(self.bytes(8)?.try_into().expect("8 bytes")))
    }
    fn f64(&mut self) -> RtResult<f64> {
        Ok(f64::from_bits(self.u64()?))
    }
    fn len(&mut self) -> RtResult<usize> {
        let n = self.u64()? as usize;
        if n > self.0.len() {
            return Err(RtError::new("a malformed result came through the store"));
        }
        Ok(n)
    }
}

pub(crate) fn decode(bytes: &[u8]) -> RtResult<RankResult> {
    let (&tag, rest) = bytes.split_first().ok_or_else(|| RtError::new("an empty result came through the store"))?;
    if tag == 1 {
        return Err(RtError::new(String::from_utf8_lossy(rest).into_owned()));
    }
    let mut r = Reader(rest);
    let n = r.len()?;
    let times_s = (0..n).map(|_| r.f64()).collect::<RtResult<_>>()?;
    let stats = RankStats { ops: r.u64()?, bytes_moved: r.u64()? };
    let iterations = r.u64()? as usize;
    let mut pieces = Vec::new();
    for _ in 0..r.len()? {
        let name_len = r.len()?;
        let name = String::from_utf8_lossy(r.bytes(name_len)?).into_owned();
        let dtype = DType::ALL
            .iter()
            .copied()
            .find(|d| d.name() == name)
            .ok_or_else(|| RtError::new(format!("unknown element type '{name}' in a result")))?;
        let rank = r.len()?;
        let shape: Vec<usize> = (0..rank).map(|_| r.u64().map(|d| d as usize)).collect::<RtResult<_>>()?;
        let count = r.len()?;
        let data: Vec<f64> = (0..count).map(|_| r.f64()).collect::<RtResult<_>>()?;
        pieces.push(HostTensor::new(dtype, shape, data)?);
    }
    Ok(RankResult { times_s, stats, pieces, iterations })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_variables() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
        };
        assert_eq!(ProcessEnv::from_env(env(&[])).unwrap(), None);
        const TOKEN: (&str, &str) = ("FUSER_STORE_TOKEN", "0123456789abcdef0123");
        let e = ProcessEnv::from_env(env(&[("RANK", "1"), ("WORLD_SIZE", "2"), ("MASTER_PORT", "29500"), TOKEN]))
            .unwrap()
            .unwrap();
        assert_eq!((e.rank, e.world, e.local_rank, e.master.as_str()), (1, 2, 1, "127.0.0.1:29500"));
        assert_eq!(e.token, TOKEN.1);
        let no_token = ProcessEnv::from_env(env(&[("RANK", "1"), ("WORLD_SIZE", "2"), ("MASTER_PORT", "29500")]));
        assert!(no_token.unwrap_err().message.contains("FUSER_STORE_TOKEN"));
        const WEAK: &[(&str, &str)] =
            &[("RANK", "1"), ("WORLD_SIZE", "2"), ("MASTER_PORT", "1"), ("FUSER_STORE_TOKEN", "abc")];
        assert!(ProcessEnv::from_env(env(WEAK)).is_err());
        const MOVED: &[(&str, &str)] = &[
            ("RANK", "0"),
            ("WORLD_SIZE", "2"),
            ("MASTER_PORT", "29500"),
            ("FUSER_STORE_PORT", "29600"),
            ("FUSER_STORE_TOKEN", "0123456789abcdef0123"),
        ];
        assert_eq!(ProcessEnv::from_env(env(MOVED)).unwrap().unwrap().master, "127.0.0.1:29600");
        assert!(ProcessEnv::from_env(env(&[("RANK", "2"), ("WORLD_SIZE", "2"), ("MASTER_PORT", "1")])).is_err());
        assert!(ProcessEnv::from_env(env(&[("RANK", "0"), ("MASTER_PORT", "1")])).is_err());
    }

    #[test]
    fn the_gpu_of_a_process() {
        let env =
            |rank, local_rank| ProcessEnv { rank, world: 4, local_rank, master: String::new(), token: String::new() };
        let two = || Ok(2);
        assert_eq!(gpu_of_process(&env(3, 1), None, two).unwrap(), 1);
        assert_eq!(gpu_of_process(&env(3, 1), Some(&[0, 0, 1, 0]), two).unwrap(), 0, "--devices wins");
        assert!(gpu_of_process(&env(3, 1), Some(&[0, 0]), two).unwrap_err().message.contains("WORLD_SIZE is 4"));
        let err = gpu_of_process(&env(3, 3), None, two).unwrap_err().message;
        assert!(err.contains("LOCAL_RANK 3") && err.contains("--devices"), "{err}");
    }

    #[test]
    fn results_round_trip_and_errors_come_back_as_errors() {
        let r = RankResult {
            times_s: vec![0.5, 0.25],
            stats: RankStats { ops: 7, bytes_moved: 1024 },
            pieces: vec![HostTensor::new(DType::BF16, vec![2, 1], vec![1.5, -2.0]).unwrap()],
            iterations: 3,
        };
        let back = decode(&encode_result(&r)).unwrap();
        assert_eq!(back.times_s, r.times_s);
        assert_eq!((&back.stats, back.iterations), (&r.stats, 3));
        assert_eq!((back.pieces[0].dtype, back.pieces[0].shape.clone()), (DType::BF16, vec![2, 1]));
        assert_eq!(back.pieces[0].data, vec![1.5, -2.0]);
        assert_eq!(decode(&encode_error(&RtError::new("boom"))).unwrap_err().message, "boom");
        assert!(decode(&encode_result(&r)[..10]).is_err());
    }
}
