//! Operations, regions, blocks and the top level of a file: the generic op form, custom op
//! dispatch to registered `parse` hooks (with MLIR's default-dialect rule for unprefixed
//! names), result binding, block labels and forward references, trailing locations
//! (`loc(#alias)` may name an alias defined later in the file), alias definitions, and the
//! implicit `builtin.module` wrapper.

use super::lexer::{TokKind, parse_u64_literal, string_value};
use super::{DeferredLoc, NameInfo, PResult, Parser};
use crate::asm::{Argument, OpAsmParser, ParseResult};
use crate::attrs::{Attr, AttrKind};
use crate::ir::{BlockId, OpId, OperationState, RegionId, Value};
use crate::registry::{OpDef, ParseFn, Traits};
use smallvec::SmallVec;

/// Where a trailing location goes.
#[derive(Clone, Copy)]
enum LocTarget {
    Op(OpId),
    Arg(Value),
}

/// `%name` or `%name:N` in front of an op.
struct ResultGroup<'a> {
    name: &'a [u8],
    count: u64,
    offset: usize,
}

const MODULE: &str = "builtin.module";

impl<'a> Parser<'a> {
    // ----- top level --------------------------------------------------------------------------

    pub(super) fn parse_top_level(&mut self, implicit_module: bool) -> PResult<OpId> {
        if self.diag.is_some() {
            return Err(super::ParseFailure);
        }
        let top = self.ir.create_block(&[]);
        loop {
            match self.tok.kind {
                TokKind::Eof => break,
                TokKind::Error => return Err(super::ParseFailure),
                TokKind::HashIdent => self.parse_attr_alias_def()?,
                TokKind::BangIdent => self.parse_type_alias_def()?,
                TokKind::MetadataBegin => self.parse_file_metadata()?,
                _ => self.parse_operation(top)?,
            }
        }
        self.finalize(top)?;
        let ops: Vec<OpId> = self.ir.block_ops(top).collect();
        if !implicit_module && ops.len() != 1 {
            let loc = self.ctx.file_loc(&self.file.name, 0, 0);
            let msg = format!("source must contain a single top-level operation, found: {}", ops.len());
            self.diag = Some(crate::diag::Diagnostic::error(loc, msg));
            return Err(super::ParseFailure);
        }
        if ops.len() == 1 && (!implicit_module || self.ctx.op_name_str(self.ir.op_name(ops[0])) == MODULE) {
            self.ir.detach_op(ops[0]);
            return Ok(ops[0]);
        }
        let region = self.ir.create_region();
        let body = self.ir.create_block(&[]);
        self.ir.append_block(region, body);
        self.ir.splice_block_ops(top, body);
        let state = OperationState {
            name: self.ctx.op_name(MODULE),
            operands: Vec::new(),
            result_types: Vec::new(),
            successors: Vec::new(),
            regions: vec![region],
            attrs: self.ctx.empty_dict(),
            props: None,
            loc: self.ctx.file_loc(&self.file.name, 0, 0),
        };
        Ok(self.ir.create_op(state))
    }

    fn parse_attr_alias_def(&mut self) -> PResult<()> {
        let name = &self.tok_text()[1..];
        if self.attr_aliases.contains_key(name) {
            let msg = format!("redefinition of attribute alias id '{}'", self.str_of(name));
            return Err(self.error_here(msg));
        }
        if name.contains(&b'.') {
            return Err(self.error_here("attribute names with a '.' are reserved for dialect-defined names"));
        }
        self.advance();
        self.expect(TokKind::Equal, "expected '=' in attribute alias definition")?;
        let a = self.parse_attribute(None)?;
        self.attr_aliases.insert(name, a);
        Ok(())
    }

    fn parse_type_alias_def(&mut self) -> PResult<()> {
        let name = &self.tok_text()[1..];
        if self.type_aliases.contains_key(name) {
            let msg = format!("redefinition of type alias id '{}'", self.str_of(name));
            return Err(self.error_here(msg));
        }
        if name.contains(&b'.') {
            return Err(self.error_here("type names with a '.' are reserved for dialect-defined names"));
        }
        self.advance();
        self.expect(TokKind::Equal, "expected '=' in type alias definition")?;
        let t = self.parse_type()?;
        self.type_aliases.insert(name, t);
        Ok(())
    }

