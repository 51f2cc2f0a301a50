//! Types of the `host` dialect: `!host.buf` (an allocation of one rank), `!host.view` (a strided
//! window into a buffer) and `!host.stream` (an ordered queue of device work).
//!
//! Syntax:
//! - `!host.buf<4x?xf32>`, `!host.buf<4x8xbf16, pinned>`: shape (`?` = known at run time),
//!   element type, memory kind (`device` is the default and is not printed).
//! - `!host.view<2x8xf32, strides = [16, 1]>`, `!host.view<2x?xf32, strides = [?, 1], ipc>`:
//!   shape, element type, strides in elements (`?` = known at run time), memory kind.
//! - `!host.stream`.
//!
//! Parameters as stored (`DialectParam`s): buf `[List(shape), Type(elem), Keyword(kind)]`, view
//! `[List(shape), Type(elem), List(strides), Keyword(kind)]`, stream `[]`. Passes read them
//! through [`BufferType::of`], never by matching parameters by hand.
//!
//! Invariants (checked by the verify hooks, so every stored value satisfies them): extents and
//! strides are non-negative or `?`; a view has one stride per dimension; the element type is an
//! integer or float type.

use fuser_ir::asm::{DialectAsmParser, DialectAsmPrinter, ParseResult, Punct};
use fuser_ir::attrs::DialectParam;
use fuser_ir::context::Context;
use fuser_ir::registry::TypeDef;
use fuser_ir::types::{DYNAMIC, Type, TypeKind};

/// Where a buffer lives.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum MemoryKind {
    /// Device global memory of this rank's GPU (the default).
    #[default]
    Device,
    /// Page-locked host memory, reachable by DMA.
    Pinned,
    /// Device memory exported to peers through CUDA IPC handles.
    Ipc,
    /// Symmetric memory: one allocation per rank at the same offset, mapped by all ranks.
    Symmetric,
}

impl MemoryKind {
    pub const ALL: [MemoryKind; 4] = [MemoryKind::Device, MemoryKind::Pinned, MemoryKind::Ipc, MemoryKind::Symmetric];
    pub fn keyword(self) -> &'static str {
        match self {
            MemoryKind::Device => "device",
            MemoryKind::Pinned => "pinned",
            MemoryKind::Ipc => "ipc",
            MemoryKind::Symmetric => "symmetric",
        }
    }
    pub fn from_keyword(s: &str) -> Option<MemoryKind> {
        MemoryKind::ALL.into_iter().find(|k| k.keyword() == s)
    }
}

/// A buffer or view type, decoded.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BufferType {
    pub shape: Vec<i64>,
    pub elem: Type,
    pub memory: MemoryKind,
    /// `None` for a buffer (contiguous, row-major); the strides of a view.
    pub strides: Option<Vec<i64>>,
}

impl BufferType {
    /// Decodes a `!host.buf` or `!host.view`; `None` for any other type.
    pub fn of(ctx: &Context, t: Type) -> Option<BufferType> {
        if let Some(p) = ctx.dialect_type_params(t, "host", "buf") {
            let memory = MemoryKind::from_keyword(p.get(2)?.as_keyword()?)?;
            return Some(BufferType { shape: ints(p.first()?)?, elem: p.get(1)?.as_type()?, memory, strides: None });
        }
        let p = ctx.dialect_type_params(t, "host", "view")?;
        let memory = MemoryKind::from_keyword(p.get(3)?.as_keyword()?)?;
        Some(BufferType { shape: ints(&p[0])?, elem: p.get(1)?.as_type()?, memory, strides: Some(ints(p.get(2)?)?) })
    }

    /// The type this describes (`!host.view` when `strides` is set).
    pub fn to_type(&self, ctx: &Context) -> Type {
        match &self.strides {
            None => buf_type(ctx, &self.shape, self.elem, self.memory),
            Some(strides) => view_type(ctx, &self.shape, self.elem, strides, self.memory),
        }
    }

    /// Row-major strides of the shape (`None` when an extent after the first is dynamic).
    pub fn contiguous_strides(shape: &[i64]) -> Vec<i64> {
        let mut strides = vec![1; shape.len()];
        for i in (0..shape.len().saturating_sub(1)).rev() {
            let (next, d) = (strides[i + 1], shape[i + 1]);
            strides[i] = if next == DYNAMIC || d == DYNAMIC { DYNAMIC } else { next * d };
        }
        strides
    }

    /// The number of elements when every extent is static.
    pub fn static_num_elements(&self) -> Option<i64> {
        self.shape.iter().try_fold(1i64, |acc, &d| if d == DYNAMIC { None } else { acc.checked_mul(d) })
    }

    pub fn is_view(&self) -> bool {
        self.strides.is_some()
    }
}

fn ints(p: &DialectParam) -> Option<Vec<i64>> {
    p.as_list()?.iter().map(DialectParam::as_int).collect()
}

fn int_list(v: &[i64]) -> DialectParam {
    DialectParam::List(v.iter().map(|&d| DialectParam::Int(d)).collect())
}

