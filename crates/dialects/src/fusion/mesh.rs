//! `fusion.mesh`: a named, n-dimensional grid of device ids (a symbol), and its decoded form
//! [`Mesh`] with the queries lowering needs (axis sizes, teams).
//!
//! Custom form: `fusion.mesh @tp = [0, 1, 2, 3]`, `fusion.mesh @m = [[0, 1, 2], [3, 4, 5]]`
//! (nested lists, rectangular), then an optional attribute dictionary. Properties: `devices`
//! (row-major `array<i64>`), `shape` (`array<i64>`), `sym_name`.
//!
//! Invariants (verifier): at least one device, positive extents, shape product = number of
//! ids, ids non-negative and distinct (the core's symbol checks require a symbol table as parent). `DIDx` is the
//! last mesh axis, `DIDy` the one before, `DIDz` the one before that.

use super::sharding::DeviceAxis;
use super::syntax::{i64_array, i64_array_attr};
use crate::support::{empty_state, inherent_attr, printed_attr_dict, split_inherent};
use crate::symbols::{lookup_in_table, nearest_symbol_table};
use fuser_ir::Attr;
use fuser_ir::asm::{OpAsmParser, OpAsmPrinter, ParseResult, Punct};
use fuser_ir::context::Context;
use fuser_ir::declare::AttrConstraint;
use fuser_ir::diag::Diagnostic;
use fuser_ir::ir::{Ir, OpId, OperationState};
use fuser_ir::registry::VerifyCtx;

/// A decoded `fusion.mesh`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Mesh {
    pub name: String,
    /// Extents of the mesh axes (the last one is `DIDx`).
    pub shape: Vec<i64>,
    /// Device ids in row-major order.
    pub devices: Vec<i64>,
}

impl Mesh {
    /// A 1-D mesh of the given devices.
    pub fn linear(name: &str, devices: &[i64]) -> Mesh {
        Mesh { name: name.to_string(), shape: vec![devices.len() as i64], devices: devices.to_vec() }
    }

    /// Decodes a `fusion.mesh` op (`None` for any other op or missing properties).
    pub fn of_op(ctx: &Context, ir: &Ir, op: OpId) -> Option<Mesh> {
        if ctx.op_name_str(ir.op_name(op)) != MESH.name {
            return None;
        }
        let name = inherent_attr(ctx, ir, op, "sym_name").and_then(|a| ctx.attr_str(a))?.to_string();
        let shape = i64_array(ctx, inherent_attr(ctx, ir, op, "shape")?)?;
        let devices = i64_array(ctx, inherent_attr(ctx, ir, op, "devices")?)?;
        Some(Mesh { name, shape, devices })
    }

    /// The mesh `name` seen from `from`: searched in the nearest enclosing symbol table, then in
    /// the ones around it.
    pub fn lookup(ctx: &Context, ir: &Ir, from: OpId, name: &str) -> Option<Mesh> {
        let mut table = nearest_symbol_table(ctx, ir, from);
        while let Some(t) = table {
            if let Some(op) = lookup_in_table(ctx, ir, t, name) {
                return Mesh::of_op(ctx, ir, op);
            }
            table = nearest_symbol_table(ctx, ir, t);
        }
        None
    }

    /// The index of `d`'s mesh axis, if the mesh has that many axes.
    pub fn axis_index(&self, d: DeviceAxis) -> Option<usize> {
        self.shape.len().checked_sub(1 + d.offset_from_last())
    }

    /// The number of devices along `d`'s mesh axis.
    pub fn axis_size(&self, d: DeviceAxis) -> Option<i64> {
        self.axis_index(d).map(|i| self.shape[i])
    }

    pub fn num_devices(&self) -> i64 {
        self.devices.len() as i64
    }

    /// The mesh coordinates of the device at row-major position `pos`.
    fn coordinates(&self, mut pos: usize) -> Vec<usize> {
        let mut coords = vec![0; self.shape.len()];
        for (c, &extent) in coords.iter_mut().zip(&self.shape).rev() {
            let extent = extent.max(1) as usize;
            *c = pos % extent;
            pos /= extent;
        }
        coords
    }

