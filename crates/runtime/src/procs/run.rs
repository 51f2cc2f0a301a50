//! One rank of a multi-process run on the cpu backend (`fuser-run --launch --backend cpu`, or
//! any launcher that sets RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT and FUSER_STORE_TOKEN).
//!
//! Rank 0 serves the store at MASTER_ADDR:MASTER_PORT and starts the hub on a free port of
//! the same address, published in the store; every rank connects to the hub and waits until
//! all joined (at most `--timeout`), runs its rank over a [`CpuBackend`] whose communicator
//! posts to the hub, and sends its result (or error) to the hub; rank 0 gathers them and
//! returns the outcome (the others `None`).
//!
//! Every rank joins with its [`Fingerprint`] (the program after lowering, the seed, the
//! options; the input's text and the pipeline to explain a difference): ranks started
//! differently fail before running, with a message naming them.

use super::fault::Fault;
use super::fingerprint::Fingerprint;
use super::hub::{Hub, HubConfig};
use super::link::Link;
use crate::cpu::backend::CpuBackend;
use crate::cpu::comm::Communicator;
use crate::driver::{Failure, RankResult, RunConfig, RunIo, RunOutcome, run_ranks};
use crate::error::{RtError, RtResult};
use crate::exec::Program;
use crate::process::{ProcessEnv, decode, encode_error, encode_result};
use crate::store::{Store, StoreConfig};
use crate::watchdog::Watchdog;
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId};
use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The store key of the hub's address.
const HUB_KEY: &str = "procs/hub";

/// How long rank 0 waits for the other ranks' results after it finished, at least.
const GATHER_AT_LEAST: Duration = Duration::from_secs(30);

/// How long rank 0's process, about to end with a failure, waits for the hub to hand the
/// abort to the other ranks (so that they fail with the cause rather than with "rank 0
/// exited").
pub(super) const LAST_WORDS: Duration = Duration::from_secs(1);

/// Runs this process's rank; rank 0 gets the outcome of all ranks. `about`: explanatory
/// parts of the rank's fingerprint, `(name, text)` (the input file's text, the pipeline).
#[allow(clippy::too_many_arguments)]
pub fn run_cpu_process(
    ctx: &Context,
    ir: &Ir,
    func: OpId,
    prog: &Program,
    cfg: &RunConfig,
    env: &ProcessEnv,
    fault: Option<Fault>,
    about: &[(&str, &str)],
) -> Result<Option<RunOutcome>, Failure> {
    check_config(cfg, env)?;
    // Every rank computes the same placements and inputs: a program they do not fit fails
    // every rank alike, before anybody joins.
    let io = RunIo::new(ctx, ir, func, cfg)?;
    if let Some(f) = fault {
        f.before_joining(env.rank);
    }
    let fingerprint = about
        .iter()
        .fold(Fingerprint::of_run(ctx, ir, func, &cfg.fingerprint_options(), env.world), |f, (name, text)| {
            f.explained_by(name, text)
        });
    let Joined { hub, link, watchdog } = join_run(cfg, env, fault, &fingerprint)?;
    let comm = Communicator::with_remote(env.world, watchdog, link.clone());
    let backend = CpuBackend::with_communicator(comm, cfg.trace);
    let mine = run_ranks(&backend, env.rank..env.rank + 1, prog, &io, cfg);
    let Some(hub) = hub else { return report_to_rank_0(&link, mine, cfg).map(|()| None) };
    let gathered = mine.map_err(|f| with_hub_picture(f, &hub)).and_then(|mut all| {
        let others = hub.gather(Instant::now() + cfg.timeout.max(GATHER_AT_LEAST))?;
        for (r, bytes) in (1..env.world).zip(others) {
            all.push(decode(&bytes).map_err(|e| e.on_rank(r))?);
        }
        Ok(all)
    });
    link.goodbye();
    let outcome = gathered.and_then(|all| io.assemble(all, cfg, backend.trace_events()));
    if let Err(f) = &outcome {
        // The other ranks learn of it before this process (and its hub) ends.
        hub.abort_all(f.error.clone(), Some(0));
        hub.flush(Instant::now() + LAST_WORDS.min(cfg.timeout));
    }
    outcome.map(Some)
}

/// A rank that joined the run: rank 0's hub (rank 0 only), its link, its watchdog.
pub(super) struct Joined {
    pub(super) hub: Option<Arc<Hub>>,
    pub(super) link: Arc<Link>,
    pub(super) watchdog: Arc<Watchdog>,
}