/// `!host.buf<shape x elem, memory>`.
pub fn buf_type(ctx: &Context, shape: &[i64], elem: Type, memory: MemoryKind) -> Type {
    let params = vec![int_list(shape), DialectParam::Type(elem), DialectParam::Keyword(memory.keyword().into())];
    ctx.dialect_type("host", "buf", params).unwrap_or_else(|e| panic!("invalid !host.buf: {e}"))
}

/// `!host.view<shape x elem, strides = [...], memory>`.
pub fn view_type(ctx: &Context, shape: &[i64], elem: Type, strides: &[i64], memory: MemoryKind) -> Type {
    let params = vec![
        int_list(shape),
        DialectParam::Type(elem),
        int_list(strides),
        DialectParam::Keyword(memory.keyword().into()),
    ];
    ctx.dialect_type("host", "view", params).unwrap_or_else(|e| panic!("invalid !host.view: {e}"))
}

/// `!host.stream`.
pub fn stream_type(ctx: &Context) -> Type {
    ctx.dialect_type("host", "stream", Vec::new()).unwrap_or_else(|e| panic!("invalid !host.stream: {e}"))
}

pub fn is_stream(ctx: &Context, t: Type) -> bool {
    ctx.dialect_type_params(t, "host", "stream").is_some()
}

/// A buffer or a view.
pub fn is_buffer_like(ctx: &Context, t: Type) -> bool {
    ctx.dialect_type_params(t, "host", "buf").is_some() || ctx.dialect_type_params(t, "host", "view").is_some()
}

// ----- hooks ------------------------------------------------------------------------------------

/// `<` shape-x-elem, shared by buf and view.
fn parse_shape_and_elem(p: &mut dyn DialectAsmParser) -> ParseResult<(Vec<i64>, Type)> {
    p.parse_punct(Punct::Less)?;
    let shape = p.parse_dimension_list()?;
    let elem = p.parse_type()?;
    Ok((shape, elem))
}

fn parse_memory_kind(p: &mut dyn DialectAsmParser) -> ParseResult<MemoryKind> {
    let at = p.current_offset();
    let kw = p.parse_any_keyword("memory kind")?;
    MemoryKind::from_keyword(&kw).ok_or_else(|| {
        p.emit_error_at(at, &format!("unknown memory kind '{kw}' (expected device, pinned, ipc or symmetric)"))
    })
}

fn parse_buf(p: &mut dyn DialectAsmParser) -> ParseResult<Vec<DialectParam>> {
    let (shape, elem) = parse_shape_and_elem(p)?;
    let memory = if p.parse_optional_punct(Punct::Comma) { parse_memory_kind(p)? } else { MemoryKind::Device };
    p.parse_punct(Punct::Greater)?;
    Ok(vec![int_list(&shape), DialectParam::Type(elem), DialectParam::Keyword(memory.keyword().into())])
}

/// `[16, ?, 1]`.
fn parse_stride_list(p: &mut dyn DialectAsmParser) -> ParseResult<Vec<i64>> {
    p.parse_punct(Punct::LSquare)?;
    let mut out = Vec::new();
    if p.parse_optional_punct(Punct::RSquare) {
        return Ok(out);
    }
    loop {
        if p.parse_optional_punct(Punct::Question) {
            out.push(DYNAMIC);
        } else {
            out.push(p.parse_integer()?);
        }
        if !p.parse_optional_punct(Punct::Comma) {
            break;
        }
    }
    p.parse_punct(Punct::RSquare)?;
    Ok(out)
}

fn parse_view(p: &mut dyn DialectAsmParser) -> ParseResult<Vec<DialectParam>> {
    let (shape, elem) = parse_shape_and_elem(p)?;
    p.parse_punct(Punct::Comma)?;
    if !p.parse_optional_keyword("strides") {
        return Err(p.emit_error("expected 'strides'"));
    }
    p.parse_punct(Punct::Equal)?;
    let strides = parse_stride_list(p)?;
    let memory = if p.parse_optional_punct(Punct::Comma) { parse_memory_kind(p)? } else { MemoryKind::Device };
    p.parse_punct(Punct::Greater)?;
    Ok(vec![
        int_list(&shape),
        DialectParam::Type(elem),
        int_list(&strides),
        DialectParam::Keyword(memory.keyword().into()),
    ])
}

fn parse_stream(_: &mut dyn DialectAsmParser) -> ParseResult<Vec<DialectParam>> {
    Ok(Vec::new())
}

fn is_scalar_element(ctx: &Context, t: Type) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Integer { .. } | TypeKind::Float(_) | TypeKind::Index)
}

fn check_extents(what: &str, v: &[i64]) -> Result<(), String> {
    match v.iter().find(|&&d| d < 0 && d != DYNAMIC) {
        Some(d) => Err(format!("{what} must be non-negative or '?', got {d}")),
        None => Ok(()),
    }
}

