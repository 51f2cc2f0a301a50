//! Sharding of fusion tensors: the `#fusion.shard<...>` encoding attribute and its decoded form
//! [`Sharding`], which lowering passes read and write.
//!
//! Syntax: `#fusion.shard<@mesh, [[SPLIT, ...], ...] (, partial = [DID, ...])? (, reduce = KIND)?>`
//! with one split list per logical tensor axis. A split list is ordered outermost first; each
//! split is an *outer* split of the axis: `DIDx`/`DIDy`/`DIDz` over a mesh axis (`DIDx` is the
//! innermost, i.e. last, mesh axis; `DIDy` the one before; `DIDz` the one before that) or
//! `Stream(n)`: `n` chunks computed one per iteration of a host loop. `partial` lists device
//! axes over which the value is a pending reduction of kind `reduce` (`sum` by default, which is
//! not printed).
//!
//! Parameters as stored (`DialectParam`s): `[Attr(@mesh), List(axes), List(partial), Keyword(kind)]`
//! where an axis is a `List` of splits, a device split a `Keyword("DIDx")` and a stream split an
//! `Int(n)`; partial is a `List` of keywords. Code reads them through [`Sharding::of_attr`].
//!
//! Invariants checked by the attribute's verify hook ([`Sharding::validate`]; no IR access, so
//! the number of split lists and the mesh are checked by the ops): stream counts are positive;
//! a device axis appears at most once over all split lists and `partial` together. Two stream
//! splits on one tensor are accepted here (the lowering reports them).

use crate::reduction::ReductionKind;
use crate::support::flat_symbol;
use fuser_ir::asm::{DialectAsmParser, DialectAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::{AttrKind, DialectData, DialectParam};
use fuser_ir::context::Context;
use fuser_ir::registry::AttrDef;
use fuser_ir::types::{DYNAMIC, TypeKind};
use fuser_ir::{Attr, Type};

pub use super::mesh::Mesh;

/// A device (mesh) axis, named as in nvFuser: `DIDx` is the last mesh axis.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum DeviceAxis {
    X,
    Y,
    Z,
}

impl DeviceAxis {
    pub const ALL: [DeviceAxis; 3] = [DeviceAxis::X, DeviceAxis::Y, DeviceAxis::Z];

    /// `DIDx`, `DIDy`, `DIDz`.
    pub fn keyword(self) -> &'static str {
        match self {
            DeviceAxis::X => "DIDx",
            DeviceAxis::Y => "DIDy",
            DeviceAxis::Z => "DIDz",
        }
    }

    pub fn from_keyword(s: &str) -> Option<DeviceAxis> {
        DeviceAxis::ALL.into_iter().find(|d| d.keyword() == s)
    }

    /// How many mesh axes lie after this one (0 for `DIDx`): the mesh axis is
    /// `rank - 1 - offset`.
    pub fn offset_from_last(self) -> usize {
        match self {
            DeviceAxis::X => 0,
            DeviceAxis::Y => 1,
            DeviceAxis::Z => 2,
        }
    }
}

/// One outer split of a tensor axis.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Split {
    /// Over the devices of a mesh axis.
    Device(DeviceAxis),
    /// In this many chunks, one per host-loop iteration.
    Stream(i64),
}

impl Split {
    fn to_param(self) -> DialectParam {
        match self {
            Split::Device(d) => DialectParam::Keyword(d.keyword().into()),
            Split::Stream(n) => DialectParam::Int(n),
        }
    }
    fn of_param(p: &DialectParam) -> Option<Split> {
        match p {
            DialectParam::Keyword(k) => DeviceAxis::from_keyword(k).map(Split::Device),
            DialectParam::Int(n) => Some(Split::Stream(*n)),
            _ => None,
        }
    }
    fn text(self) -> String {
        match self {
            Split::Device(d) => d.keyword().to_string(),
            Split::Stream(n) => format!("Stream({n})"),
        }
    }
}

/// A decoded `#fusion.shard` attribute.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Sharding {
    /// The mesh symbol, without `@`.
    pub mesh: String,
    /// One split list per logical tensor axis, outermost split first.
    pub axes: Vec<Vec<Split>>,
    /// Device axes over which the value is a pending reduction.
    pub partial: Vec<DeviceAxis>,
    /// The kind of the pending reduction (meaningful when `partial` is not empty).
    pub reduce: ReductionKind,
}

impl Sharding {
    /// The sharding in the encoding of a ranked tensor type, if it has one.
    pub fn of_type(ctx: &Context, t: Type) -> Option<Sharding> {
        match ctx.type_kind(t) {
            TypeKind::RankedTensor { encoding: Some(e), .. } => Sharding::of_attr(ctx, *e),
            _ => None,
        }
    }

