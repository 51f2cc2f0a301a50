//! The messages of a multi-process cpu run, between a rank's link and rank 0's hub, and their
//! encoding (one frame each, [`super::frame`]).
//!
//! A rank sends its posts (with the bytes a send or a collective reads, taken when posted),
//! an abort when it fails, its result when it finished and a goodbye. The hub answers every
//! post at once (`Posted`: accepted, or the error of a malformed post), later `Done` with the
//! bytes the rank's output receives, and broadcasts `Start` when every rank joined and
//! `Abort` when one failed or vanished.

use super::frame::{Decoder, Encoder, malformed};
use crate::cpu::comm::Collective;
use crate::dtype::DType;
use crate::error::{OpKey, RtError, RtResult};
use fuser_dialects::comm::attrs::{Backend, Protocol};
use fuser_dialects::reduction::ReductionKind;

/// A buffer as the hub sees it: the posting rank's buffer id, its element type and count.
#[derive(Clone, Debug, PartialEq)]
pub struct BufSpec {
    pub id: u64,
    pub dtype: DType,
    pub numel: usize,
}

/// What a post asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum PostBody {
    Collective {
        seq: u64,
        team: Vec<usize>,
        op: Collective,
        input: BufSpec,
        data: Vec<u8>,
        output: BufSpec,
    },
    /// `data`: the bytes a send carries (empty for a receive).
    P2p {
        send: bool,
        peer: usize,
        backend: Backend,
        protocol: Protocol,
        buf: BufSpec,
        data: Vec<u8>,
    },
    Share {
        sends: Vec<(BufSpec, usize)>,
        recvs: Vec<(BufSpec, usize)>,
    },
}

/// From a rank to the hub.
#[derive(Clone, Debug, PartialEq)]
pub enum ToHub {
    Post {
        id: u64,
        key: OpKey,
        body: PostBody,
    },
    Abort(RtError),
    /// The rank's encoded result or error (`crate::process` codec).
    Result(Vec<u8>),
    Bye,
}

/// From the hub to a rank.
#[derive(Clone, Debug, PartialEq)]
pub enum FromHub {
    Start,
    Posted {
        id: u64,
        error: Option<RtError>,
    },
    /// The outcome; with the bytes of the rank's output when the op wrote it.
    Done {
        id: u64,
        outcome: Result<Option<Vec<u8>>, RtError>,
    },
    Abort(RtError),
}

fn put_spec(e: &mut Encoder, b: &BufSpec) {
    e.u64(b.id).dtype(b.dtype).usize(b.numel);
}

fn get_spec(d: &mut Decoder) -> RtResult<BufSpec> {
    Ok(BufSpec { id: d.u64()?, dtype: d.dtype()?, numel: d.usize()? })
}

fn put_collective(e: &mut Encoder, op: Collective) {
    let kind = |k: ReductionKind| ReductionKind::ALL.iter().position(|&x| x == k).unwrap_or(0) as u8;
    match op {
        Collective::Allgather => e.u8(0),
        Collective::Allreduce(k) => e.u8(1).u8(kind(k)),
        Collective::ReduceScatter(k) => e.u8(2).u8(kind(k)),
        Collective::Broadcast { root } => e.u8(3).usize(root),
        Collective::Reduce { root, kind: k } => e.u8(4).usize(root).u8(kind(k)),
        Collective::Gather { root } => e.u8(5).usize(root),
        Collective::Scatter { root } => e.u8(6).usize(root),
        Collective::AllToAll => e.u8(7),
        Collective::CollectivePermute { send_to, recv_from } => e.u8(8).usize(send_to).usize(recv_from),
    };
}

