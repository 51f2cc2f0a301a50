//! The deadlock simulation of `comm-verify`: all ranks' streams run together on the matched
//! traces, each stream executing its entries in order, until every stream drained (no
//! deadlock) or no stream and no host can move (a deadlock, with who waits for whom).
//!
//! Model (per entry at the head of a stream, once the host posted it):
//! - a collective, an NCCL send/recv and a `comm.group` pass once every partner entry
//!   ([`Links`]) has been *reached* (is at the head of its stream or passed it);
//! - CUDA IPC `get`: the send passes at once (a signal) and completes once the matching recv
//!   passed; the recv passes once the send was reached. `put` is the mirror image;
//! - `comm.wait` passes once each request completed (its entry passed, and for a signal its
//!   counterpart passed too); `host.stream_wait` once the other stream passed the position it
//!   had when the wait was posted;
//! - host side: `host.synchronize` holds later posts of the rank until the stream passed its
//!   position; `comm.share_handles` holds them until every peer's host reached the matching
//!   exchange.
//!
//! Invariant: progress is monotone (pointers only advance), so the simulation ends after at
//! most (number of entries + 1) rounds.

use super::matching::{EntryRef, Links};
use super::trace::{Blocking, Entry, Event, RankTrace, StreamId};
use std::collections::BTreeMap;

/// Why one stream (or the host, `stream == None`) of a rank cannot move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Blocked {
    pub rank: usize,
    pub stream: Option<StreamId>,
    /// The entry it is stuck at.
    pub entry: usize,
    /// What it waits for, in words.
    pub waits_for: String,
}

/// A deadlock: everything that is stuck, rank by rank.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Deadlock {
    pub blocked: Vec<Blocked>,
}

/// The state of one rank.
struct RankState<'a> {
    entries: &'a [Entry],
    /// Entries below this index were processed by the host (posted, or host-side and done).
    host: usize,
    /// Per stream: its entries (indices into `entries`) and how many it passed.
    streams: BTreeMap<StreamId, (Vec<usize>, usize)>,
    /// Position of each stream entry in its stream.
    position: Vec<usize>,
}

impl<'a> RankState<'a> {
    fn new(trace: &'a RankTrace) -> Self {
        let mut streams: BTreeMap<StreamId, (Vec<usize>, usize)> = BTreeMap::new();
        let mut position = vec![0; trace.entries.len()];
        for (e, entry) in trace.entries.iter().enumerate() {
            if let Some(s) = entry.stream {
                let list = &mut streams.entry(s).or_default().0;
                position[e] = list.len();
                list.push(e);
            }
        }
        RankState { entries: &trace.entries, host: 0, streams, position }
    }

    fn passed_on(&self, s: StreamId) -> usize {
        self.streams.get(&s).map_or(0, |x| x.1)
    }

    fn reached(&self, e: usize) -> bool {
        match self.entries[e].stream {
            Some(s) => e < self.host && self.passed_on(s) >= self.position[e],
            None => self.host >= e,
        }
    }

    fn passed(&self, e: usize) -> bool {
        match self.entries[e].stream {
            Some(s) => e < self.host && self.passed_on(s) > self.position[e],
            None => self.host > e,
        }
    }

    fn finished(&self) -> bool {
        self.host == self.entries.len() && self.streams.values().all(|(l, p)| *p == l.len())
    }
}

struct Sim<'a> {
    ranks: Vec<RankState<'a>>,
    links: &'a Links,
}

/// Runs the traces (one per rank) against their links.
pub fn simulate(traces: &[RankTrace], links: &Links) -> Result<(), Deadlock> {
    let mut sim = Sim { ranks: traces.iter().map(RankState::new).collect(), links };
    while sim.step() {}
    if sim.ranks.iter().all(RankState::finished) { Ok(()) } else { Err(sim.deadlock()) }
}

