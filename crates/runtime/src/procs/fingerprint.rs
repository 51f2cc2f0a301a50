//! What a rank of a multi-process run runs, in a few comparable parts: every rank presents
//! its fingerprint when it joins rank 0's hub, and the hub starts the run only when all
//! agree, so that ranks started with different programs, pipelines, seeds or options (which
//! may well communicate the same sizes and "succeed") fail before running, with a message
//! that names the ranks and what differs.
//!
//! Parts are *decisive* (they make the ranks' runs differ: the program after lowering, the
//! seed, the iteration counts, the world size, fuser's version) or *explanatory* (compared
//! only to say more when a decisive part differs: the input file's text and the pass
//! pipeline, which may differ harmlessly, e.g. by a comment). Values that are short (a seed)
//! are shown in the message; texts are compared by a 64-bit FNV-1a hash.

use super::frame::{Decoder, Encoder, malformed};
use crate::error::{RtError, RtResult};
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId};

/// The largest fingerprint a hub accepts (bytes of its frame).
pub const MAX_FINGERPRINT: usize = 1 << 16;

/// One part of a fingerprint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub name: String,
    pub value: String,
    /// A difference fails the run (else it only explains one).
    pub decisive: bool,
    /// The value is worth showing (a number), not a hash.
    pub shown: bool,
}

/// What a rank runs (see the module doc). The empty fingerprint (tests) matches itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fingerprint {
    pub parts: Vec<Part>,
}

/// 64-bit FNV-1a of `bytes`: stable across processes, builds and machines.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3))
}

/// A `Write` that hashes what is written to it.
struct Hasher(u64);

impl std::io::Write for Hasher {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 = buf.iter().fold(self.0, |h, &b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3));
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Fingerprint {
    /// The decisive parts of a run of `func` (lowered, in `ir`) with the run's `options`
    /// (`RunConfig::fingerprint_options`: seed, iteration counts, graph, GEMM library) on
    /// `world` ranks: the program's module printed without locations (so the same program from
    /// files that differ in comments or layout matches), the options, the world size and
    /// fuser's version.
    pub fn of_run(ctx: &Context, ir: &Ir, func: OpId, options: &[(&str, String)], world: usize) -> Fingerprint {
        let mut top = func;
        while let Some(parent) = ir.parent_op(top) {
            top = parent;
        }
        let mut h = Hasher(fnv1a(&[]));
        let printed = fuser_ir::printer::print_module_to(ctx, ir, top, &Default::default(), &mut h);
        let program = match printed {
            Ok(()) => format!("{:016x}", h.0),
            Err(e) => format!("unprintable: {e}"),
        };
        let mut f = Fingerprint::default();
        f.push("program after lowering", program, true, false);
        for (name, value) in options {
            f.push(name, value.clone(), true, true);
        }
        f.push("world size", world.to_string(), true, true);
        f.push("fuser version", env!("CARGO_PKG_VERSION").to_string(), true, true);
        f
    }

    /// The decisive parts of a long-lived rank ([`super::rank::ProcessRank`], fuser.torch's
    /// cpu ranks), which joins before it knows the programs it will run: what it is (`kind`),
    /// the world size and fuser's version. (Its programs are not compared: ranks that run
    /// different ones fail at their first mismatched communication, as in one process.)
    pub fn of_session(kind: &str, world: usize) -> Fingerprint {
        let mut f = Fingerprint::default();
        f.push("kind of rank", kind.to_string(), true, true);
        f.push("world size", world.to_string(), true, true);
        f.push("fuser version", env!("CARGO_PKG_VERSION").to_string(), true, true);
        f
    }

    /// Adds an explanatory part: the hash of `text` under `name` (e.g. `input file text`).
    pub fn explained_by(mut self, name: &str, text: &str) -> Fingerprint {
        self.push(name, format!("{:016x}", fnv1a(text.as_bytes())), false, false);
        self
    }

    fn push(&mut self, name: &str, value: String, decisive: bool, shown: bool) {
        self.parts.push(Part { name: name.to_string(), value, decisive, shown });
    }

    fn get(&self, name: &str) -> Option<&Part> {
        self.parts.iter().find(|p| p.name == name)
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut e = Encoder::default();
        e.usize(self.parts.len());
        for p in &self.parts {
            e.str(&p.name).str(&p.value).u8(p.decisive as u8 | (p.shown as u8) << 1);
        }
        e.0
    }

    pub fn decode(frame: &[u8]) -> RtResult<Fingerprint> {
        let mut d = Decoder(frame);
        let n = d.usize()?;
        // Each part takes at least 17 bytes.
        if n.saturating_mul(17) > frame.len() {
            return Err(malformed("a fingerprint with more parts than bytes"));
        }
        let parts = (0..n)
            .map(|_| {
                let (name, value, flags) = (d.str()?, d.str()?, d.u8()?);
                Ok(Part { name, value, decisive: flags & 1 != 0, shown: flags & 2 != 0 })
            })
            .collect::<RtResult<Vec<_>>>()?;
        d.end()?;
        Ok(Fingerprint { parts })
    }

    /// How `self` (rank `me`'s) differs from `reference` (rank `of`'s) in decisive parts, in
    /// words with the explanatory parts that differ too; `None` when no decisive part does.
    fn differences(&self, me: usize, reference: &Fingerprint, of: usize) -> Option<String> {
        let names: Vec<&str> = {
            let mut v: Vec<&str> = reference.parts.iter().chain(&self.parts).map(|p| p.name.as_str()).collect();
            let mut seen = Vec::new();
            v.retain(|n| {
                !seen.contains(n) && {
                    seen.push(*n);
                    true
                }
            });
            v
        };
        let mut decisive = Vec::new();
        let mut explanatory = Vec::new();
        for name in names {
            let (a, b) = (self.get(name), reference.get(name));
            if a.map(|p| &p.value) == b.map(|p| &p.value) {
                continue;
            }
            let part = a.or(b).expect("a name of one of the two");
            let shown = part.shown;
            let words = if shown {
                let value = |p: Option<&Part>| p.map_or_else(|| "none".to_string(), |p| p.value.clone());
                format!("{} ({} on rank {me}, {} on rank {of})", name, value(a), value(b))
            } else {
                name.to_string()
            };
            if a.is_some_and(|p| p.decisive) || b.is_some_and(|p| p.decisive) {
                decisive.push(words);
            } else {
                explanatory.push(words);
            }
        }
        if decisive.is_empty() {
            return None;
        }
        let mut s = format!("rank {me} differs from rank {of} in the {}", decisive.join(", the "));
        if !explanatory.is_empty() {
            s += &format!(" (its {} differ(s) too)", explanatory.join(" and "));
        }
        Some(s)
    }
}

