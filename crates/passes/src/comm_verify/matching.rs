//! Matching of the posts of all ranks: point-to-point (the k-th send r→p matches the k-th recv
//! on p from r), collectives (every member of a team enters the same collectives of that team
//! in the same order, with agreeing kind, reduction, root, backend, sizes and buffer regions)
//! and handle
//! exchanges. The result is the [`Links`] the deadlock simulation follows, plus a diagnostic
//! for every mismatch.
//!
//! Invariants: a post is linked only to posts it matches; when a team's sequences diverge, the
//! rest of that team's collectives is left unlinked (alignment is lost) and one error says
//! where they diverged.

use super::report::Reporter;
use super::trace::{CommKind, CommPost, Event, RankTrace, Site, ViewKey, describe_post, ranks_str};
use fuser_ir::context::Context;
use fuser_ir::diag::Diagnostic;
use std::collections::BTreeMap;

/// An entry of a rank's trace: `(rank, entry index)`.
pub type EntryRef = (usize, usize);

/// A post: `(rank, entry index, member index within the entry)`.
type PostRef = (usize, usize, usize);

/// For every rank, entry and member (post of the entry; member 0 for a handle exchange), the
/// entries of other ranks it must meet.
#[derive(Clone, Default, Debug, PartialEq)]
pub struct Links {
    pub partners: Vec<Vec<Vec<Vec<EntryRef>>>>,
}

impl Links {
    fn empty(traces: &[RankTrace]) -> Links {
        let partners = traces
            .iter()
            .map(|t| t.entries.iter().map(|e| vec![Vec::new(); e.posts().len().max(1)]).collect())
            .collect();
        Links { partners }
    }
    /// The partners of member `m` of entry `e` of rank `r`.
    pub fn of(&self, r: usize, e: usize, m: usize) -> &[EntryRef] {
        self.partners.get(r).and_then(|t| t.get(e)).and_then(|x| x.get(m)).map_or(&[], Vec::as_slice)
    }
    fn link(&mut self, (r, e, m): PostRef, to: EntryRef) {
        self.partners[r][e][m].push(to);
    }
}

/// Matches the posts of `traces` (one per rank, rank = index); mismatches go to `out`.
pub fn match_all(ctx: &Context, traces: &[RankTrace], out: &mut Reporter) -> Links {
    let mut links = Links::empty(traces);
    let m = Matcher { ctx, traces, world: traces.len() as i64 };
    m.match_p2p(&mut links, out);
    m.match_collectives(&mut links, out);
    m.match_handle_exchanges(&mut links, out);
    links
}

struct Matcher<'a> {
    ctx: &'a Context,
    traces: &'a [RankTrace],
    world: i64,
}

fn err(site: &Site, msg: String) -> Diagnostic {
    Diagnostic::error(site.loc, format!("comm-verify: {msg}"))
}

/// `16 x f32`, `? x f32`.
fn buf_str(ctx: &Context, b: Option<super::trace::BufInfo>) -> String {
    match b {
        None => "no buffer".into(),
        Some(b) => {
            let n = b.count.map_or("?".to_string(), |c| c.to_string());
            format!("{n} x {}", fuser_dialects::type_str(ctx, b.elem))
        }
    }
}

/// Whether two optional counts may be equal (unknown counts match anything).
fn counts_agree(a: Option<i64>, b: Option<i64>) -> bool {
    a.is_none() || b.is_none() || a == b
}