/// Meets the other ranks: rank 0 serves the store and starts the hub, every rank connects
/// to the hub and waits until all joined (`--timeout` from now). Rank 0 gets the hub.
/// (Also the join of a [`super::rank::ProcessRank`], which runs any number of programs.)
pub(super) fn join_run(
    cfg: &RunConfig,
    env: &ProcessEnv,
    fault: Option<Fault>,
    fingerprint: &Fingerprint,
) -> Result<Joined, Failure> {
    let joined = Instant::now() + cfg.timeout;
    let log: crate::store::server::Log = Arc::new(|line| eprintln!("fuser-run: rank 0 {line}"));
    let store = Store::connect(&StoreConfig {
        addr: env.master.clone(),
        rank: env.rank,
        world: env.world,
        token: env.token.clone(),
        timeout: cfg.timeout,
        log: log.clone(),
    })
    .map_err(|e| e.on_rank(env.rank))?;
    let hub = if env.rank == 0 {
        let hub_cfg = HubConfig {
            world: env.world,
            token: env.token.clone(),
            timeout: cfg.timeout,
            admission: crate::store::gate::Admission::for_world(env.world),
            log,
        };
        let (hub, addr) = Hub::start(hub_bind(&env.master)?, hub_cfg)?;
        store.set(HUB_KEY, addr.to_string().as_bytes())?;
        Some(hub)
    } else {
        None
    };
    let addr = hub_addr(&store.get(HUB_KEY).map_err(|e| e.on_rank(env.rank))?)?;
    let watchdog = Watchdog::new(cfg.timeout);
    let link = Link::connect(addr, &env.token, (env.rank, fingerprint), watchdog.clone(), joined, fault)?;
    if let Err(e) = link.wait_start(joined) {
        let Some(hub) = &hub else { return Err(e.into()) };
        let error = match (hub.refused(), hub.missing()) {
            (Some(refused), _) => refused,
            (None, missing) if missing.is_empty() => e,
            (None, missing) => RtError::new(format!(
                "{} never joined the run within {:?}",
                crate::cpu::comm::ranks_phrase(&missing),
                cfg.timeout
            )),
        };
        // The ranks that joined stop waiting at once, with the cause.
        hub.abort_all(error.clone(), Some(0));
        hub.flush(Instant::now() + LAST_WORDS.min(cfg.timeout));
        return Err(error.into());
    }
    Ok(Joined { hub, link, watchdog })
}

/// A rank other than 0 hands its result (or error) to rank 0 and leaves the run, once the
/// hub took them (at most `--timeout`: a write that stalls that long fails sooner).
fn report_to_rank_0(link: &Link, mine: Result<Vec<RankResult>, Failure>, cfg: &RunConfig) -> Result<(), Failure> {
    let sent = link.send_result(match &mine {
        Ok(r) => encode_result(&r[0]),
        Err(f) => encode_error(&f.error),
    });
    // The result must reach the hub; the goodbye after it need not: once rank 0 has every
    // result it may finish and close the hub before this goodbye is written (a broken pipe
    // then is no failure of the run).
    let delivered = link.flush(Instant::now() + cfg.timeout);
    link.goodbye();
    let _ = link.flush(Instant::now() + LAST_WORDS.min(cfg.timeout));
    mine?;
    sent?;
    Ok(delivered?)
}

/// A deadlock report of rank 0 sees its own waits only: add what every rank posted and is
/// still unmatched at the hub (the other processes' side of the picture).
fn with_hub_picture(mut f: Failure, hub: &Hub) -> Failure {
    let unmatched = hub.unmatched();
    if f.error.message.contains("deadlock or timeout") && !unmatched.is_empty() {
        f.error.message += &format!("; unmatched at rank 0's hub: {}", unmatched.join("; "));
    }
    f
}

/// What a multi-process cpu run cannot do.
fn check_config(cfg: &RunConfig, env: &ProcessEnv) -> RtResult<()> {
    if cfg.ranks != env.world {
        return Err(RtError::new(format!("--ranks {} but WORLD_SIZE is {}", cfg.ranks, env.world)));
    }
    if cfg.check_races {
        return Err(RtError::new(
            "--check-races needs the ranks in one process (the race checker's clocks do not cross processes): \
run without --launch",
        ));
    }
    Ok(())
}

/// Where rank 0's hub listens: MASTER_ADDR, any free port.
fn hub_bind(master: &str) -> RtResult<SocketAddr> {
    let host = master.rsplit_once(':').map_or(master, |(h, _)| h);
    (host, 0)
        .to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
        .ok_or_else(|| RtError::new(format!("no address for MASTER_ADDR {host}")))
}

fn hub_addr(bytes: &[u8]) -> RtResult<SocketAddr> {
    std::str::from_utf8(bytes)
        .ok()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| RtError::new("the store holds no valid hub address"))
}