fn get_collective(d: &mut Decoder) -> RtResult<Collective> {
    let kind = |d: &mut Decoder| -> RtResult<ReductionKind> {
        ReductionKind::ALL.get(d.u8()? as usize).copied().ok_or_else(|| malformed("an unknown reduction"))
    };
    Ok(match d.u8()? {
        0 => Collective::Allgather,
        1 => Collective::Allreduce(kind(d)?),
        2 => Collective::ReduceScatter(kind(d)?),
        3 => Collective::Broadcast { root: d.usize()? },
        4 => Collective::Reduce { root: d.usize()?, kind: kind(d)? },
        5 => Collective::Gather { root: d.usize()? },
        6 => Collective::Scatter { root: d.usize()? },
        7 => Collective::AllToAll,
        8 => Collective::CollectivePermute { send_to: d.usize()?, recv_from: d.usize()? },
        _ => return Err(malformed("an unknown collective")),
    })
}

fn put_pairs(e: &mut Encoder, pairs: &[(BufSpec, usize)]) {
    e.usize(pairs.len());
    for (b, peer) in pairs {
        put_spec(e, b);
        e.usize(*peer);
    }
}

fn get_pairs(d: &mut Decoder) -> RtResult<Vec<(BufSpec, usize)>> {
    let n = d.usize()?;
    // Each pair takes at least 25 bytes: a count beyond the frame is malformed.
    if n.saturating_mul(25) > d.0.len() {
        return Err(malformed("a length beyond the end of the frame"));
    }
    (0..n).map(|_| Ok((get_spec(d)?, d.usize()?))).collect()
}

fn put_body(e: &mut Encoder, body: &PostBody) {
    match body {
        PostBody::Collective { seq, team, op, input, data, output } => {
            e.u8(0).u64(*seq).usizes(team);
            put_collective(e, *op);
            put_spec(e, input);
            e.bytes(data);
            put_spec(e, output);
        }
        PostBody::P2p { send, peer, backend, protocol, buf, data } => {
            e.u8(1).u8(*send as u8).usize(*peer).u8((*backend == Backend::CudaIpc) as u8);
            e.u8((*protocol == Protocol::Put) as u8);
            put_spec(e, buf);
            e.bytes(data);
        }
        PostBody::Share { sends, recvs } => {
            e.u8(2);
            put_pairs(e, sends);
            put_pairs(e, recvs);
        }
    }
}

fn get_body(d: &mut Decoder) -> RtResult<PostBody> {
    Ok(match d.u8()? {
        0 => PostBody::Collective {
            seq: d.u64()?,
            team: d.usizes()?,
            op: get_collective(d)?,
            input: get_spec(d)?,
            data: d.bytes()?,
            output: get_spec(d)?,
        },
        1 => PostBody::P2p {
            send: d.u8()? == 1,
            peer: d.usize()?,
            backend: if d.u8()? == 1 { Backend::CudaIpc } else { Backend::Nccl },
            protocol: if d.u8()? == 1 { Protocol::Put } else { Protocol::Get },
            buf: get_spec(d)?,
            data: d.bytes()?,
        },
        2 => PostBody::Share { sends: get_pairs(d)?, recvs: get_pairs(d)? },
        _ => return Err(malformed("an unknown post")),
    })
}

impl ToHub {
    pub fn encode(&self) -> Vec<u8> {
        let mut e = Encoder::default();
        match self {
            ToHub::Post { id, key, body } => {
                e.u8(1).u64(*id).key(key);
                put_body(&mut e, body);
            }
            ToHub::Abort(err) => {
                e.u8(2).error(err);
            }
            ToHub::Result(bytes) => {
                e.u8(3).bytes(bytes);
            }
            ToHub::Bye => {
                e.u8(4);
            }
        }
        e.0
    }

    pub fn decode(frame: &[u8]) -> RtResult<ToHub> {
        let mut d = Decoder(frame);
        let m = match d.u8()? {
            1 => ToHub::Post { id: d.u64()?, key: d.key()?, body: get_body(&mut d)? },
            2 => ToHub::Abort(d.error()?),
            3 => ToHub::Result(d.bytes()?),
            4 => ToHub::Bye,
            _ => return Err(malformed("an unknown message to the hub")),
        };
        d.end()?;
        Ok(m)
    }
}