impl Matcher<'_> {
    fn post(&self, (r, e, m): PostRef) -> &CommPost {
        &self.traces[r].entries[e].posts()[m]
    }

    fn posts_where(&self, r: usize, keep: impl Fn(&CommPost) -> bool) -> Vec<PostRef> {
        let mut out = Vec::new();
        for (e, entry) in self.traces[r].entries.iter().enumerate() {
            for (m, p) in entry.posts().iter().enumerate() {
                if keep(p) {
                    out.push((r, e, m));
                }
            }
        }
        out
    }

    /// `None` when `peer` is a valid rank other than `me`, else why not.
    fn bad_peer(&self, me: usize, peer: i64) -> Option<String> {
        if peer < 0 || peer >= self.world {
            Some(format!("peer {peer} is outside the ranks 0..{}", self.world - 1))
        } else if peer == me as i64 {
            Some("its peer is the rank itself".into())
        } else {
            None
        }
    }

    // ----- point to point --------------------------------------------------------------------

    fn match_p2p(&self, links: &mut Links, out: &mut Reporter) {
        // (sender, receiver) -> (sends, recvs), in posting order.
        let mut pairs: BTreeMap<(usize, usize), (Vec<PostRef>, Vec<PostRef>)> = BTreeMap::new();
        for r in 0..self.traces.len() {
            for pr in self.posts_where(r, |p| p.kind.is_p2p()) {
                let p = self.post(pr);
                let peer = p.peer.unwrap_or(-1);
                if let Some(why) = self.bad_peer(r, peer) {
                    let msg = format!("rank {r} posts {}{}, but {why}", describe_post(p), p.site.iter_suffix());
                    out.report(p.site.op, "peer", err(&p.site, msg));
                    continue;
                }
                let q = peer as usize;
                match p.kind {
                    CommKind::Send => pairs.entry((r, q)).or_default().0.push(pr),
                    _ => pairs.entry((q, r)).or_default().1.push(pr),
                }
            }
        }
        for (&(s, t), (sends, recvs)) in &pairs {
            for (k, (&sp, &rp)) in sends.iter().zip(recvs).enumerate() {
                self.check_p2p_pair(k, sp, rp, out);
                links.link(sp, (rp.0, rp.1));
                links.link(rp, (sp.0, sp.1));
            }
            for (k, &sp) in sends.iter().enumerate().skip(recvs.len()) {
                let p = self.post(sp);
                let msg = format!(
                    "send #{k} from rank {s} to rank {t}{} has no matching recv: rank {t} posts {} recv(s) from rank {s}",
                    p.site.iter_suffix(),
                    recvs.len()
                );
                let d = self.with_peer_hint(err(&p.site, msg), t, CommKind::Recv, &p.site);
                out.report(p.site.op, "unmatched", d);
            }
            for (k, &rp) in recvs.iter().enumerate().skip(sends.len()) {
                let p = self.post(rp);
                let msg = format!(
                    "recv #{k} on rank {t} from rank {s}{} has no matching send: rank {s} posts {} send(s) to rank {t}",
                    p.site.iter_suffix(),
                    sends.len()
                );
                let d = self.with_peer_hint(err(&p.site, msg), s, CommKind::Send, &p.site);
                out.report(p.site.op, "unmatched", d);
            }
        }
    }

    /// Adds a note naming what `peer` posts of `kind` at the same loop indices as `site`
    /// (usually where a wrong peer formula sends the data instead).
    fn with_peer_hint(&self, mut d: Diagnostic, peer: usize, kind: CommKind, site: &Site) -> Diagnostic {
        let Some(trace) = self.traces.get(peer) else { return d };
        for entry in &trace.entries {
            for p in entry.posts().iter().filter(|p| p.kind == kind && p.site.iters == site.iters) {
                d = d.with_note(p.site.loc, format!("rank {peer} posts {}{}", describe_post(p), p.site.iter_suffix()));
            }
        }
        d
    }

    fn check_p2p_pair(&self, k: usize, sp: PostRef, rp: PostRef, out: &mut Reporter) {
        let (send, recv) = (self.post(sp), self.post(rp));
        let (sb, rb) = (send.p2p_buffer(), recv.p2p_buffer());
        let sizes_agree = match (sb, rb) {
            (Some(a), Some(b)) => a.elem == b.elem && counts_agree(a.count, b.count),
            _ => true,
        };
        let why = if !sizes_agree {
            Some(format!("sends {} but the matching recv expects {}", buf_str(self.ctx, sb), buf_str(self.ctx, rb)))
        } else if send.backend != recv.backend || send.protocol != recv.protocol {
            Some(format!(
                "uses backend {} (protocol {}) but the matching recv uses backend {} (protocol {})",
                send.backend.keyword(),
                send.protocol.map_or("none", |p| p.keyword()),
                recv.backend.keyword(),
                recv.protocol.map_or("none", |p| p.keyword()),
            ))
        } else {
            None
        };
        if let Some(why) = why {
            let msg = format!("send #{k} from rank {} to rank {}{} {why}", sp.0, rp.0, send.site.iter_suffix());
            let note = format!("the matching recv on rank {}{}", rp.0, recv.site.iter_suffix());
            out.report(send.site.op, "p2p-mismatch", err(&send.site, msg).with_note(recv.site.loc, note));
        }
    }

    // ----- collectives -----------------------------------------------------------------------

    fn match_collectives(&self, links: &mut Links, out: &mut Reporter) {
        // team -> per member (team order) its collectives of that team, in posting order.
        let mut teams: BTreeMap<Vec<i64>, Vec<Vec<PostRef>>> = BTreeMap::new();
        for r in 0..self.traces.len() {
            for pr in self.posts_where(r, |p| !p.kind.is_p2p()) {
                let p = self.post(pr);
                if let Some(why) = self.bad_team(r, &p.team) {
                    let msg = format!(
                        "rank {r} posts {}{} with team {:?}, but {why}",
                        p.kind.op_name(),
                        p.site.iter_suffix(),
                        p.team
                    );
                    out.report(p.site.op, "team", err(&p.site, msg));
                    continue;
                }
                let slot = teams.entry(p.team.clone()).or_insert_with(|| vec![Vec::new(); p.team.len()]);
                let pos = p.team.iter().position(|&x| x == r as i64).unwrap_or(0);
                slot[pos].push(pr);
            }
        }
        for (team, seqs) in &teams {
            self.match_team(team, seqs, links, out);
        }
    }

    fn bad_team(&self, me: usize, team: &[i64]) -> Option<String> {
        if let Some(&x) = team.iter().find(|&&x| x < 0 || x >= self.world) {
            return Some(format!("rank {x} is outside the ranks 0..{}", self.world - 1));
        }
        (!team.contains(&(me as i64))).then(|| format!("rank {me} is not in the team"))
    }

    fn match_team(&self, team: &[i64], seqs: &[Vec<PostRef>], links: &mut Links, out: &mut Reporter) {
        let longest = seqs.iter().map(Vec::len).max().unwrap_or(0);
        for k in 0..longest {
            let missing: Vec<i64> = (0..team.len()).filter(|&m| seqs[m].len() <= k).map(|m| team[m]).collect();
            if !missing.is_empty() {
                self.report_missing(team, seqs, k, &missing, out);
                return;
            }
            let posts: Vec<PostRef> = seqs.iter().map(|s| s[k]).collect();
            if let Some(why) = self.disagreement(team, &posts) {
                self.report_disagreement(team, k, &posts, &why, out);
                return;
            }
            for &a in &posts {
                for &b in &posts {
                    if a != b {
                        links.link(a, (b.0, b.1));
                    }
                }
            }
        }
    }

    /// Reports the ranks of `missing` (which post fewer collectives of `team` than the others)
    /// at the first collective where their sites part from those of the others.
    fn report_missing(&self, team: &[i64], seqs: &[Vec<PostRef>], k: usize, missing: &[i64], out: &mut Reporter) {
        let present: Vec<i64> = team.iter().copied().filter(|x| !missing.contains(x)).collect();
        let member = |rank: i64| team.iter().position(|&x| x == rank).unwrap_or(0);
        let witness = &seqs[member(present[0])];
        let same_site = |a: &CommPost, b: &CommPost| a.site == b.site;
        let diverge = (0..k)
            .find(|&j| missing.iter().any(|&r| !same_site(self.post(seqs[member(r)][j]), self.post(witness[j]))))
            .unwrap_or(k);
        let p = self.post(witness[diverge]);
        let (verb_missing, verb_present) =
            (if missing.len() == 1 { "posts" } else { "post" }, if present.len() == 1 { "posts" } else { "post" });
        let msg = format!(
            "{} never {verb_missing} the {} that {} {verb_present}{} (team {team:?})",
            ranks_str(missing),
            p.kind.op_name(),
            ranks_str(&present),
            p.site.iter_suffix()
        );
        let mut d = err(&p.site, msg);
        for &r in missing {
            let seq = &seqs[member(r)];
            let note = match seq.get(diverge) {
                Some(&q) => {
                    let q = self.post(q);
                    format!("rank {r} posts {} of this team{} instead", q.kind.op_name(), q.site.iter_suffix())
                }
                None => format!("rank {r} posts only {} collective(s) of this team", seq.len()),
            };
            let loc = seq.get(diverge).map_or(p.site.loc, |&q| self.post(q).site.loc);
            d = d.with_note(loc, note);
        }
        out.report(p.site.op, "collective", d);
    }

    fn report_disagreement(&self, team: &[i64], k: usize, posts: &[PostRef], why: &str, out: &mut Reporter) {
        let first = self.post(posts[0]);
        let msg = format!("collective #{k} of team {team:?}{}: {why}", first.site.iter_suffix());
        let mut d = err(&first.site, msg);
        for &pr in posts {
            let p = self.post(pr);
            d = d.with_note(p.site.loc, format!("rank {} posts {}{}", pr.0, self.summary(p), p.site.iter_suffix()));
        }
        out.report(first.site.op, "collective", d);
    }

    /// `comm.allreduce sum 16 x f32 -> 16 x f32 root 0`.
    fn summary(&self, p: &CommPost) -> String {
        let mut s = p.kind.op_name().to_string();
        if let Some(r) = p.reduction {
            s += &format!(" {}", r.keyword());
        }
        s += &format!(" {} -> {}", buf_str(self.ctx, p.input), buf_str(self.ctx, p.output));
        if let Some(r) = p.root {
            s += &format!(" root {r}");
        }
        if let (Some(a), Some(b)) = (p.send_to, p.recv_from) {
            s += &format!(" send_to {a} recv_from {b}");
        }
        s
    }

    /// Why the posts (one per member, in team order) of one collective disagree, if they do.
    fn disagreement(&self, team: &[i64], posts: &[PostRef]) -> Option<String> {
        let ps: Vec<&CommPost> = posts.iter().map(|&p| self.post(p)).collect();
        let first = ps[0];
        if ps.iter().any(|p| p.kind != first.kind) {
            return Some("the ranks post different collectives".into());
        }
        if ps.iter().any(|p| p.reduction != first.reduction) {
            return Some("the ranks use different reductions".into());
        }
        if ps.iter().any(|p| p.root != first.root) {
            return Some("the ranks name different roots".into());
        }
        if ps.iter().any(|p| p.backend != first.backend) {
            return Some("the ranks use different backends".into());
        }
        if let Some(root) = first.root
            && (root < 0 || root >= team.len() as i64)
        {
            return Some(format!("root {root} is not a position of the team (0..{})", team.len() - 1));
        }
        let elem = ps.iter().flat_map(|p| [p.input, p.output]).flatten().map(|b| b.elem).next();
        if ps.iter().flat_map(|p| [p.input, p.output]).flatten().any(|b| Some(b.elem) != elem) {
            return Some("the element types differ".into());
        }
        if let Some(why) = sizes_disagree(team.len() as i64, &ps) {
            return Some(why);
        }
        if let Some(why) = regions_disagree(team, &ps) {
            return Some(why);
        }
        if first.kind == CommKind::CollectivePermute {
            return permutation_disagrees(team, &ps);
        }
        None
    }

    // ----- handle exchanges ------------------------------------------------------------------

    fn match_handle_exchanges(&self, links: &mut Links, out: &mut Reporter) {
        // (a, b) with a < b -> (exchanges of a naming b, exchanges of b naming a).
        let mut pairs: BTreeMap<(usize, usize), (Vec<usize>, Vec<usize>)> = BTreeMap::new();
        for (r, t) in self.traces.iter().enumerate() {
            for (e, entry) in t.entries.iter().enumerate() {
                let Event::ShareHandles(x) = &entry.event else { continue };
                for &peer in &x.peers {
                    if let Some(why) = self.bad_peer(r, peer) {
                        let msg = format!("rank {r} exchanges handles{}, but {why}", entry.site.iter_suffix());
                        out.report(entry.site.op, "peer", err(&entry.site, msg));
                        continue;
                    }
                    let q = peer as usize;
                    let slot = pairs.entry((r.min(q), r.max(q))).or_default();
                    if r < q { slot.0.push(e) } else { slot.1.push(e) }
                }
            }
        }
        for (&(a, b), (ea, eb)) in &pairs {
            for (&x, &y) in ea.iter().zip(eb) {
                links.link((a, x, 0), (b, y));
                links.link((b, y, 0), (a, x));
            }
            let (extra_rank, peer, extra, short) =
                if ea.len() > eb.len() { (a, b, &ea[eb.len()..], eb.len()) } else { (b, a, &eb[ea.len()..], ea.len()) };
            for &e in extra {
                let site = &self.traces[extra_rank].entries[e].site;
                let msg = format!(
                    "rank {extra_rank} exchanges handles with rank {peer}{}, but rank {peer} takes part in only {short} exchange(s) with rank {extra_rank}",
                    site.iter_suffix()
                );
                out.report(site.op, "unmatched", err(site, msg));
            }
        }
    }
}