impl Sim<'_> {
    fn reached(&self, (r, e): EntryRef) -> bool {
        self.ranks.get(r).is_some_and(|s| e < s.entries.len() && s.reached(e))
    }
    fn passed(&self, (r, e): EntryRef) -> bool {
        self.ranks.get(r).is_some_and(|s| e < s.entries.len() && s.passed(e))
    }

    /// Advances every host and stream as far as possible; returns whether anything moved.
    fn step(&mut self) -> bool {
        let mut moved = false;
        for r in 0..self.ranks.len() {
            while self.ranks[r].host < self.ranks[r].entries.len() && self.host_may_pass(r, self.ranks[r].host) {
                self.ranks[r].host += 1;
                moved = true;
            }
            let streams: Vec<StreamId> = self.ranks[r].streams.keys().copied().collect();
            for s in streams {
                loop {
                    let (list, passed) = &self.ranks[r].streams[&s];
                    let Some(&e) = list.get(*passed) else { break };
                    if e >= self.ranks[r].host || !self.stream_may_pass(r, e) {
                        break;
                    }
                    if let Some(x) = self.ranks[r].streams.get_mut(&s) {
                        x.1 += 1;
                    }
                    moved = true;
                }
            }
        }
        moved
    }

    fn partners(&self, r: usize, e: usize, m: usize) -> &[EntryRef] {
        self.links.of(r, e, m)
    }

    fn host_may_pass(&self, r: usize, e: usize) -> bool {
        let entry = &self.ranks[r].entries[e];
        match &entry.event {
            _ if entry.stream.is_some() => true,
            Event::Synchronize { stream, position } => self.ranks[r].passed_on(*stream) >= *position,
            Event::ShareHandles(_) => self.partners(r, e, 0).iter().all(|&p| self.reached(p)),
            _ => true,
        }
    }

    fn stream_may_pass(&self, r: usize, e: usize) -> bool {
        let entry = &self.ranks[r].entries[e];
        match &entry.event {
            Event::Post(p) => {
                p.blocking() == Blocking::Signal || self.partners(r, e, 0).iter().all(|&x| self.reached(x))
            }
            Event::Group(ps) => (0..ps.len()).all(|m| self.partners(r, e, m).iter().all(|&x| self.reached(x))),
            Event::Wait(reqs) => reqs.iter().all(|&q| self.completed(r, q)),
            Event::StreamWait { other, position } => self.ranks[r].passed_on(*other) >= *position,
            Event::Synchronize { .. } | Event::ShareHandles(_) => true,
        }
    }

    /// Whether the request completed by entry `q` of rank `r` is complete.
    fn completed(&self, r: usize, q: usize) -> bool {
        if !self.passed((r, q)) {
            return false;
        }
        match &self.ranks[r].entries[q].event {
            Event::Post(p) if p.blocking() == Blocking::Signal => {
                self.partners(r, q, 0).iter().all(|&x| self.passed(x))
            }
            _ => true,
        }
    }

    // ----- reporting -------------------------------------------------------------------------

    fn deadlock(&self) -> Deadlock {
        let mut blocked = Vec::new();
        for (r, st) in self.ranks.iter().enumerate() {
            if st.host < st.entries.len() && st.entries[st.host].stream.is_none() {
                let e = st.host;
                blocked.push(Blocked { rank: r, stream: None, entry: e, waits_for: self.host_waits_for(r, e) });
            }
            for (&s, (list, passed)) in &st.streams {
                let Some(&e) = list.get(*passed) else { continue };
                if e >= st.host {
                    continue;
                }
                blocked.push(Blocked { rank: r, stream: Some(s), entry: e, waits_for: self.stream_waits_for(r, e) });
            }
        }
        Deadlock { blocked }
    }

    fn describe_entry(&self, (r, e): EntryRef) -> String {
        let entry = &self.ranks[r].entries[e];
        format!("{}{}", entry.describe(), entry.site.iter_suffix())
    }

    fn unreached(&self, r: usize, e: usize, m: usize) -> Vec<String> {
        self.partners(r, e, m)
            .iter()
            .filter(|&&x| !self.reached(x))
            .map(|&x| format!("rank {} to reach {}", x.0, self.describe_entry(x)))
            .collect()
    }

    fn host_waits_for(&self, r: usize, e: usize) -> String {
        match &self.ranks[r].entries[e].event {
            Event::Synchronize { stream, .. } => format!("the host waits for stream {stream} to drain"),
            Event::ShareHandles(_) => format!("the host waits for {}", self.unreached(r, e, 0).join(", ")),
            _ => "the host is blocked".into(),
        }
    }

    fn stream_waits_for(&self, r: usize, e: usize) -> String {
        let entry = &self.ranks[r].entries[e];
        match &entry.event {
            Event::Post(_) => format!("waits for {}", self.unreached(r, e, 0).join(", ")),
            Event::Group(ps) => {
                let all: Vec<String> = (0..ps.len()).flat_map(|m| self.unreached(r, e, m)).collect();
                format!("waits for {}", all.join(", "))
            }
            Event::Wait(reqs) => {
                let open: Vec<String> =
                    reqs.iter().filter(|&&q| !self.completed(r, q)).map(|&q| self.describe_entry((r, q))).collect();
                format!("waits for the completion of {}", open.join(", "))
            }
            Event::StreamWait { other, position } => format!(
                "waits for stream {other} to pass {position} entries (it passed {})",
                self.ranks[r].passed_on(*other)
            ),
            Event::Synchronize { .. } | Event::ShareHandles(_) => "is blocked".into(),
        }
    }
}