impl FromHub {
    pub fn encode(&self) -> Vec<u8> {
        let mut e = Encoder::default();
        match self {
            FromHub::Start => {
                e.u8(10);
            }
            FromHub::Posted { id, error } => {
                e.u8(11).u64(*id);
                match error {
                    Some(err) => e.u8(1).error(err),
                    None => e.u8(0),
                };
            }
            FromHub::Done { id, outcome } => {
                e.u8(12).u64(*id);
                match outcome {
                    Ok(None) => e.u8(0),
                    Ok(Some(bytes)) => e.u8(1).bytes(bytes),
                    Err(err) => e.u8(2).error(err),
                };
            }
            FromHub::Abort(err) => {
                e.u8(13).error(err);
            }
        }
        e.0
    }

    pub fn decode(frame: &[u8]) -> RtResult<FromHub> {
        let mut d = Decoder(frame);
        let m = match d.u8()? {
            10 => FromHub::Start,
            11 => {
                let id = d.u64()?;
                let error = if d.u8()? == 1 { Some(d.error()?) } else { None };
                FromHub::Posted { id, error }
            }
            12 => {
                let id = d.u64()?;
                let outcome = match d.u8()? {
                    0 => Ok(None),
                    1 => Ok(Some(d.bytes()?)),
                    _ => Err(d.error()?),
                };
                FromHub::Done { id, outcome }
            }
            13 => FromHub::Abort(d.error()?),
            _ => return Err(malformed("an unknown message from the hub")),
        };
        d.end()?;
        Ok(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_round_trips() {
        let key = OpKey { index: 3, loc: Some("f.mlir:2:3".into()), name: "comm.allreduce".into() };
        let spec = BufSpec { id: 7, dtype: DType::BF16, numel: 4 };
        let to_hub = [
            ToHub::Post {
                id: 1,
                key: key.clone(),
                body: PostBody::Collective {
                    seq: 2,
                    team: vec![0, 1],
                    op: Collective::Reduce { root: 1, kind: ReductionKind::Max },
                    input: spec.clone(),
                    data: vec![1, 2, 3, 4, 5, 6, 7, 8],
                    output: spec.clone(),
                },
            },
            ToHub::Post {
                id: 2,
                key: key.clone(),
                body: PostBody::P2p {
                    send: true,
                    peer: 1,
                    backend: Backend::CudaIpc,
                    protocol: Protocol::Put,
                    buf: spec.clone(),
                    data: vec![9; 8],
                },
            },
            ToHub::Post { id: 3, key, body: PostBody::Share { sends: vec![(spec.clone(), 1)], recvs: vec![] } },
            ToHub::Abort(RtError::new("boom").on_rank(1)),
            ToHub::Result(vec![0, 1]),
            ToHub::Bye,
        ];
        for m in to_hub {
            assert_eq!(ToHub::decode(&m.encode()).unwrap(), m);
        }
        let from_hub = [
            FromHub::Start,
            FromHub::Posted { id: 1, error: None },
            FromHub::Posted { id: 1, error: Some(RtError::new("bad")) },
            FromHub::Done { id: 2, outcome: Ok(Some(vec![1, 2])) },
            FromHub::Done { id: 2, outcome: Ok(None) },
            FromHub::Done { id: 2, outcome: Err(RtError::new("mismatch").on_rank(0)) },
            FromHub::Abort(RtError::new("gone")),
        ];
        for m in from_hub {
            assert_eq!(FromHub::decode(&m.encode()).unwrap(), m);
        }
    }

    #[test]
    fn malformed_frames_are_errors() {
        assert!(ToHub::decode(&[]).is_err());
        assert!(ToHub::decode(&[9]).is_err());
        let mut long = ToHub::Bye.encode();
        long.push(0);
        assert!(ToHub::decode(&long).is_err());
        // A post whose data length runs past the frame.
        let mut cut = ToHub::Result(vec![1; 16]).encode();
        cut.truncate(12);
        assert!(ToHub::decode(&cut).unwrap_err().message.contains("beyond the end"));
        assert!(FromHub::decode(&[12, 1]).is_err());
    }
}
