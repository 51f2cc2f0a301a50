//! What `fusion-to-host` knows about a tensor type: its global shape, element type, sharding and
//! mesh ([`TensorInfo`], decoded and checked by [`tensor_info`]), and [`TensorInfos`], which
//! decodes each distinct type of a function once.
//!
//! The cache keeps the pass linear in practice: a function of `n` layers has `O(n)` tensor
//! values but a handful of distinct types, so the sharding is parsed, the mesh looked up by
//! name and the local shape checked once per type instead of once per value, and the plan holds
//! shared descriptions instead of one heap copy per value.

use fuser_dialects::fusion::{Mesh, Sharding};
use fuser_ir::Type;
use fuser_ir::context::Context;
use fuser_ir::ir::{Ir, OpId};
use fuser_ir::types::{DYNAMIC, TypeKind};
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// The static description of a tensor value.
#[derive(Clone, Debug)]
pub struct TensorInfo {
    pub global: Vec<i64>,
    pub elem: Type,
    /// The sharding; replicated (with no mesh name) for an unannotated tensor.
    pub sharding: Sharding,
    pub mesh: Option<Mesh>,
}

impl TensorInfo {
    /// The shape one rank holds (`include_stream`: one iteration's chunk).
    pub fn local_shape(&self, include_stream: bool) -> Result<Vec<i64>, String> {
        match &self.mesh {
            Some(m) => self.sharding.local_shape(&self.global, m, include_stream),
            None => Ok(self.global.clone()),
        }
    }
    /// The single stream split `(axis, chunks)`, if any.
    pub fn stream(&self) -> Option<(usize, i64)> {
        self.sharding.stream_axes().first().map(|&(a, _, n)| (a, n))
    }
}

/// Decodes a static ranked tensor type, checking its sharding and mesh.
pub fn tensor_info(ctx: &Context, ir: &Ir, from: OpId, t: Type) -> Result<Option<TensorInfo>, String> {
    let TypeKind::RankedTensor { shape, elem, .. } = ctx.type_kind(t) else { return Ok(None) };
    if shape.contains(&DYNAMIC) {
        return Err("fusion-to-host needs static tensor shapes".into());
    }
    let Some(sharding) = Sharding::of_type(ctx, t) else {
        let sharding = Sharding::replicated("", shape.len());
        return Ok(Some(TensorInfo { global: shape.clone(), elem: *elem, sharding, mesh: None }));
    };
    if sharding.stream_axes().len() > 1 {
        return Err(format!(
            "a tensor may have at most one Stream split, got {}",
            sharding
                .stream_axes()
                .iter()
                .map(|&(a, _, n)| format!("Stream({n}) on axis {a}"))
                .collect::<Vec<_>>()
                .join(" and ")
        ));
    }
    let mesh = Mesh::lookup(ctx, ir, from, &sharding.mesh).ok_or_else(|| format!("unknown mesh @{}", sharding.mesh))?;
    check_mesh(&mesh)?;
    let info = TensorInfo { global: shape.clone(), elem: *elem, sharding, mesh: Some(mesh) };
    info.local_shape(true)?;
    Ok(Some(info))
}

/// The lowering supports 1-D meshes of devices `base, base+1, ...`.
pub fn check_mesh(mesh: &Mesh) -> Result<(), String> {
    let consecutive = mesh.devices.windows(2).all(|w| w[1] == w[0] + 1);
    if mesh.shape.len() != 1 || !consecutive {
        return Err("fusion-to-host supports 1-D meshes of consecutive devices".into());
    }
    Ok(())
}

/// [`tensor_info`] of each distinct type, decoded on first use.
///
/// Invariant: one cache serves one function, and every lookup starts from that function or an
/// op directly in its body. Those all resolve mesh names in the same symbol table (the
/// function's module: a `func.func` is not a symbol table), so a type decodes the same way
/// from any of them and the first decoding can be reused.
#[derive(Default)]
pub struct TensorInfos {
    by_type: FxHashMap<Type, Option<Rc<TensorInfo>>>,
}

impl TensorInfos {
    /// [`tensor_info`] of `t` seen from `from`; an error is not cached (the caller stops at it).
    pub fn get(&mut self, ctx: &Context, ir: &Ir, from: OpId, t: Type) -> Result<Option<Rc<TensorInfo>>, String> {
        if let Some(known) = self.by_type.get(&t) {
            return Ok(known.clone());
        }
        let info = tensor_info(ctx, ir, from, t)?.map(Rc::new);
        self.by_type.insert(t, info.clone());
        Ok(info)
    }
}