/// The size rule of each collective kind over the posts of one collective (`n` = team size).
fn sizes_disagree(n: i64, ps: &[&CommPost]) -> Option<String> {
    let ins: Vec<Option<i64>> = ps.iter().map(|p| p.input.and_then(|b| b.count)).collect();
    let outs: Vec<Option<i64>> = ps.iter().map(|p| p.output.and_then(|b| b.count)).collect();
    let all_equal = |xs: &[Option<i64>]| {
        let known: Vec<i64> = xs.iter().flatten().copied().collect();
        known.windows(2).all(|w| w[0] == w[1])
    };
    let per_rank = |f: &dyn Fn(i64, i64) -> bool| {
        ins.iter().zip(&outs).all(|(i, o)| match (i, o) {
            (Some(i), Some(o)) => f(*i, *o),
            _ => true,
        })
    };
    let root = ps[0].root.and_then(|r| usize::try_from(r).ok()).filter(|&r| r < ps.len());
    let at_root = |f: &dyn Fn(i64, i64) -> bool| match root.map(|r| (ins[r], outs[r])) {
        Some((Some(i), Some(o))) => f(i, o),
        _ => true,
    };
    let (rule, ok) = match ps[0].kind {
        CommKind::Allreduce => (
            "input and output hold the same number of elements on every rank",
            per_rank(&|i, o| i == o) && all_equal(&ins),
        ),
        CommKind::Allgather => {
            ("output = team size x input, equal on every rank", per_rank(&|i, o| o == i * n) && all_equal(&ins))
        }
        CommKind::ReduceScatter => {
            ("input = team size x output, equal on every rank", per_rank(&|i, o| i == o * n) && all_equal(&outs))
        }
        CommKind::Broadcast => (
            "every output and the root's input hold the same number of elements",
            all_equal(&outs) && at_root(&|i, o| i == o),
        ),
        CommKind::Reduce => (
            "every input and the root's output hold the same number of elements",
            all_equal(&ins) && at_root(&|i, o| i == o),
        ),
        CommKind::Gather => (
            "the root's output = team size x input, inputs equal on every rank",
            all_equal(&ins) && at_root(&|i, o| o == i * n),
        ),
        CommKind::Scatter => (
            "the root's input = team size x output, outputs equal on every rank",
            all_equal(&outs) && at_root(&|i, o| i == o * n),
        ),
        CommKind::AllToAll => (
            "input and output hold the same multiple of the team size on every rank",
            per_rank(&|i, o| i == o && i % n == 0) && all_equal(&ins),
        ),
        CommKind::CollectivePermute => (
            "input and output hold the same number of elements on every rank",
            per_rank(&|i, o| i == o) && all_equal(&ins),
        ),
        CommKind::Send | CommKind::Recv => ("", true),
    };
    (!ok).then(|| format!("the sizes break the rule of {}: {rule}", ps[0].kind.op_name()))
}