    /// `{-# key: {...}, ... #-}` with keys `dialect_resources` / `external_resources`: the
    /// `builtin` dialect's hex blobs and the external resource groups are kept in the context's
    /// [`Resources`](crate::context::Resources) so the printer can write them back.
    fn parse_file_metadata(&mut self) -> PResult<()> {
        self.advance();
        if self.consume_if(TokKind::MetadataEnd) {
            return Ok(());
        }
        loop {
            if !self.is(TokKind::BareIdent) {
                // mlir-opt points at the last character of the buffer at its end.
                let at = if self.is(TokKind::Eof) { self.tok.start.saturating_sub(1) } else { self.tok.start };
                return Err(self.error_at(at, "expected identifier key in file metadata dictionary"));
            }
            let (key, key_at) = (self.tok_text(), self.tok.start);
            self.advance();
            self.expect(TokKind::Colon, "expected ':'")?;
            let dialect = match key {
                b"dialect_resources" => true,
                b"external_resources" => false,
                _ => {
                    let msg = format!("unknown key '{}' in file metadata dictionary", self.str_of(key));
                    return Err(self.error_at(key_at, msg));
                }
            };
            self.parse_resource_section(dialect)?;
            if !self.consume_if(TokKind::Comma) {
                break;
            }
        }
        self.expect(TokKind::MetadataEnd, "expected '#-}' to end file metadata")
    }

    /// A resource key: an identifier or a string.
    fn parse_resource_key(&mut self) -> PResult<(String, usize)> {
        let at = self.tok.start;
        let key = match self.tok.kind {
            TokKind::BareIdent => self.str_of(self.tok_text()),
            TokKind::String => String::from_utf8_lossy(&super::lexer::string_value(self.tok_text())).into_owned(),
            _ => return Err(self.error_at(at, "expected identifier key for 'resource' entry")),
        };
        self.advance();
        Ok((key, at))
    }

    /// `{ group: { key: value, ... }, ... }` of one section.
    fn parse_resource_section(&mut self, dialect: bool) -> PResult<()> {
        self.expect(TokKind::LBrace, "expected '{'")?;
        if self.consume_if(TokKind::RBrace) {
            return Ok(());
        }
        loop {
            let (group, group_at) = self.parse_resource_key()?;
            self.expect(TokKind::Colon, "expected ':'")?;
            if dialect && group != "builtin" {
                let msg = match self.ctx.dialect(&group) {
                    None => format!("dialect '{group}' is unknown"),
                    Some(_) => format!("unexpected 'resource' section for dialect '{group}'"),
                };
                return Err(self.error_at(group_at, msg));
            }
            self.expect(TokKind::LBrace, "expected '{'")?;
            let mut entries = Vec::new();
            if !self.consume_if(TokKind::RBrace) {
                loop {
                    let (key, _) = self.parse_resource_key()?;
                    self.expect(TokKind::Colon, "expected ':'")?;
                    let value_at = self.tok.start;
                    let text = self.str_of(self.tok_text());
                    let value = match self.tok.kind {
                        TokKind::String | TokKind::BareIdent if !dialect => text,
                        TokKind::String if text.starts_with("\"0x") => {
                            let hex = &text[3..text.len() - 1];
                            if hex.len() < 8 {
                                let msg = format!(
                                    "expected hex string blob for key '{key}' to encode alignment in first 4 bytes"
                                );
                                return Err(self.error_at(value_at, msg));
                            }
                            format!("\"0x{}\"", hex.to_ascii_uppercase())
                        }
                        _ if dialect => {
                            return Err(self.error_at(value_at, format!("expected hex string blob for key '{key}'")));
                        }
                        _ => return Err(self.wrong_token("expected a resource value")),
                    };
                    self.advance();
                    entries.push((key, value));
                    if !self.consume_if(TokKind::Comma) {
                        break;
                    }
                }
                self.expect(TokKind::RBrace, "expected '}'")?;
            }
            let mut res = self.ctx.resources();
            if dialect {
                res.blobs.extend(entries);
            } else {
                res.external.push((group, entries));
            }
            drop(res);
            if !self.consume_if(TokKind::Comma) {
                break;
            }
        }
        self.expect(TokKind::RBrace, "expected '}'")
    }

