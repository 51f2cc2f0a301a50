//! Traces of the cuda backend: every kernel and communication of a rank is bracketed by two
//! timing events on its stream; when the rank finishes a run (all its streams synchronized) the
//! pairs are turned into [`TraceEvent`]s in microseconds since the backend started, through a
//! per-GPU epoch event recorded at a known host time. Tracks are one per rank and stream, as
//! with the cpu backend; times are GPU execution times, so overlap between streams shows.

use super::api::{Event, RawStream};
use crate::error::{OpKey, RtResult};
use crate::trace::TraceEvent;
use crate::watchdog::lock;
use std::sync::{Arc, Mutex};
use std::time::Instant;

struct Pending {
    stream: usize,
    name: &'static str,
    loc: Option<String>,
    start: Arc<Event>,
    end: Arc<Event>,
}

struct Epoch {
    event: Arc<Event>,
    /// Microseconds from the backend's start to `event`.
    at_us: f64,
}

/// The trace of one rank.
#[derive(Default)]
pub struct RankTracer {
    epoch: Mutex<Option<Epoch>>,
    pending: Mutex<Vec<Pending>>,
    done: Mutex<Vec<TraceEvent>>,
}

impl RankTracer {
    /// Records the rank's epoch on `stream` (idle: called right after a synchronization).
    pub fn start(&self, stream: RawStream, origin: Instant) -> RtResult<()> {
        let mut e = lock(&self.epoch);
        if e.is_none() {
            let event = Event::record_timed(stream)?;
            super::api::sync_stream(stream)?;
            *e = Some(Epoch { event, at_us: origin.elapsed().as_secs_f64() * 1e6 });
        }
        Ok(())
    }

    /// The opening event of an op on `stream`.
    pub fn open(&self, stream: RawStream) -> RtResult<Arc<Event>> {
        Event::record_timed(stream)
    }

    /// The closing event of an op opened with `start`.
    pub fn close(&self, stream: (usize, RawStream), name: &'static str, at: &OpKey, start: Arc<Event>) -> RtResult<()> {
        let end = Event::record_timed(stream.1)?;
        let loc = at.loc.as_ref().map(|l| l.to_string());
        lock(&self.pending).push(Pending { stream: stream.0, name, loc, start, end });
        Ok(())
    }

    /// Turns the completed pairs into events (call after the rank's streams synchronized).
    pub fn resolve(&self, rank: usize) -> RtResult<()> {
        let epoch = lock(&self.epoch);
        let Some(epoch) = epoch.as_ref() else { return Ok(()) };
        let pending = std::mem::take(&mut *lock(&self.pending));
        let mut done = lock(&self.done);
        for p in pending {
            let start_ms = Event::elapsed_ms(&epoch.event, &p.start)? as f64;
            let dur_ms = Event::elapsed_ms(&p.start, &p.end)? as f64;
            done.push(TraceEvent {
                rank,
                stream: p.stream,
                name: p.name.to_string(),
                start_us: epoch.at_us + start_ms * 1e3,
                dur_us: dur_ms * 1e3,
                loc: p.loc,
            });
        }
        Ok(())
    }

    pub fn events(&self) -> Vec<TraceEvent> {
        lock(&self.done).clone()
    }
}