    /// Decodes a `#fusion.shard` attribute; `None` for any other attribute.
    pub fn of_attr(ctx: &Context, a: Attr) -> Option<Sharding> {
        let p = ctx.dialect_attr_params(a, "fusion", "shard")?;
        Sharding::of_params(ctx, p)
    }

    fn of_params(ctx: &Context, p: &[DialectParam]) -> Option<Sharding> {
        let [mesh, axes, partial, reduce] = p else { return None };
        let mesh = flat_symbol(ctx, mesh.as_attr()?)?.to_string();
        let axes = axes
            .as_list()?
            .iter()
            .map(|l| l.as_list()?.iter().map(Split::of_param).collect::<Option<Vec<_>>>())
            .collect::<Option<Vec<_>>>()?;
        let partial =
            partial.as_list()?.iter().map(|k| DeviceAxis::from_keyword(k.as_keyword()?)).collect::<Option<Vec<_>>>()?;
        let reduce = ReductionKind::from_keyword(reduce.as_keyword()?)?;
        Some(Sharding { mesh, axes, partial, reduce })
    }

    fn to_params(&self, ctx: &Context) -> Vec<DialectParam> {
        let axes = self.axes.iter().map(|l| DialectParam::List(l.iter().map(|s| s.to_param()).collect())).collect();
        let partial = self.partial.iter().map(|d| DialectParam::Keyword(d.keyword().into())).collect();
        vec![
            DialectParam::Attr(ctx.symbol_ref(&self.mesh)),
            DialectParam::List(axes),
            DialectParam::List(partial),
            DialectParam::Keyword(self.reduce.keyword().into()),
        ]
    }

    /// The `#fusion.shard` attribute, or why this sharding is invalid ([`Sharding::validate`]).
    pub fn try_to_attr(&self, ctx: &Context) -> Result<Attr, String> {
        ctx.dialect_attr("fusion", "shard", self.to_params(ctx))
    }

    /// The `#fusion.shard` attribute. An invalid sharding (see [`Sharding::validate`]) is
    /// still encoded, so that the op verifiers report it where it is used; builders that want
    /// the error call [`Sharding::try_to_attr`].
    pub fn to_attr(&self, ctx: &Context) -> Attr {
        self.try_to_attr(ctx).unwrap_or_else(|_| {
            let data = DialectData { dialect: "fusion".into(), mnemonic: "shard".into(), params: self.to_params(ctx) };
            ctx.intern_attr(AttrKind::Dialect(Box::new(data)))
        })
    }

    /// Every axis unsplit, nothing pending.
    pub fn replicated(mesh: &str, rank: usize) -> Sharding {
        Sharding {
            mesh: mesh.to_string(),
            axes: vec![Vec::new(); rank],
            partial: Vec::new(),
            reduce: ReductionKind::Sum,
        }
    }

    /// True when no axis is split and nothing is pending.
    pub fn is_replicated(&self) -> bool {
        self.axes.iter().all(Vec::is_empty) && self.partial.is_empty()
    }

    /// The ranked tensor `t` with this sharding as its encoding (`t` unchanged if it is not a
    /// ranked tensor).
    pub fn apply_to(&self, ctx: &Context, t: Type) -> Type {
        match ctx.type_kind(t) {
            TypeKind::RankedTensor { shape, elem, .. } => {
                ctx.tensor_type(shape.clone(), *elem, Some(self.to_attr(ctx)))
            }
            _ => t,
        }
    }

    /// Where device axis `d` splits the tensor: (tensor axis, index in its split list).
    pub fn device_axis_position(&self, d: DeviceAxis) -> Option<(usize, usize)> {
        self.positions().find(|&(_, _, s)| s == Split::Device(d)).map(|(a, i, _)| (a, i))
    }

    /// Every stream split: (tensor axis, index in its split list, chunk count).
    pub fn stream_axes(&self) -> Vec<(usize, usize, i64)> {
        self.positions()
            .filter_map(|(a, i, s)| match s {
                Split::Stream(n) => Some((a, i, n)),
                Split::Device(_) => None,
            })
            .collect()
    }

    /// Every device axis the tensor is split over (not the partial ones), in axis order.
    pub fn split_device_axes(&self) -> Vec<DeviceAxis> {
        self.positions()
            .filter_map(|(_, _, s)| match s {
                Split::Device(d) => Some(d),
                Split::Stream(_) => None,
            })
            .collect()
    }