    /// Undefined forward references, then deferred location aliases.
    fn finalize(&mut self, top: BlockId) -> PResult<()> {
        if !self.forward_refs.is_empty() {
            let mut offsets: Vec<usize> = self.forward_refs.values().copied().collect();
            offsets.sort_unstable();
            for off in offsets {
                self.error_also(off, "use of undeclared SSA value name");
            }
            return Err(super::ParseFailure);
        }
        if !self.deferred_locs.is_empty() {
            self.resolve_deferred_locs(top)?;
        }
        Ok(())
    }

    fn resolve_deferred_locs(&mut self, top: BlockId) -> PResult<()> {
        let mut resolved: Vec<Attr> = Vec::with_capacity(self.deferred_locs.len());
        for i in 0..self.deferred_locs.len() {
            let d = &self.deferred_locs[i];
            let (name, offset) = (d.name, d.offset);
            let Some(a) = self.attr_aliases.get(name).copied() else {
                return Err(self.error_at(offset, "operation location alias was never defined"));
            };
            if !self.ctx.attr_kind(a).is_location() {
                let msg = format!("expected location, but found '{}'", super::display::attr_to_string(self.ctx, a));
                return Err(self.error_at(offset, msg));
            }
            resolved.push(a);
        }
        let markers: rustc_hash::FxHashMap<Attr, Attr> =
            self.deferred_locs.iter().map(|d| d.marker).zip(resolved).collect();
        let tops: Vec<OpId> = self.ir.block_ops(top).collect();
        let mut all = Vec::new();
        for t in tops {
            all.extend(self.ir.collect_ops(t, crate::ir::WalkOrder::PreOrder));
        }
        for op in all {
            if let Some(&l) = markers.get(&self.ir.loc(op)) {
                self.ir.set_loc(op, l);
            }
            for &r in self.ir.regions(op).to_vec().iter() {
                for &b in self.ir.region_blocks(r).to_vec().iter() {
                    for &a in self.ir.block_args(b).to_vec().iter() {
                        if let Some(l) = self.ir.value_loc(a).and_then(|l| markers.get(&l).copied()) {
                            self.ir.set_value_loc(a, Some(l));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    // ----- operations -------------------------------------------------------------------------

    pub(super) fn parse_operation(&mut self, block: BlockId) -> PResult<()> {
        let loc_off = self.tok.start;
        let mut groups: SmallVec<[ResultGroup<'a>; 1]> = SmallVec::new();
        let mut expected: u64 = 0;
        if self.is(TokKind::PercentIdent) {
            loop {
                let name_tok = self.tok;
                self.expect(TokKind::PercentIdent, "expected valid ssa identifier")?;
                let mut count = 1u64;
                if self.consume_if(TokKind::Colon) {
                    if !self.is(TokKind::Integer) {
                        return Err(self.wrong_token("expected integer number of results"));
                    }
                    let v = std::str::from_utf8(self.tok_text()).ok().and_then(parse_u64_literal);
                    match v {
                        Some(v) if v >= 1 => count = v,
                        _ => return Err(self.error_here("expected named operation to have at least 1 result")),
                    }
                    self.advance();
                }
                groups.push(ResultGroup { name: self.text(name_tok), count, offset: name_tok.start });
                expected = expected.saturating_add(count);
                if !self.consume_if(TokKind::Comma) {
                    break;
                }
            }
            self.expect(TokKind::Equal, "expected '=' after SSA name")?;
        }
        let op = match self.tok.kind {
            TokKind::BareIdent => self.parse_custom_op(block, expected)?,
            TokKind::String => self.parse_generic_op(block)?,
            _ => return Err(self.wrong_token("expected operation name in quotes")),
        };
        if groups.is_empty() {
            return Ok(());
        }
        let n = self.ir.num_results(op) as u64;
        if n == 0 {
            return Err(self.error_at(loc_off, "cannot name an operation with no results"));
        }
        if n != expected {
            let msg = format!("operation defines {n} results but was provided {expected} to bind");
            return Err(self.error_at(loc_off, msg));
        }
        let mut i = 0;
        for g in groups {
            for sub in 0..g.count as u32 {
                let v = self.ir.result(op, i);
                self.define_value(g.name, sub, g.offset, v)?;
                i += 1;
            }
        }
        Ok(())
    }

    fn resolve_generic_name(&mut self, spelling: &'a [u8]) -> PResult<NameInfo> {
        if let Some(info) = self.op_names.get(spelling) {
            return Ok(*info);
        }
        let raw = string_value(spelling);
        if raw.is_empty() {
            return Err(self.error_here("empty operation name is invalid"));
        }
        if raw.contains(&0) {
            return Err(self.error_here("null character not allowed in operation name"));
        }
        let name = String::from_utf8_lossy(&raw).into_owned();
        let def = self.ctx.registry().op(&name);
        let dialect = name.split_once('.').map_or(name.as_str(), |(d, _)| d);
        let dialect_registered = self.ctx.dialect(dialect).is_some();
        let info = NameInfo { name: self.ctx.op_name(&name), def, dialect_registered };
        self.op_names.insert(spelling, info);
        Ok(info)
    }

    fn parse_generic_op(&mut self, block: BlockId) -> PResult<OpId> {
        let name_off = self.tok.start;
        let loc = self.loc_at(name_off);
        let info = self.resolve_generic_name(self.tok_text())?;
        self.advance();
        if info.def.is_none() && !info.dialect_registered && !self.ctx.allows_unregistered() {
            return Err(self.error_here(
                "operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used",
            ));
        }
        let mut state = OperationState {
            name: info.name,
            operands: Vec::new(),
            result_types: Vec::new(),
            successors: Vec::new(),
            regions: Vec::new(),
            attrs: self.ctx.empty_dict(),
            props: None,
            loc,
        };
        self.parse_generic_after_name(&mut state, info.def)?;
        self.check_inherent_attrs(&state, info.def, name_off)?;
        // An unregistered op of a registered dialect parses fine; the verifier rejects it
        // (with the `see current operation` note, as mlir-opt does).
        self.finish_op(block, state, info.def)
    }

    /// mlir-opt checks the inherent attributes that a generic op without `<{...}>` writes in its
    /// dictionary while parsing it (MLIR's `verifyInherentAttrs`): an error at the op's name,
    /// without the verifier's `see current operation` note.
    fn check_inherent_attrs(&mut self, state: &OperationState, def: Option<&'static OpDef>, at: usize) -> PResult<()> {
        let Some(decl) = def.filter(|_| state.props.is_none()).and_then(|d| d.decl) else { return Ok(()) };
        for d in decl.attributes {
            if let Some(a) = self.ctx.dict_get(state.attrs, d.name)
                && !crate::declare::attr_accepts(&d.constraint, self.ctx, a)
            {
                let name = self.ctx.op_name_str(state.name).to_string();
                let msg = format!(
                    "'{name}' op attribute '{}' failed to satisfy constraint: {}",
                    d.name, d.constraint.description
                );
                return Err(self.error_at(at, msg));
            }
        }
        Ok(())
    }

    /// Moves inherent attributes of a registered op from the dictionary to its properties,
    /// creates the op, appends it to `block` and parses a trailing location.
    fn finish_op(&mut self, block: BlockId, mut state: OperationState, def: Option<&'static OpDef>) -> PResult<OpId> {
        if let Some(def) = def.filter(|d| state.props.is_none() && !d.properties.is_empty()) {
            {
                let (props, rest): (Vec<_>, Vec<_>) = self
                    .ctx
                    .dict_entries(state.attrs)
                    .iter()
                    .copied()
                    .partition(|(k, _)| def.properties.contains(&self.ctx.ident_str(*k)));
                if !props.is_empty() {
                    state.props = Some(self.ctx.dictionary(props));
                    state.attrs = self.ctx.dictionary(rest);
                }
            }
        }
        if let Some(def) = def {
            // MLIR stores default-valued properties always, whichever form the op was parsed from.
            state.props = def.complete_props(self.ctx, state.props);
        }
        let op = self.ir.create_op(state);
        self.ir.append_op(block, op);
        self.parse_trailing_location(LocTarget::Op(op))?;
        Ok(op)
    }

    fn parse_generic_after_name(&mut self, state: &mut OperationState, def: Option<&'static OpDef>) -> PResult<()> {
        let mut operands: SmallVec<[(&'a [u8], u32, usize); 4]> = SmallVec::new();
        self.expect(TokKind::LParen, "expected '(' to start operand list")?;
        if self.is(TokKind::PercentIdent) {
            loop {
                operands.push(self.parse_ssa_use(true)?);
                if !self.consume_if(TokKind::Comma) {
                    break;
                }
            }
        }
        self.expect(TokKind::RParen, "expected ')' to end operand list")?;
        if self.is(TokKind::LSquare) {
            if def.is_some_and(|d| !d.has(Traits::TERMINATOR)) {
                return Err(self.error_here("successors in non-terminator"));
            }
            self.advance();
            if !self.consume_if(TokKind::RSquare) {
                loop {
                    let b = self.parse_successor_block()?;
                    state.successors.push(b);
                    if !self.consume_if(TokKind::Comma) {
                        break;
                    }
                }
                self.expect(TokKind::RSquare, "expected ']'")?;
            }
        }
        if self.consume_if(TokKind::Less) {
            state.props = Some(self.parse_attribute(None)?);
            self.expect(TokKind::Greater, "expected '>' to close properties")?;
        }
        if self.consume_if(TokKind::LParen) {
            loop {
                let r = self.ir.create_region();
                state.regions.push(r);
                self.parse_region_into(r, &[])?;
                if !self.consume_if(TokKind::Comma) {
                    break;
                }
            }
            self.expect(TokKind::RParen, "expected ')' to end region list")?;
        }
        if self.is(TokKind::LBrace) {
            state.attrs = self.parse_attr_dict_attr()?;
        }
        if !self.is(TokKind::Colon) {
            return Err(self.wrong_token("expected ':' followed by operation type"));
        }
        self.advance();
        let type_off = self.tok.start;
        let fn_type = self.parse_type()?;
        let ctx = self.ctx;
        let crate::types::TypeKind::Function { inputs, results } = ctx.type_kind(fn_type) else {
            return Err(self.error_at(type_off, "expected function type"));
        };
        state.result_types = results.clone();
        if inputs.len() != operands.len() {
            let plural = if operands.len() == 1 { "\0" } else { "s" };
            let msg = format!("expected {} operand type{plural} but had {}", operands.len(), inputs.len());
            return Err(self.error_at(type_off, msg));
        }
        state.operands.reserve(operands.len());
        for (&(name, number, offset), &ty) in operands.iter().zip(inputs.iter()) {
            let v = self.resolve_value(name, number, offset, ty)?;
            state.operands.push(v);
        }
        Ok(())
    }

    /// `%name` or `%name#N`: (name, number, offset).
    pub(super) fn parse_ssa_use(&mut self, allow_number: bool) -> PResult<(&'a [u8], u32, usize)> {
        let t = self.tok;
        self.expect(TokKind::PercentIdent, "expected SSA operand")?;
        let mut number = 0u32;
        if self.is(TokKind::HashIdent) {
            if !allow_number {
                return Err(self.error_here("result number not allowed in argument list"));
            }
            let digits = &self.tok_text()[1..];
            match std::str::from_utf8(digits)
                .ok()
                .filter(|d| d.bytes().all(|c| c.is_ascii_digit()))
                .and_then(|d| d.parse::<u32>().ok())
            {
                Some(n) => number = n,
                None => return Err(self.error_here("invalid SSA value result number")),
            }
            self.advance();
        }
        Ok((self.text(t), number, t.start))
    }

    /// `^name` as a branch target (a forward reference creates the block).
    pub(super) fn parse_successor_block(&mut self) -> PResult<BlockId> {
        if !self.is(TokKind::CaretIdent) {
            return Err(self.wrong_token("expected block name"));
        }
        let name = self.tok_text();
        let off = self.tok.start;
        self.advance();
        if self.block_scopes.is_empty() {
            return Err(self.error_at(off, "reference to an undefined block"));
        }
        let scope = self.block_scopes.last_mut().expect("checked non-empty");
        if let Some(e) = scope.get(name) {
            return Ok(e.block);
        }
        let b = self.ir.create_block(&[]);
        self.block_scopes
            .last_mut()
            .expect("checked non-empty")
            .insert(name, super::BlockEntry { block: b, offset: off, defined: false });
        Ok(b)
    }

    // ----- custom operations ------------------------------------------------------------------

    fn parse_custom_op(&mut self, block: BlockId, num_results: u64) -> PResult<OpId> {
        let name_off = self.tok.start;
        let written = self.str_of(self.tok_text());
        self.advance();
        let mut full = written.clone();
        let mut def = self.ctx.registry().op(&written);
        if def.is_none() && !written.contains('.') {
            let d = self.default_dialects.last().copied().unwrap_or("");
            full = format!("{d}.{written}");
            def = self.ctx.registry().op(&full);
        }
        let tried = if full != written { format!(" (tried '{full}' as well)") } else { String::new() };
        let dialect = full.split_once('.').map_or(full.as_str(), |(d, _)| d).to_string();
        let (hook, default_dialect): (ParseFn, &'static str) = match def {
            Some(d) => match d.parse {
                Some(h) => (h, d.default_dialect.unwrap_or("")),
                None => {
                    let msg = format!("custom op '{full}' has no custom assembly form");
                    return Err(self.error_at(name_off, msg));
                }
            },
            None if full == MODULE => (parse_module_fallback, "builtin"),
            None if self.ctx.dialect(&dialect).is_none() => {
                let msg = format!("Dialect `{dialect}' not found for custom op '{written}' {tried}");
                let mut names: Vec<&str> = self.ctx.registry().dialects().iter().map(|d| d.namespace).collect();
                names.sort_unstable();
                let note = format!(
                    "Registered dialects: {} ; for more info on dialect registration see https://mlir.llvm.org/getting_started/Faq/#registered-loaded-dependent-whats-up-with-dialects-management",
                    names.join(", ")
                );
                return Err(self.error_with_note(name_off, msg, name_off, &note));
            }
            None => {
                let msg = format!("custom op '{written}' is unknown{tried}");
                return Err(self.error_at(name_off, msg));
            }
        };
        let mut state = OperationState {
            name: self.ctx.op_name(&full),
            operands: Vec::new(),
            result_types: Vec::new(),
            successors: Vec::new(),
            regions: Vec::new(),
            attrs: self.ctx.empty_dict(),
            props: None,
            loc: self.loc_at(name_off),
        };
        self.default_dialects.push(default_dialect);
        self.custom_ops.push((full, num_results.min(usize::MAX as u64) as usize, name_off));
        let r = hook(self as &mut dyn OpAsmParser, &mut state);
        self.custom_ops.pop();
        self.default_dialects.pop();
        if r.is_err() || self.diag.is_some() {
            if self.diag.is_none() {
                let name = self.ctx.op_name_str(state.name).to_string();
                self.error_at(name_off, format!("custom op '{name}' failed to parse"));
            }
            return Err(super::ParseFailure);
        }
        self.finish_op(block, state, def)
    }

    // ----- regions and blocks -----------------------------------------------------------------

    /// `{ block* }` into the detached region `region`; `args` become entry block arguments.
    pub(super) fn parse_region_into(&mut self, region: RegionId, args: &[Argument]) -> PResult<()> {
        self.expect(TokKind::LBrace, "expected '{' to begin a region")?;
        self.enter_nesting()?;
        if !args.is_empty() || !self.is(TokKind::RBrace) {
            self.parse_region_body(region, args)?;
        }
        self.leave_nesting();
        // The body stops only at `}`.
        self.expect(TokKind::RBrace, "expected '}' to end a region")
    }

    fn parse_region_body(&mut self, region: RegionId, args: &[Argument]) -> PResult<()> {
        self.push_scope();
        let entry = self.ir.create_block(&[]);
        if !args.is_empty() && !args[0].operand.name.is_empty() {
            if self.is(TokKind::CaretIdent) {
                return Err(self.error_here("invalid block name in region with named arguments"));
            }
            for a in args {
                let u = &a.operand;
                let Some(name) = self.name_at(u.offset, &u.name) else {
                    return Err(self.error_at(u.offset, "invalid SSA name in region argument"));
                };
                if let Some(prev) = self.reference_offset(name, u.number) {
                    let msg = format!("region entry argument '{}' is already in use", u.name);
                    return Err(self.error_with_note(u.offset, msg, prev, "previously referenced here"));
                }
                let loc = a.loc.unwrap_or_else(|| self.loc_at(u.offset));
                let v = self.ir.add_block_arg(entry, a.ty, Some(loc));
                self.define_value(name, u.number, u.offset, v)?;
            }
        }
        self.parse_block(Some(entry))?;
        if !args.is_empty() && self.ir.block_args(entry).len() > args.len() {
            return Err(self.error_here("entry block arguments were already defined"));
        }
        self.ir.append_block(region, entry);
        while !self.is(TokKind::RBrace) {
            let b = self.parse_block(None)?;
            self.ir.append_block(region, b);
        }
        self.pop_scope()
    }

    /// A block: its label (optional for the entry block), arguments and operations.
    fn parse_block(&mut self, existing: Option<BlockId>) -> PResult<BlockId> {
        if let Some(b) = existing
            && !self.is(TokKind::CaretIdent)
        {
            self.parse_block_body(b)?;
            return Ok(b);
        }
        let name_off = self.tok.start;
        let name = self.tok_text();
        if !self.is(TokKind::CaretIdent) {
            return Err(self.wrong_token("expected block name"));
        }
        self.advance();
        let scope = self.block_scopes.last_mut().expect("a region scope is open");
        let block = match scope.get_mut(name) {
            None => {
                let b = match existing {
                    Some(b) => b,
                    None => self.ir.create_block(&[]),
                };
                let scope = self.block_scopes.last_mut().expect("a region scope is open");
                scope.insert(name, super::BlockEntry { block: b, offset: name_off, defined: true });
                b
            }
            Some(e) if !e.defined => {
                e.defined = true;
                e.offset = name_off;
                e.block
            }
            Some(_) => {
                let msg = format!("redefinition of block '{}'", self.str_of(name));
                return Err(self.error_at(name_off, msg));
            }
        };
        if self.is(TokKind::LParen) {
            self.parse_block_arg_list(block)?;
        }
        self.expect(TokKind::Colon, "expected ':' after block name")?;
        self.parse_block_body(block)?;
        Ok(block)
    }

    fn parse_block_body(&mut self, block: BlockId) -> PResult<()> {
        while !matches!(self.tok.kind, TokKind::CaretIdent | TokKind::RBrace) {
            self.parse_operation(block)?;
        }
        Ok(())
    }

    fn parse_block_arg_list(&mut self, block: BlockId) -> PResult<()> {
        let existing = self.ir.block_args(block).len();
        let mut next = 0usize;
        self.expect(TokKind::LParen, "expected '('")?;
        if self.consume_if(TokKind::RParen) {
            return Ok(());
        }
        loop {
            let (name, number, off) = self.parse_ssa_use(false)?;
            self.expect(TokKind::Colon, "expected ':' and type for SSA operand")?;
            let ty = self.parse_type()?;
            let v = if existing != 0 {
                if next >= existing {
                    return Err(self.error_here("too many arguments specified in argument list"));
                }
                let v = self.ir.block_args(block)[next];
                next += 1;
                if self.ir.value_type(v) != ty {
                    return Err(self.error_here("argument and block argument type mismatch"));
                }
                v
            } else {
                let loc = self.loc_at(off);
                self.ir.add_block_arg(block, ty, Some(loc))
            };
            self.parse_trailing_location(LocTarget::Arg(v))?;
            self.define_value(name, number, off, v)?;
            if !self.consume_if(TokKind::Comma) {
                break;
            }
        }
        self.expect(TokKind::RParen, "expected ')'")
    }

    // ----- locations --------------------------------------------------------------------------

    fn parse_trailing_location(&mut self, target: LocTarget) -> PResult<()> {
        let Some(loc) = self.parse_optional_location_specifier("expected '(' in location")? else {
            return Ok(());
        };
        match target {
            LocTarget::Op(op) => self.ir.set_loc(op, loc),
            LocTarget::Arg(v) => self.ir.set_value_loc(v, Some(loc)),
        }
        Ok(())
    }

    /// `loc(...)` if present. A `loc(#alias)` of an alias not yet defined yields a marker
    /// attribute that [`finalize`](Self::finalize) replaces.
    pub(super) fn parse_optional_location_specifier(&mut self, lparen_msg: &str) -> PResult<Option<Attr>> {
        if !self.is_kw("loc") {
            return Ok(None);
        }
        self.advance();
        self.expect(TokKind::LParen, lparen_msg)?;
        if self.is(TokKind::HashIdent) && self.tok_text().contains(&b'.') {
            // MLIR's `parseLocationAlias`: a dialect attribute is never a location alias.
            let msg = format!(
                "expected location, but found dialect attribute: '{}'",
                String::from_utf8_lossy(self.tok_text())
            );
            return Err(self.error_here(msg));
        }
        let loc = if self.is(TokKind::HashIdent) {
            let name = &self.tok_text()[1..];
            let offset = self.tok.start;
            self.advance();
            match self.attr_aliases.get(name).copied() {
                Some(a) => {
                    if !self.ctx.attr_kind(a).is_location() {
                        let msg =
                            format!("expected location, but found '{}'", super::display::attr_to_string(self.ctx, a));
                        return Err(self.error_at(offset, msg));
                    }
                    a
                }
                None => {
                    let idx = self.deferred_locs.len();
                    let marker = self.ctx.intern_attr(AttrKind::Opaque {
                        dialect: "\0deferred-location".into(),
                        body: idx.to_string().into(),
                        pretty: false,
                    });
                    self.deferred_locs.push(DeferredLoc { name, offset, marker });
                    marker
                }
            }
        } else {
            self.parse_location_instance()?
        };
        self.expect(TokKind::RParen, "expected ')' in location")?;
        Ok(Some(loc))
    }
}

/// `module @name? attributes {...}? { ... }` for contexts where the builtin dialect is not
/// registered (the dialects crate normally provides the hook).
fn parse_module_fallback(p: &mut dyn OpAsmParser, state: &mut OperationState) -> ParseResult<()> {
    let mut attrs = Vec::new();
    if let Some(name) = p.parse_optional_symbol_name() {
        let ctx = p.ctx();
        attrs.push((ctx.ident("sym_name"), ctx.string_attr(&name)));
    }
    p.parse_optional_attr_dict_with_keyword(&mut attrs)?;
    let region = p.ir_mut().create_region();
    p.parse_region(region, &[])?;
    if p.ir_mut().region_blocks(region).is_empty() {
        let b = p.ir_mut().create_block(&[]);
        p.ir_mut().append_block(region, b);
    }
    state.regions.push(region);
    state.attrs = p.ctx().dictionary(attrs);
    Ok(())
}
