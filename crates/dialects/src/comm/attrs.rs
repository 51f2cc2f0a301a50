//! Attributes of the `comm` dialect: `#comm.reduction<sum>` (how a reducing collective
//! combines), `#comm.backend<nccl>` (which library moves the bytes) and `#comm.protocol<get>`
//! (which side of a CUDA IPC transfer copies), plus the `team` property, a dense `i64` array of
//! absolute device ids.
//!
//! Each dialect attribute holds exactly one keyword parameter (`DialectParam::Keyword`); the
//! verify hooks reject unknown keywords, so a stored attribute always decodes. Passes use the
//! typed builders and readers here ([`reduction_attr`], [`reduction_of`], ...), never the
//! parameters directly.

use crate::reduction::ReductionKind;
use fuser_ir::asm::{DialectAsmParser, DialectAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::{Attr, AttrKind, DenseArrayData, DialectParam};
use fuser_ir::context::Context;
use fuser_ir::registry::AttrDef;
use fuser_ir::types::TypeKind;

/// Which library carries a communication.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Backend {
    /// NCCL collectives and send/recv (the default).
    #[default]
    Nccl,
    /// Copies between GPUs of one node through CUDA IPC handles (copy engine or symmetric memory).
    CudaIpc,
}

impl Backend {
    pub const ALL: [Backend; 2] = [Backend::Nccl, Backend::CudaIpc];
    pub fn keyword(self) -> &'static str {
        match self {
            Backend::Nccl => "nccl",
            Backend::CudaIpc => "cuda_ipc",
        }
    }
    pub fn from_keyword(s: &str) -> Option<Backend> {
        Backend::ALL.into_iter().find(|b| b.keyword() == s)
    }
}

/// Which side of a CUDA IPC point-to-point transfer performs the copy.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Protocol {
    /// The receiver reads from the sender's buffer (the default with `cuda_ipc`).
    #[default]
    Get,
    /// The sender writes into the receiver's buffer.
    Put,
}

impl Protocol {
    pub const ALL: [Protocol; 2] = [Protocol::Get, Protocol::Put];
    pub fn keyword(self) -> &'static str {
        match self {
            Protocol::Get => "get",
            Protocol::Put => "put",
        }
    }
    pub fn from_keyword(s: &str) -> Option<Protocol> {
        Protocol::ALL.into_iter().find(|p| p.keyword() == s)
    }
}

// ----- builders and readers -----------------------------------------------------------------

fn keyword_attr(ctx: &Context, mnemonic: &str, kw: &str) -> Attr {
    ctx.dialect_attr("comm", mnemonic, vec![DialectParam::Keyword(kw.into())])
        .unwrap_or_else(|e| panic!("invalid #comm.{mnemonic}<{kw}>: {e}"))
}

fn keyword_of<'c>(ctx: &'c Context, a: Attr, mnemonic: &str) -> Option<&'c str> {
    ctx.dialect_attr_params(a, "comm", mnemonic)?.first()?.as_keyword()
}

/// `#comm.reduction<kind>`.
pub fn reduction_attr(ctx: &Context, kind: ReductionKind) -> Attr {
    keyword_attr(ctx, "reduction", kind.keyword())
}

/// The kind held by a `#comm.reduction<...>`; `None` for any other attribute.
pub fn reduction_of(ctx: &Context, a: Attr) -> Option<ReductionKind> {
    ReductionKind::from_keyword(keyword_of(ctx, a, "reduction")?)
}

/// `#comm.backend<backend>`.
pub fn backend_attr(ctx: &Context, backend: Backend) -> Attr {
    keyword_attr(ctx, "backend", backend.keyword())
}

/// The backend held by a `#comm.backend<...>`.
pub fn backend_of(ctx: &Context, a: Attr) -> Option<Backend> {
    Backend::from_keyword(keyword_of(ctx, a, "backend")?)
}

/// `#comm.protocol<protocol>`.
pub fn protocol_attr(ctx: &Context, protocol: Protocol) -> Attr {
    keyword_attr(ctx, "protocol", protocol.keyword())
}

/// The protocol held by a `#comm.protocol<...>`.
pub fn protocol_of(ctx: &Context, a: Attr) -> Option<Protocol> {
    Protocol::from_keyword(keyword_of(ctx, a, "protocol")?)
}

/// The `team` property: `array<i64: ...>`.
pub fn team_attr(ctx: &Context, team: &[i64]) -> Attr {
    ctx.intern_attr(AttrKind::DenseArray { elem: ctx.i64_type(), data: DenseArrayData::Int(team.to_vec()) })
}

/// The device ids of a `team` attribute (`None` unless it is an `array<i64: ...>`).
pub fn team_of(ctx: &Context, a: Attr) -> Option<&[i64]> {
    match ctx.attr_kind(a) {
        AttrKind::DenseArray { elem, data: DenseArrayData::Int(v) }
            if matches!(ctx.type_kind(*elem), TypeKind::Integer { width: 64, .. }) =>
        {
            Some(v)
        }
        _ => None,
    }
}