fn verify_common(ctx: &Context, params: &[DialectParam], kind_at: usize) -> Result<(Vec<i64>, Type), String> {
    let shape = params.first().and_then(ints).ok_or("expected a shape")?;
    let elem = params.get(1).and_then(DialectParam::as_type).ok_or("expected an element type")?;
    check_extents("extents", &shape)?;
    if !is_scalar_element(ctx, elem) {
        return Err("element type must be an integer, index or float type".into());
    }
    let kind = params.get(kind_at).and_then(DialectParam::as_keyword).ok_or("expected a memory kind")?;
    MemoryKind::from_keyword(kind).ok_or_else(|| format!("unknown memory kind '{kind}'"))?;
    Ok((shape, elem))
}

fn verify_buf(ctx: &Context, params: &[DialectParam]) -> Result<(), String> {
    if params.len() != 3 {
        return Err("expected shape, element type and memory kind".into());
    }
    verify_common(ctx, params, 2).map(|_| ())
}

fn verify_view(ctx: &Context, params: &[DialectParam]) -> Result<(), String> {
    if params.len() != 4 {
        return Err("expected shape, element type, strides and memory kind".into());
    }
    let (shape, _) = verify_common(ctx, params, 3)?;
    let strides = ints(&params[2]).ok_or("expected strides")?;
    check_extents("strides", &strides)?;
    if strides.len() != shape.len() {
        return Err(format!("expected {} strides (one per dimension), got {}", shape.len(), strides.len()));
    }
    Ok(())
}

fn verify_stream(_: &Context, params: &[DialectParam]) -> Result<(), String> {
    if params.is_empty() { Ok(()) } else { Err("!host.stream has no parameters".into()) }
}

fn print_shape_and_elem(p: &mut dyn DialectAsmPrinter, params: &[DialectParam]) {
    p.write("<");
    if let Some(shape) = params.first().and_then(ints) {
        p.print_dimension_list(&shape);
    }
    if let Some(elem) = params.get(1).and_then(DialectParam::as_type) {
        p.print_type(elem);
    }
}

fn print_memory_kind(p: &mut dyn DialectAsmPrinter, param: Option<&DialectParam>) {
    match param.and_then(DialectParam::as_keyword) {
        Some(kind) if kind != MemoryKind::Device.keyword() => p.write(&format!(", {kind}")),
        _ => {}
    }
}

fn print_buf(p: &mut dyn DialectAsmPrinter, params: &[DialectParam]) {
    print_shape_and_elem(p, params);
    print_memory_kind(p, params.get(2));
    p.write(">");
}

fn print_view(p: &mut dyn DialectAsmPrinter, params: &[DialectParam]) {
    print_shape_and_elem(p, params);
    let strides = params.get(2).and_then(ints).unwrap_or_default();
    let text: Vec<String> = strides.iter().map(|&s| if s == DYNAMIC { "?".into() } else { s.to_string() }).collect();
    p.write(&format!(", strides = [{}]", text.join(", ")));
    print_memory_kind(p, params.get(3));
    p.write(">");
}

fn print_stream(_: &mut dyn DialectAsmPrinter, _: &[DialectParam]) {}

pub static BUF: TypeDef = TypeDef {
    mnemonic: "buf",
    summary: "A contiguous allocation of one rank",
    description: "A row-major buffer owned by the executing rank: `!host.buf<SHAPE x ELEM [, KIND]>`. \
Extents are static or `?` (given to `host.alloc` at run time). The memory kind is `device` \
(default, not printed), `pinned` (page-locked host memory), `ipc` (device memory whose CUDA IPC \
handle peers may open) or `symmetric` (one allocation per rank, mapped by every rank).\n\n\
```mlir\n!host.buf<4x?xf32>\n!host.buf<128x1024xbf16, ipc>\n```",
    parse: parse_buf,
    verify: Some(verify_buf),
    print: print_buf,
};

pub static VIEW: TypeDef = TypeDef {
    mnemonic: "view",
    summary: "A strided window into a buffer",
    description: "A view aliases (part of) a buffer: `!host.view<SHAPE x ELEM, strides = [S...] [, KIND]>`, \
strides counted in elements, one per dimension, `?` when known only at run time. Views are made \
by `host.shard_by_stream`, `host.select` and `host.slice`; writing through a view writes the \
buffer.\n\n```mlir\n!host.view<2x8xf32, strides = [16, 1]>\n!host.view<?x8xbf16, strides = [8, 1], ipc>\n```",
    parse: parse_view,
    verify: Some(verify_view),
    print: print_view,
};

pub static STREAM: TypeDef = TypeDef {
    mnemonic: "stream",
    summary: "An ordered queue of device work",
    description: "Work posted to one stream runs in order; work on different streams may overlap \
unless ordered by `host.stream_wait`. Compute and communication ops post to the current stream.\n\n\
```mlir\n%s = host.current_stream : !host.stream\n```",
    parse: parse_stream,
    verify: Some(verify_stream),
    print: print_stream,
};