    fn positions(&self) -> impl Iterator<Item = (usize, usize, Split)> + '_ {
        self.axes.iter().enumerate().flat_map(|(a, l)| l.iter().enumerate().map(move |(i, &s)| (a, i, s)))
    }

    /// The extent of each axis held by one rank: the global extent divided by the size of the
    /// mesh axis of each device split, and by the chunk count of each stream split when
    /// `include_stream`. Dynamic extents stay dynamic. An error when the rank differs, a device
    /// axis is not in the mesh, or an extent is not divisible.
    pub fn local_shape(&self, global: &[i64], mesh: &Mesh, include_stream: bool) -> Result<Vec<i64>, String> {
        if global.len() != self.axes.len() {
            return Err(format!("sharding has {} split lists for a tensor of rank {}", self.axes.len(), global.len()));
        }
        global
            .iter()
            .zip(&self.axes)
            .enumerate()
            .map(|(axis, (&extent, splits))| {
                let divisor = split_product(splits, mesh, include_stream)?;
                divide_extent(axis, extent, divisor)
            })
            .collect()
    }

    /// The rules of the attribute that need no IR: positive stream counts, each device axis at
    /// most once over the split lists and `partial` together.
    pub fn validate(&self) -> Result<(), String> {
        if let Some((axis, _, n)) = self.stream_axes().into_iter().find(|&(_, _, n)| n <= 0) {
            return Err(format!("Stream split of axis {axis} must have a positive chunk count, got {n}"));
        }
        let mut seen: Vec<DeviceAxis> = Vec::new();
        for d in self.split_device_axes() {
            if seen.contains(&d) {
                return Err(format!("device axis {} splits the tensor more than once", d.keyword()));
            }
            seen.push(d);
        }
        let mut pending: Vec<DeviceAxis> = Vec::new();
        for &d in &self.partial {
            if seen.contains(&d) {
                return Err(format!("device axis {} is both a split and partial", d.keyword()));
            }
            if pending.contains(&d) {
                return Err(format!("device axis {} is listed twice in partial", d.keyword()));
            }
            pending.push(d);
        }
        Ok(())
    }
}

/// The product of the sizes of `splits` (device axes over `mesh`; stream chunks when
/// `include_stream`).
pub(crate) fn split_product(splits: &[Split], mesh: &Mesh, include_stream: bool) -> Result<i64, String> {
    splits.iter().try_fold(1i64, |acc, s| {
        let n = match *s {
            Split::Device(d) => mesh.axis_size(d).ok_or_else(|| {
                format!("device axis {} is not in mesh @{} of rank {}", d.keyword(), mesh.name, mesh.shape.len())
            })?,
            Split::Stream(n) if include_stream => n,
            Split::Stream(_) => 1,
        };
        Ok(acc.saturating_mul(n))
    })
}

fn divide_extent(axis: usize, extent: i64, divisor: i64) -> Result<i64, String> {
    if extent == DYNAMIC {
        return Ok(DYNAMIC);
    }
    if divisor <= 0 || extent % divisor != 0 {
        return Err(format!("axis {axis} of extent {extent} is not divisible by {divisor}, the product of its splits"));
    }
    Ok(extent / divisor)
}

/// `t` without its encoding (a ranked tensor), or `t` itself.
pub fn strip_sharding(ctx: &Context, t: Type) -> Type {
    match ctx.type_kind(t) {
        TypeKind::RankedTensor { shape, elem, encoding: Some(_) } => ctx.tensor_type(shape.clone(), *elem, None),
        _ => t,
    }
}

// ----- the attribute's hooks ----------------------------------------------------------------

/// `DIDx` or `Stream(n)`.
fn parse_split(p: &mut dyn DialectAsmParser) -> ParseResult<Split> {
    let at = p.current_offset();
    let kw = p.parse_any_keyword("a split (DIDx, DIDy, DIDz or Stream(n))")?;
    if let Some(d) = DeviceAxis::from_keyword(&kw) {
        return Ok(Split::Device(d));
    }
    if kw != "Stream" {
        return Err(p.emit_error_at(at, &format!("unknown split '{kw}' (expected DIDx, DIDy, DIDz or Stream(n))")));
    }
    p.parse_punct(Punct::LParen)?;
    let n = p.parse_integer()?;
    p.parse_punct(Punct::RParen)?;
    Ok(Split::Stream(n))
}

/// `[item, ...]` (possibly empty).
fn parse_list<T>(
    p: &mut dyn DialectAsmParser,
    mut item: impl FnMut(&mut dyn DialectAsmParser) -> ParseResult<T>,
) -> ParseResult<Vec<T>> {
    p.parse_punct(Punct::LSquare)?;
    let mut out = Vec::new();
    if p.parse_optional_punct(Punct::RSquare) {
        return Ok(out);
    }
    loop {
        out.push(item(p)?);
        if !p.parse_optional_punct(Punct::Comma) {
            break;
        }
    }
    p.parse_punct(Punct::RSquare)?;
    Ok(out)
}