/// What a valid team is: non-empty, no negative id, no id twice. The message names the problem.
pub fn check_team(team: &[i64]) -> Result<(), String> {
    if team.is_empty() {
        return Err("requires a non-empty team".into());
    }
    if let Some(d) = team.iter().find(|&&d| d < 0) {
        return Err(format!("requires non-negative device ids in the team, got {d}"));
    }
    for (i, d) in team.iter().enumerate() {
        if team[..i].contains(d) {
            return Err(format!("requires distinct device ids in the team, got {d} twice"));
        }
    }
    Ok(())
}

// ----- hooks --------------------------------------------------------------------------------

/// `<keyword>` where the keyword is one of `allowed`.
fn parse_keyword_param(p: &mut dyn DialectAsmParser, what: &str, allowed: &[&str]) -> ParseResult<Vec<DialectParam>> {
    p.parse_punct(Punct::Less)?;
    let at = p.current_offset();
    let kw = p.parse_any_keyword(what)?;
    if !allowed.contains(&kw.as_str()) {
        return Err(p.emit_error_at(at, &format!("unknown {what} '{kw}' (expected {})", allowed.join(", "))));
    }
    p.parse_punct(Punct::Greater)?;
    Ok(vec![DialectParam::Keyword(kw.into())])
}

fn verify_keyword_param(params: &[DialectParam], what: &str, allowed: &[&str]) -> Result<(), String> {
    match params {
        [DialectParam::Keyword(k)] if allowed.contains(&&**k) => Ok(()),
        [DialectParam::Keyword(k)] => Err(format!("unknown {what} '{k}'")),
        _ => Err(format!("expected one {what} keyword")),
    }
}

fn print_keyword_param(p: &mut dyn DialectAsmPrinter, params: &[DialectParam]) {
    let kw = params.first().and_then(DialectParam::as_keyword).unwrap_or("");
    p.write(&format!("<{kw}>"));
}

const REDUCTION_KEYWORDS: [&str; 4] = ["sum", "prod", "min", "max"];
const BACKEND_KEYWORDS: [&str; 2] = ["nccl", "cuda_ipc"];
const PROTOCOL_KEYWORDS: [&str; 2] = ["get", "put"];

fn parse_reduction(p: &mut dyn DialectAsmParser) -> ParseResult<Vec<DialectParam>> {
    parse_keyword_param(p, "reduction kind", &REDUCTION_KEYWORDS)
}
fn verify_reduction(_: &Context, params: &[DialectParam]) -> Result<(), String> {
    verify_keyword_param(params, "reduction kind", &REDUCTION_KEYWORDS)
}
fn parse_backend(p: &mut dyn DialectAsmParser) -> ParseResult<Vec<DialectParam>> {
    parse_keyword_param(p, "backend", &BACKEND_KEYWORDS)
}
fn verify_backend(_: &Context, params: &[DialectParam]) -> Result<(), String> {
    verify_keyword_param(params, "backend", &BACKEND_KEYWORDS)
}
fn parse_protocol(p: &mut dyn DialectAsmParser) -> ParseResult<Vec<DialectParam>> {
    parse_keyword_param(p, "protocol", &PROTOCOL_KEYWORDS)
}
fn verify_protocol(_: &Context, params: &[DialectParam]) -> Result<(), String> {
    verify_keyword_param(params, "protocol", &PROTOCOL_KEYWORDS)
}

pub static REDUCTION: AttrDef = AttrDef {
    mnemonic: "reduction",
    summary: "How a reducing collective combines the values of the team",
    description: "`#comm.reduction<KIND>` with KIND one of `sum`, `prod`, `min`, `max`: the \
elementwise combination applied by `comm.allreduce`, `comm.reduce` and `comm.reduce_scatter`. \
The custom forms of these ops print only the keyword.\n\n\
```mlir\n#comm.reduction<sum>\n#comm.reduction<max>\n```",
    parse: parse_reduction,
    verify: Some(verify_reduction),
    print: print_keyword_param,
};

pub static BACKEND: AttrDef = AttrDef {
    mnemonic: "backend",
    summary: "The library that carries a communication",
    description: "`#comm.backend<nccl>` (NCCL; the default, materialized on every op and elided \
by the custom forms) or `#comm.backend<cuda_ipc>` (direct copies between the GPUs of one node \
through CUDA IPC handles, exchanged beforehand by `comm.share_handles`).\n\n\
```mlir\n#comm.backend<nccl>\n#comm.backend<cuda_ipc>\n```",
    parse: parse_backend,
    verify: Some(verify_backend),
    print: print_keyword_param,
};

pub static PROTOCOL: AttrDef = AttrDef {
    mnemonic: "protocol",
    summary: "Which side of a CUDA IPC transfer copies",
    description: "`#comm.protocol<get>`: the receiver copies from the sender's buffer once the \
sender has posted (the default with `cuda_ipc`); `#comm.protocol<put>`: the sender copies into \
the receiver's buffer once the receiver has posted. Only meaningful with the `cuda_ipc` \
backend.\n\n```mlir\n#comm.protocol<put>\n```",
    parse: parse_protocol,
    verify: Some(verify_protocol),
    print: print_keyword_param,
};