/// Why the members of one collective, posted by the same op, name different regions of its
/// buffers, if they do. A rank-generic program posts a collective on the same data everywhere:
/// every member writes the same region of the output, and the members of a reduction
/// (allreduce, reduce, reduce_scatter) also combine the same region of the input. A
/// difference can only come from view indices computed from the rank, as when a ring rotates
/// the chunk each rank works on: each rank would then reduce, or receive into, another chunk.
/// Inputs of the gathering collectives may differ (a rank may contribute its own part).
/// Posts from different ops (different branches) are not compared.
fn regions_disagree(team: &[i64], ps: &[&CommPost]) -> Option<String> {
    let first = ps[0];
    if ps.iter().any(|p| p.site.op != first.site.op) {
        return None;
    }
    let differing = |view: fn(&CommPost) -> Option<&ViewKey>| -> Option<(usize, usize)> {
        let a = view(first)?;
        ps.iter().position(|p| view(p).is_some_and(|b| b != a)).map(|m| (0, m))
    };
    let views = |v: &ViewKey| format!("[{}]", v.iter().map(i64::to_string).collect::<Vec<_>>().join(", "));
    let describe = |what: &str, view: fn(&CommPost) -> Option<&ViewKey>, (a, b): (usize, usize)| {
        format!(
            "the ranks {what}: rank {} uses view indices {}, rank {} uses {}",
            team[a],
            view(ps[a]).map_or("?".into(), views),
            team[b],
            view(ps[b]).map_or("?".into(), views)
        )
    };
    if let Some(pair) = differing(output_view) {
        return Some(describe("write different regions of the output", output_view, pair));
    }
    let reduces = matches!(first.kind, CommKind::Allreduce | CommKind::Reduce | CommKind::ReduceScatter);
    if reduces && let Some(pair) = differing(input_view) {
        return Some(describe("reduce different regions of the input", input_view, pair));
    }
    None
}

fn output_view(p: &CommPost) -> Option<&ViewKey> {
    p.output_view.as_ref()
}

fn input_view(p: &CommPost) -> Option<&ViewKey> {
    p.input_view.as_ref()
}

/// Whether the `send_to` / `recv_from` of a collective permute form a consistent exchange.
fn permutation_disagrees(team: &[i64], ps: &[&CommPost]) -> Option<String> {
    let member = |rank: i64| team.iter().position(|&x| x == rank);
    for (m, p) in ps.iter().enumerate() {
        let me = team[m];
        let (Some(to), Some(from)) = (p.send_to, p.recv_from) else { continue };
        let Some(tm) = member(to) else {
            return Some(format!("rank {me} sends to rank {to}, which is not in the team"));
        };
        let Some(_) = member(from) else {
            return Some(format!("rank {me} receives from rank {from}, which is not in the team"));
        };
        if ps[tm].recv_from != Some(me) {
            return Some(format!(
                "rank {me} sends to rank {to}, but rank {to} receives from rank {}",
                ps[tm].recv_from.map_or("?".into(), |x| x.to_string())
            ));
        }
    }
    None
}