fn parse_device_axis(p: &mut dyn DialectAsmParser) -> ParseResult<DeviceAxis> {
    let at = p.current_offset();
    let kw = p.parse_any_keyword("a device axis (DIDx, DIDy or DIDz)")?;
    DeviceAxis::from_keyword(&kw)
        .ok_or_else(|| p.emit_error_at(at, &format!("unknown device axis '{kw}' (expected DIDx, DIDy or DIDz)")))
}

fn parse_reduction_kind(p: &mut dyn DialectAsmParser) -> ParseResult<ReductionKind> {
    let at = p.current_offset();
    let kw = p.parse_any_keyword("a reduction kind")?;
    ReductionKind::from_keyword(&kw)
        .ok_or_else(|| p.emit_error_at(at, &format!("unknown reduction kind '{kw}' (expected sum, prod, min or max)")))
}

fn parse_shard(p: &mut dyn DialectAsmParser) -> ParseResult<Vec<DialectParam>> {
    p.parse_punct(Punct::Less)?;
    let at = p.current_offset();
    let mesh = p.parse_attribute()?;
    let Some(mesh_name) = flat_symbol(p.ctx(), mesh).map(str::to_owned) else {
        return Err(p.emit_error_at(at, "expected a mesh symbol such as @tp"));
    };
    p.parse_punct(Punct::Comma)?;
    let axes = parse_list(p, |p| parse_list(p, parse_split))?;
    let mut sharding = Sharding { mesh: mesh_name, axes, partial: Vec::new(), reduce: ReductionKind::Sum };
    while p.parse_optional_punct(Punct::Comma) {
        let at = p.current_offset();
        if p.parse_optional_keyword("partial") {
            p.parse_punct(Punct::Equal)?;
            sharding.partial = parse_list(p, parse_device_axis)?;
        } else if p.parse_optional_keyword("reduce") {
            p.parse_punct(Punct::Equal)?;
            sharding.reduce = parse_reduction_kind(p)?;
        } else {
            return Err(p.emit_error_at(at, "expected 'partial' or 'reduce'"));
        }
    }
    p.parse_punct(Punct::Greater)?;
    Ok(sharding.to_params(p.ctx()))
}

fn verify_shard(ctx: &Context, params: &[DialectParam]) -> Result<(), String> {
    Sharding::of_params(ctx, params).ok_or("malformed #fusion.shard parameters")?.validate()
}

fn print_shard(p: &mut dyn DialectAsmPrinter, params: &[DialectParam]) {
    let Some(s) = Sharding::of_params(p.ctx(), params) else { return };
    p.write("<");
    if let Some(mesh) = params.first().and_then(DialectParam::as_attr) {
        p.print_attribute(mesh);
    }
    let axes: Vec<String> =
        s.axes.iter().map(|l| format!("[{}]", l.iter().map(|s| s.text()).collect::<Vec<_>>().join(", "))).collect();
    p.write(&format!(", [{}]", axes.join(", ")));
    if !s.partial.is_empty() {
        let partial: Vec<&str> = s.partial.iter().map(|d| d.keyword()).collect();
        p.write(&format!(", partial = [{}]", partial.join(", ")));
    }
    if s.reduce != ReductionKind::Sum {
        p.write(&format!(", reduce = {}", s.reduce.keyword()));
    }
    p.write(">");
}

pub static SHARD: AttrDef = AttrDef {
    mnemonic: "shard",
    summary: "How a tensor is split over the devices of a mesh and over stream chunks",
    description: "A tensor encoding: `#fusion.shard<@MESH, [[SPLIT, ...], ...] [, partial = [DID, ...]] \
[, reduce = KIND]>`, with one split list per tensor axis. Each split is an *outer* split, \
outermost first: `DIDx`, `DIDy`, `DIDz` split over the last, second-to-last, third-to-last mesh \
axis; `Stream(n)` splits in `n` chunks, one per iteration of a host loop. `partial` lists device \
axes over which the value is a pending reduction of kind `reduce` (`sum` by default, not \
printed). A device axis appears at most once; the op verifiers check the mesh exists, that there \
is one split list per axis and that static extents are divisible.\n\n\
```mlir\ntensor<48x256xbf16, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>\n\
tensor<4096x8192xbf16, #fusion.shard<@tp, [[], []], partial = [DIDx]>>\n\
tensor<64x8xf32, #fusion.shard<@m, [[Stream(2), DIDy], [DIDx]]>>\n```",
    parse: parse_shard,
    verify: Some(verify_shard),
    print: print_shard,
};