    /// The devices sharing every mesh coordinate with `rank` except along `d` (the team of a
    /// collective over `d`), ordered along that axis. `None` if `rank` is not in the mesh or
    /// the mesh has no such axis.
    pub fn team(&self, rank: i64, d: DeviceAxis) -> Option<Vec<i64>> {
        let axis = self.axis_index(d)?;
        let me = self.coordinates(self.devices.iter().position(|&x| x == rank)?);
        let team = (0..self.devices.len())
            .filter(|&pos| {
                let c = self.coordinates(pos);
                c.iter().zip(&me).enumerate().all(|(i, (a, b))| i == axis || a == b)
            })
            .map(|pos| self.devices[pos])
            .collect();
        Some(team)
    }

    /// The position of `rank` along `d`'s axis (its index in [`Mesh::team`]).
    pub fn team_index(&self, rank: i64, d: DeviceAxis) -> Option<usize> {
        let axis = self.axis_index(d)?;
        Some(self.coordinates(self.devices.iter().position(|&x| x == rank)?)[axis])
    }

    /// The rules the verifier enforces, as a message.
    pub fn validate(&self) -> Result<(), String> {
        if self.devices.is_empty() {
            return Err("mesh must hold at least one device".into());
        }
        if let Some(e) = self.shape.iter().find(|&&e| e <= 0) {
            return Err(format!("mesh extents must be positive, got {e}"));
        }
        let product = self.shape.iter().try_fold(1i64, |acc, &e| acc.checked_mul(e));
        if product != Some(self.num_devices()) {
            return Err(format!(
                "mesh shape {} holds {} devices, but {} ids are given",
                shape_text(&self.shape),
                product.map_or("too many".to_string(), |p| p.to_string()),
                self.devices.len()
            ));
        }
        if let Some(id) = self.devices.iter().find(|&&id| id < 0) {
            return Err(format!("device ids must be non-negative, got {id}"));
        }
        let mut sorted = self.devices.clone();
        sorted.sort_unstable();
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!("device id {} appears more than once", w[0]));
        }
        Ok(())
    }
}

fn shape_text(shape: &[i64]) -> String {
    format!("[{}]", shape.iter().map(i64::to_string).collect::<Vec<_>>().join(", "))
}

const I64_ARRAY: AttrConstraint =
    AttrConstraint::new("i64 dense array attribute", |ctx, a| i64_array(ctx, a).is_some());
const STRING: AttrConstraint = AttrConstraint::new("string attribute", |ctx, a| ctx.attr_str(a).is_some());

fuser_ir::declare_op! {
    pub static MESH: "fusion.mesh" {
        summary: "Declares a named grid of devices",
        description: "A symbol naming an n-dimensional, rectangular grid of distinct device ids \
(device id = global rank). Shardings refer to it by name; `DIDx` is its last axis, `DIDy` the \
one before, `DIDz` the one before that. It must sit directly in a symbol table (a module).\n\n\
```mlir\nfusion.mesh @tp = [0, 1, 2, 3]\nfusion.mesh @m = [[0, 1, 2], [3, 4, 5]]\n```\n\n\
In `@m`, `DIDx` has size 3 (devices `3, 4, 5` form the DIDx team of device 4) and `DIDy` size 2 \
(devices `1, 4`).\n\n\
The mesh also verifies the signatures of the `func.func` ops beside it, for the values no \
fusion op checks (an argument no fusion op uses, a result no fusion op defines): a sharding \
that names the mesh must have one split list per axis, device axes the mesh has, and static \
extents divisible by their splits.",
        traits: [SYMBOL],
        properties: { devices: I64_ARRAY, shape: I64_ARRAY, sym_name: STRING },
        hooks: { verify: verify_mesh, parse: parse_mesh, print: print_mesh },
    }
}

/// The state of `fusion.mesh @name = devices` with the given shape.
pub fn mesh_state(ctx: &Context, mesh: &Mesh, loc: Attr) -> OperationState {
    let mut state = empty_state(ctx, MESH.name, loc);
    state.props = Some(mesh_props(ctx, &mesh.name, &mesh.shape, &mesh.devices, Vec::new()));
    state
}

fn mesh_props(
    ctx: &Context,
    name: &str,
    shape: &[i64],
    devices: &[i64],
    mut extra: Vec<(fuser_ir::Ident, Attr)>,
) -> Attr {
    extra.push((ctx.ident("devices"), i64_array_attr(ctx, devices)));
    extra.push((ctx.ident("shape"), i64_array_attr(ctx, shape)));
    extra.push((ctx.ident("sym_name"), ctx.string_attr(name)));
    ctx.dictionary(extra)
}

