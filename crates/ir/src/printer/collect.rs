//! The alias dry run and the alias definitions, as [`Printer`] methods: visiting every type and
//! attribute of an op tree in printing order fills the [`Aliases`](super::aliases::Aliases)
//! table (see `aliases.rs` for the numbering rules); the definitions (`#map = ...`) are then
//! printed before the op, or after it when deferred.
//!
//! Layer: printer passes, above `state.rs` and `aliases.rs`. Invariant: while `collecting`,
//! nothing is appended to the output.

use super::aliases::{Entry, Key, NONE, slot};
use super::state::{Elision, Printer};
use crate::attrs::{Attr, AttrKind};
use crate::ir::{BlockId, OpId, RegionId};
use crate::types::{Type, TypeKind};

impl Printer<'_> {
    // ----- visiting types and attributes (dry run) ------------------------------------------

    /// Visits a type; returns (depth, entry).
    pub fn visit_type(&mut self, t: Type, deferrable: bool) -> (u32, u32) {
        let existing = *slot(&mut self.aliases.type_entry, t.as_u32());
        if existing != NONE {
            if !deferrable {
                self.aliases.mark_non_deferrable(existing);
            }
            return (self.aliases.entries[existing as usize].depth, existing);
        }
        let ctx = self.ctx;
        let kind = ctx.type_kind(t);
        let base = match kind {
            TypeKind::Tuple(ts) if ts.len() > 16 => Some("tuple"),
            _ => None,
        };
        let idx = self.push_entry(Key::Type(t), base, deferrable);
        *slot(&mut self.aliases.type_entry, t.as_u32()) = idx;
        let mut children = Vec::new();
        let visit_t = |p: &mut Self, c: Type, ch: &mut Vec<(u32, u32)>| ch.push(p.visit_type(c, deferrable));
        match kind {
            TypeKind::Complex(e) | TypeKind::UnrankedTensor { elem: e } => visit_t(self, *e, &mut children),
            TypeKind::Tuple(ts) => {
                for &c in ts {
                    visit_t(self, c, &mut children);
                }
            }
            TypeKind::Function { inputs, results } => {
                for &c in inputs.iter().chain(results) {
                    visit_t(self, c, &mut children);
                }
            }
            TypeKind::RankedTensor { elem, encoding, .. } => {
                visit_t(self, *elem, &mut children);
                if let Some(a) = encoding {
                    children.push(self.visit_attr(*a, deferrable));
                }
            }
            TypeKind::Vector { elem, .. } => visit_t(self, *elem, &mut children),
            TypeKind::MemRef { elem, layout, memory_space, .. } => {
                visit_t(self, *elem, &mut children);
                if let Some(l) = layout.filter(|&l| !self.is_identity_layout(l)) {
                    children.push(self.visit_attr(l, deferrable));
                }
                if let Some(m) = memory_space.filter(|&m| !self.is_default_memory_space(m)) {
                    children.push(self.visit_attr(m, deferrable));
                }
            }
            TypeKind::UnrankedMemRef { elem, memory_space } => {
                visit_t(self, *elem, &mut children);
                if let Some(m) = memory_space.filter(|&m| !self.is_default_memory_space(m)) {
                    children.push(self.visit_attr(m, deferrable));
                }
            }
            TypeKind::Dialect(data) => self.visit_dialect_params(&data.params, deferrable, &mut children),
            _ => {}
        }
        self.finish_entry(idx, children)
    }

    /// Visits an attribute; returns (depth, entry).
    pub fn visit_attr(&mut self, a: Attr, deferrable: bool) -> (u32, u32) {
        let existing = *slot(&mut self.aliases.attr_entry, a.as_u32());
        if existing != NONE {
            if !deferrable {
                self.aliases.mark_non_deferrable(existing);
            }
            return (self.aliases.entries[existing as usize].depth, existing);
        }
        let ctx = self.ctx;
        let kind = ctx.attr_kind(a);
        let base = match kind {
            AttrKind::AffineMap(..) => Some("map"),
            AttrKind::IntegerSet(..) => Some("set"),
            k if k.is_location() => Some("loc"),
            AttrKind::Distinct { inner, .. } if !matches!(ctx.attr_kind(*inner), AttrKind::Unit) => Some("distinct"),
            _ => None,
        };
        let idx = self.push_entry(Key::Attr(a), base, deferrable);
        *slot(&mut self.aliases.attr_entry, a.as_u32()) = idx;
        let mut children = Vec::new();
        match kind {
            AttrKind::Array(elems) => {
                for &e in elems {
                    children.push(self.visit_attr(e, deferrable));
                }
            }
            AttrKind::Dictionary(entries) => {
                for &(_, v) in entries {
                    children.push(self.visit_attr(v, deferrable));
                }
            }
            AttrKind::Type(t) => children.push(self.visit_type(*t, deferrable)),
            AttrKind::Distinct { inner, .. } => children.push(self.visit_attr(*inner, deferrable)),
            AttrKind::DenseResource { ty, .. } | AttrKind::Sparse { ty, .. } => {
                children.push(self.visit_type(*ty, deferrable))
            }
            AttrKind::Dialect(data) => self.visit_dialect_params(&data.params, deferrable, &mut children),
            AttrKind::DenseElements { ty, .. } => children.push(self.visit_type(*ty, deferrable)),
            AttrKind::Integer { ty, .. } | AttrKind::Float { ty, .. } => {
                children.push(self.visit_type(*ty, deferrable));
            }
            AttrKind::String { ty: Some(ty), .. } | AttrKind::TypedOpaque { ty, .. } => {
                children.push(self.visit_type(*ty, deferrable))
            }
            AttrKind::NameLoc { child: Some(c), .. } if !matches!(ctx.attr_kind(*c), AttrKind::UnknownLoc) => {
                children.push(self.visit_attr(*c, deferrable));
            }
            AttrKind::CallSiteLoc { callee, caller } => {
                children.push(self.visit_attr(*callee, deferrable));
                children.push(self.visit_attr(*caller, deferrable));
            }
            AttrKind::FusedLoc { locs, metadata } => {
                if let Some(m) = metadata {
                    children.push(self.visit_attr(*m, deferrable));
                }
                for &l in locs {
                    children.push(self.visit_attr(l, deferrable));
                }
            }
            _ => {}
        }
        self.finish_entry(idx, children)
    }

    fn push_entry(&mut self, key: Key, base: Option<&'static str>, deferrable: bool) -> u32 {
        let idx = self.aliases.entries.len() as u32;
        self.aliases.entries.push(Entry { key, base, depth: base.is_some() as u32, deferrable, children: Vec::new() });
        idx
    }

    fn finish_entry(&mut self, idx: u32, children: Vec<(u32, u32)>) -> (u32, u32) {
        let max_child = children.iter().map(|c| c.0).max().unwrap_or(0);
        let e = &mut self.aliases.entries[idx as usize];
        if max_child > 0 {
            e.depth = max_child + 1;
        }
        e.children = children.into_iter().map(|c| c.1).collect();
        (e.depth, idx)
    }

    // ----- the dry run over ops (mlir-opt's DummyAliasOperationPrinter) ---------------------

    /// Visits everything `op` prints, in the order mlir-opt's alias pass visits it: the
    /// location, then (generic form) the regions, operand types, result types and attributes,
    /// or (custom form) whatever the op's printer prints.
    pub fn collect_op(&mut self, op: OpId) {
        let ir = self.ir;
        if self.flags.debug_info {
            self.visit_attr(ir.loc(op), true);
        }
        if !self.flags.generic && self.run_custom_printer(op) {
            return;
        }
        self.collect_generic(op);
    }

    fn collect_generic(&mut self, op: OpId) {
        let (ctx, ir) = (self.ctx, self.ir);
        for &r in ir.regions(op) {
            self.collect_region(r, true);
        }
        for i in 0..ir.num_operands(op) {
            self.visit_type(ir.value_type(ir.operand(op, i)), false);
        }
        for &v in ir.results(op) {
            self.visit_type(ir.value_type(v), false);
        }
        // Registered ops report their properties among their attributes (sorted by name);
        // the properties of unregistered ops are not visited.
        let def = self.op_names.def(ctx, ir.op_name(op));
        let registered = self.inherent_names(op, def).is_some();
        match ir.props(op) {
            Some(props) if registered && !ctx.dict_entries(props).is_empty() => {
                let mut all: Vec<(&str, Attr)> = ctx
                    .dict_entries(props)
                    .iter()
                    .chain(ctx.dict_entries(ir.attrs(op)))
                    .map(|&(k, v)| (ctx.ident_str(k), v))
                    .collect();
                all.sort_by(|a, b| a.0.cmp(b.0));
                for (_, v) in all {
                    self.visit_attr(v, false);
                }
            }
            _ => {
                for &(_, v) in ctx.dict_entries(ir.attrs(op)) {
                    self.visit_attr(v, false);
                }
            }
        }
    }

    pub fn collect_region(&mut self, r: RegionId, print_entry_args: bool) {
        // Skipped regions contribute no aliases (MLIR's alias collection skips them too).
        if self.flags.skip_regions {
            return;
        }
        let blocks = self.ir.region_blocks(r);
        for (i, &b) in blocks.iter().enumerate() {
            self.collect_block(b, i != 0 || print_entry_args);
        }
    }

    fn collect_block(&mut self, b: BlockId, print_args: bool) {
        let ir = self.ir;
        if print_args {
            for &arg in ir.block_args(b) {
                self.visit_type(ir.value_type(arg), false);
                if self.flags.debug_info {
                    let loc = ir.value_loc(arg).unwrap_or_else(|| self.ctx.unknown_loc());
                    self.visit_attr(loc, false);
                }
            }
        }
        for op in ir.block_ops(b) {
            self.collect_op(op);
        }
    }

    /// Runs the alias dry run over `root` and numbers the aliases.
    pub fn collect_aliases(&mut self, root: OpId) {
        self.collecting = true;
        self.collect_op(root);
        self.collecting = false;
        self.aliases.finalize();
    }

    // ----- printing the definitions ---------------------------------------------------------

    /// `#map = affine_map<...>` lines of the aliases printed before the op (or after it, for
    /// `deferred`), each followed by a newline.
    pub fn print_alias_definitions(&mut self, deferred: bool) {
        let defs: Vec<(Key, Box<str>)> =
            self.aliases.definitions().filter(|d| d.2 == deferred).map(|(k, name, _)| (k, name.into())).collect();
        for (key, name) in defs {
            self.push(&name);
            self.push(" = ");
            match key {
                Key::Type(t) => self.print_type_impl(t),
                Key::Attr(a) => self.print_attr_impl(a, Elision::Never),
            }
            self.push_char('\n');
        }
    }
}