/// Compares the ranks' fingerprints through the run's store, for processes that meet in
/// NCCL rather than in a hub (the cuda backend's): every rank publishes its own under
/// `fingerprint/RANK` and reads everybody's (each read waits as long as the store's
/// timeout), so every rank fails alike, naming the ranks that differ.
pub fn check_through_store(store: &crate::store::Store, rank: usize, world: usize, mine: &Fingerprint) -> RtResult<()> {
    store.set(&format!("fingerprint/{rank}"), &mine.encode())?;
    let all = (0..world)
        .map(|r| match r == rank {
            true => Ok(mine.clone()),
            false => Fingerprint::decode(&store.get(&format!("fingerprint/{r}"))?).map_err(|e| e.on_rank(r)),
        })
        .collect::<RtResult<Vec<_>>>()?;
    let ranks: Vec<(usize, &Fingerprint)> = all.iter().enumerate().collect();
    let Some(e) = compare(&ranks) else { return Ok(()) };
    // Rank 0's process serves the store: it ends only when every rank read what it needs.
    store.set(&format!("fingerprints-read/{rank}"), b"")?;
    if rank == 0 {
        for r in 1..world {
            store.get(&format!("fingerprints-read/{r}"))?;
        }
    }
    Err(e)
}

/// The error of ranks whose fingerprints differ from the lowest rank's, or `None` when all
/// agree. `ranks`: each rank with its fingerprint.
pub fn compare(ranks: &[(usize, &Fingerprint)]) -> Option<RtError> {
    let (&(first, reference), rest) = ranks.split_first()?;
    let diffs: Vec<String> = rest.iter().filter_map(|&(r, f)| f.differences(r, reference, first)).collect();
    if diffs.is_empty() {
        return None;
    }
    Some(RtError::new(format!(
        "the ranks were not started alike: {}; start every rank with the same program, pass pipeline and options",
        diffs.join("; ")
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fp(seed: &str, program: &str, input: &str) -> Fingerprint {
        let mut f = Fingerprint::default();
        f.push("program after lowering", program.into(), true, false);
        f.push("seed", seed.into(), true, true);
        f.explained_by("input file text", input)
    }

    #[test]
    fn fingerprints_round_trip_and_refuse_garbage() {
        let f = fp("3", "abc", "text");
        assert_eq!(Fingerprint::decode(&f.encode()).unwrap(), f);
        assert!(Fingerprint::decode(&[0xff; 8]).is_err());
        let mut long = f.encode();
        long.push(1);
        assert!(Fingerprint::decode(&long).is_err());
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    /// The cuda backend's processes compare fingerprints through the store: every rank
    /// hears which rank differs.
    #[test]
    fn ranks_compare_fingerprints_through_the_store() {
        use crate::store::{Store, StoreConfig};
        use std::time::Duration;
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let cfg = |rank| StoreConfig {
            addr: format!("127.0.0.1:{port}"),
            rank,
            world: 3,
            token: "0123456789abcdef-fingerprints".into(),
            timeout: Duration::from_secs(5),
            log: std::sync::Arc::new(|_| {}),
        };
        let stores: Vec<Store> = (0..3).map(|r| Store::connect(&cfg(r)).unwrap()).collect();
        let (same, other) = (fp("0", "p", "t"), fp("0", "q", "t"));
        let outcomes: Vec<RtResult<()>> = std::thread::scope(|s| {
            let handles: Vec<_> = stores
                .iter()
                .enumerate()
                .map(|(r, store)| {
                    let f = if r == 1 { &other } else { &same };
                    s.spawn(move || check_through_store(store, r, 3, f))
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for o in outcomes {
            let e = o.unwrap_err().message;
            assert!(e.contains("rank 1 differs from rank 0 in the program after lowering"), "{e}");
        }
    }

    #[test]
    fn differences_name_the_ranks_and_what_differs() {
        let same = fp("0", "p", "t");
        let comment = fp("0", "p", "t // a comment");
        assert!(compare(&[(0, &same), (1, &same), (2, &comment)]).is_none(), "explanatory parts alone pass");
        let other = fp("0", "q", "t2");
        let seeded = fp("5", "p", "t");
        let e = compare(&[(0, &same), (1, &seeded), (2, &same), (3, &other)]).unwrap().message;
        assert!(
            e.contains("rank 3 differs from rank 0 in the program after lowering (its input file text differ(s) too)"),
            "{e}"
        );
        assert!(e.contains("rank 1 differs from rank 0 in the seed (5 on rank 1, 0 on rank 0)"), "{e}");
        assert!(!e.contains("rank 2"), "{e}");
    }
}