fn verify_mesh(v: &VerifyCtx<'_>, op: OpId) -> Result<(), Diagnostic> {
    let Some(mesh) = Mesh::of_op(v.ctx, v.ir, op) else { return Ok(()) };
    mesh.validate().map_err(|m| v.op_error(op, m))?;
    // The functions beside the mesh: their signatures' shardings over it.
    let (ctx, ir) = (v.ctx, v.ir);
    let Some(block) = ir.op_block(op) else { return Ok(()) };
    for sibling in ir.block_ops(block) {
        if ctx.op_name_str(ir.op_name(sibling)) == "func.func" {
            super::verify::verify_signature_shardings(v, sibling, &mesh.name)?;
        }
    }
    Ok(())
}

/// A nested list of integers: `3`, `[0, 1]`, `[[0, 1], [2, 3]]`, read into (shape, values).
/// Every sub-list of one level must have the same shape.
fn parse_nested_ints(p: &mut dyn OpAsmParser, depth: usize) -> ParseResult<(Vec<i64>, Vec<i64>)> {
    if depth > fuser_ir::parser::MAX_NESTING {
        return Err(p.emit_error("mesh nesting is too deep"));
    }
    if !p.parse_optional_punct(Punct::LSquare) {
        return Ok((Vec::new(), vec![p.parse_integer()?]));
    }
    let mut values = Vec::new();
    let mut inner_shape: Option<Vec<i64>> = None;
    let mut count = 0;
    if !p.parse_optional_punct(Punct::RSquare) {
        loop {
            let at = p.current_offset();
            let (shape, vals) = parse_nested_ints(p, depth + 1)?;
            match &inner_shape {
                Some(s) if *s != shape => return Err(p.emit_error_at(at, "mesh rows must all have the same shape")),
                _ => inner_shape = Some(shape),
            }
            values.extend(vals);
            count += 1;
            if !p.parse_optional_punct(Punct::Comma) {
                break;
            }
        }
        p.parse_punct(Punct::RSquare)?;
    }
    let mut shape = vec![count];
    shape.extend(inner_shape.unwrap_or_default());
    Ok((shape, values))
}

/// `@name = [ids] attr-dict`.
fn parse_mesh(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let name = p.parse_symbol_name()?;
    p.parse_punct(Punct::Equal)?;
    let at = p.current_offset();
    let (shape, devices) = parse_nested_ints(p, 0)?;
    if shape.is_empty() {
        return Err(p.emit_error_at(at, "expected a list of device ids such as [0, 1]"));
    }
    let mut entries = Vec::new();
    p.parse_optional_attr_dict(&mut entries)?;
    let ctx = p.ctx();
    let (props, attrs) = split_inherent(ctx, &MESH, entries);
    let props: Vec<_> =
        props.into_iter().filter(|(k, _)| !["devices", "shape", "sym_name"].contains(&ctx.ident_str(*k))).collect();
    state.props = Some(mesh_props(ctx, &name, &shape, &devices, props));
    state.attrs = ctx.dictionary(attrs);
    Ok(())
}

/// The ids as nested lists following the shape (`[[0, 1], [2, 3]]`).
fn nested_text(shape: &[i64], devices: &[i64]) -> String {
    let Some((&outer, inner)) = shape.split_first() else {
        return devices.first().map_or(String::new(), i64::to_string);
    };
    let stride = inner.iter().product::<i64>().max(1) as usize;
    let rows: Vec<String> = (0..outer.max(0) as usize)
        .map(|i| {
            let start = (i * stride).min(devices.len());
            let end = ((i + 1) * stride).min(devices.len());
            nested_text(inner, &devices[start..end])
        })
        .collect();
    format!("[{}]", rows.join(", "))
}

fn print_mesh(p: &mut dyn OpAsmPrinter, op: OpId) {
    let (mesh, dict) = {
        let (ctx, ir) = (p.ctx(), p.ir());
        (Mesh::of_op(ctx, ir, op), printed_attr_dict(ctx, ir, op))
    };
    let Some(mesh) = mesh else { return };
    p.write(" ");
    p.print_symbol_name(&mesh.name);
    // A shape that does not match the ids prints flat, so that nothing is lost.
    let text = if mesh.shape.iter().try_fold(1i64, |a, &e| a.checked_mul(e)) == Some(mesh.num_devices())
        && !mesh.shape.is_empty()
    {
        nested_text(&mesh.shape, &mesh.devices)
    } else {
        nested_text(&[mesh.num_devices()], &mesh.devices)
    };
    p.write(&format!(" = {text}"));
    p.print_optional_attr_dict(dict, &["devices", "shape", "sym_name"]);
}
