//! A small emitter of fusion ops for the backward rules: each helper appends one op at the end
//! of the backward block and returns its result. Result types are unannotated (no sharding):
//! `fusion-propagate-sharding` gives the backward's intermediates their natural sharding.

use fuser_dialects::fusion::tensor_op_state;
use fuser_ir::apfloat::{ApFloat, RoundingMode};
use fuser_ir::attrs::{Attr, AttrKind};
use fuser_ir::context::Context;
use fuser_ir::ir::{BlockId, Ir, OpId, OperationState, Value};
use fuser_ir::types::{FloatKind, Type, TypeKind};

/// The discardable attribute naming what a backward GEMM computes
/// (`"dgrad of fusion.linear (forward op 3)"`), set by [`Builder::name_grad`] and quoted by the
/// overlap report of `fusion-to-host{report=true}`.
pub const GRAD_OF_ATTR: &str = "fusion.grad_of";

/// Appends fusion ops to `block` at location `loc`; records every op it creates (so that the
/// pass can erase the unused ones afterwards).
pub struct Builder<'a> {
    pub ctx: &'a Context,
    pub ir: &'a mut Ir,
    pub block: BlockId,
    pub loc: Attr,
    pub created: Vec<OpId>,
    /// The forward op whose rule is being applied, as the backward GEMMs name it
    /// (`"fusion.linear (forward op 3)"`; see [`Builder::name_grad`]).
    pub origin: String,
}

impl<'a> Builder<'a> {
    pub fn new(ctx: &'a Context, ir: &'a mut Ir, block: BlockId, loc: Attr) -> Self {
        Builder { ctx, ir, block, loc, created: Vec::new(), origin: String::new() }
    }

    /// Names the op defining `v` (a backward GEMM) by the discardable attribute
    /// `fusion.grad_of = "WHAT of ORIGIN"` (`"dgrad of fusion.linear (forward op 3)"`), which
    /// survives printing and the lowering passes, so that `fusion-to-host{report=true}` says
    /// which overlap each backward GEMM got.
    pub fn name_grad(&mut self, v: Value, what: &str) {
        let Some(op) = self.ir.defining_op(v) else { return };
        let text = self.ctx.string_attr(&format!("{what} of {}", self.origin));
        let attrs = self.ctx.dict_set(self.ir.attrs(op), GRAD_OF_ATTR, Some(text));
        self.ir.set_attrs(op, attrs);
    }

    /// The shape of the tensor `v`.
    pub fn shape(&self, v: Value) -> Vec<i64> {
        match self.ctx.type_kind(self.ir.value_type(v)) {
            TypeKind::RankedTensor { shape, .. } => shape.clone(),
            _ => Vec::new(),
        }
    }

    /// The element type of the tensor `v`.
    pub fn elem(&self, v: Value) -> Type {
        match self.ctx.type_kind(self.ir.value_type(v)) {
            TypeKind::RankedTensor { elem, .. } => *elem,
            _ => self.ir.value_type(v),
        }
    }

    /// The unannotated tensor type of `shape` and `elem`.
    pub fn ty(&self, shape: Vec<i64>, elem: Type) -> Type {
        self.ctx.tensor_type(shape, elem, None)
    }

    /// Appends `state` (one result) and returns its result.
    pub fn emit(&mut self, state: OperationState) -> Value {
        let op = self.ir.create_op(state);
        self.ir.append_op(self.block, op);
        self.created.push(op);
        self.ir.result(op, 0)
    }

    /// Appends `state` and returns all its results.
    pub fn emit_all(&mut self, state: OperationState) -> Vec<Value> {
        let op = self.ir.create_op(state);
        self.ir.append_op(self.block, op);
        self.created.push(op);
        self.ir.results(op).to_vec()
    }

    /// `fusion.sdpa_grad q, k, v, out, lse, dout` with the forward's properties `props`
    /// (`causal`, `scale`): `(dq, dk, dv)`, typed like `q`, `k`, `v` (unannotated).
    pub fn sdpa_grad(
        &mut self,
        qkv: [Value; 3],
        out: Value,
        lse: Value,
        dout: Value,
        props: Option<Attr>,
    ) -> Vec<Value> {
        let types = qkv.map(|v| self.ty(self.shape(v), self.elem(v))).to_vec();
        let mut state = tensor_op_state(
            self.ctx,
            "fusion.sdpa_grad",
            vec![qkv[0], qkv[1], qkv[2], out, lse, dout],
            types[0],
            None,
            false,
            self.loc,
        );
        state.result_types = types;
        state.props = props;
        self.emit_all(state)
    }

    /// `fusion.embedding_grad ids, g num_rows = rows`: a `[rows, E]` table gradient.
    pub fn embedding_grad(&mut self, ids: Value, g: Value, rows: i64) -> Value {
        let e = *self.shape(g).last().unwrap_or(&1);
        let ty = self.ty(vec![rows, e], self.elem(g));
        let n = self.ctx.int_attr(self.ctx.i64_type(), rows);
        self.op("fusion.embedding_grad", vec![ids, g], ty, vec![("num_rows", n)])
    }

    /// `fusion.one_hot labels num_classes = classes` in the float type `elem`.
    pub fn one_hot(&mut self, labels: Value, classes: i64, elem: Type) -> Value {
        let mut shape = self.shape(labels);
        shape.push(classes);
        let ty = self.ty(shape, elem);
        let n = self.ctx.int_attr(self.ctx.i64_type(), classes);
        self.op("fusion.one_hot", vec![labels], ty, vec![("num_classes", n)])
    }

    fn op(&mut self, name: &str, operands: Vec<Value>, ty: Type, props: Vec<(&str, Attr)>) -> Value {
        let mut state = tensor_op_state(self.ctx, name, operands, ty, None, false, self.loc);
        if !props.is_empty() {
            state.props = Some(self.ctx.dictionary(props.into_iter().map(|(k, v)| (self.ctx.ident(k), v)).collect()));
        }
        self.emit(state)
    }

    fn i64s(&self, v: &[i64]) -> Attr {
        fuser_dialects::fusion::syntax::i64_array_attr(self.ctx, v)
    }

    /// An elementwise binary op (`fusion.add`, `mul`, ...) with the type of `a`, unannotated.
    pub fn binary(&mut self, name: &str, a: Value, b: Value) -> Value {
        let ty = self.ty(self.shape(a), self.elem(a));
        self.op(name, vec![a, b], ty, Vec::new())
    }

    /// An elementwise unary op with the type of `a`, unannotated.
    pub fn unary(&mut self, name: &str, a: Value) -> Value {
        let ty = self.ty(self.shape(a), self.elem(a));
        self.op(name, vec![a], ty, Vec::new())
    }

    pub fn add(&mut self, a: Value, b: Value) -> Value {
        self.binary("fusion.add", a, b)
    }
    pub fn sub(&mut self, a: Value, b: Value) -> Value {
        self.binary("fusion.sub", a, b)
    }
    pub fn mul(&mut self, a: Value, b: Value) -> Value {
        self.binary("fusion.mul", a, b)
    }
    pub fn div(&mut self, a: Value, b: Value) -> Value {
        self.binary("fusion.div", a, b)
    }
    pub fn neg(&mut self, a: Value) -> Value {
        self.unary("fusion.neg", a)
    }
    pub fn exp(&mut self, a: Value) -> Value {
        self.unary("fusion.exp", a)
    }

    /// `fusion.full` of `value` (rounded to `elem`) with the given shape.
    pub fn full(&mut self, shape: Vec<i64>, elem: Type, value: f64) -> Value {
        let ty = self.ty(shape, elem);
        let attr = match self.ctx.type_kind(elem) {
            TypeKind::Float(k) => {
                let wide = ApFloat::from_bits(FloatKind::F64, value.to_bits() as u128);
                let bits = wide.map(|w| w.convert(*k, RoundingMode::NearestTiesToEven).0.to_bits()).unwrap_or(0);
                self.ctx.intern_attr(AttrKind::Float { bits, ty: elem })
            }
            _ => self.ctx.int_attr(elem, value as i64),
        };
        self.op("fusion.full", Vec::new(), ty, vec![("value", attr)])
    }

    /// A `fusion.full` of `value` shaped and typed like `like`.
    pub fn full_like(&mut self, like: Value, value: f64) -> Value {
        let (shape, elem) = (self.shape(like), self.elem(like));
        self.full(shape, elem, value)
    }

    /// `a * value` (the constant filled to `a`'s shape).
    pub fn scale(&mut self, a: Value, value: f64) -> Value {
        let c = self.full_like(a, value);
        self.mul(a, c)
    }

    /// `fusion.cast` of `a` to the element type `elem` (no op when it already has it).
    pub fn cast(&mut self, a: Value, elem: Type) -> Value {
        if self.elem(a) == elem {
            return a;
        }
        let ty = self.ty(self.shape(a), elem);
        self.op("fusion.cast", vec![a], ty, Vec::new())
    }

    /// `fusion.compare PRED a, b` (an `i1` tensor).
    pub fn compare(&mut self, pred: &str, a: Value, b: Value) -> Value {
        let ty = self.ty(self.shape(a), self.ctx.integer_type(1));
        let p = self.ctx.string_attr(pred);
        self.op("fusion.compare", vec![a, b], ty, vec![("predicate", p)])
    }

    /// `fusion.where c, a, b`.
    pub fn select(&mut self, c: Value, a: Value, b: Value) -> Value {
        let ty = self.ty(self.shape(a), self.elem(a));
        self.op("fusion.where", vec![c, a, b], ty, Vec::new())
    }

    /// `fusion.sum` (or another reduction `name`) of `a` over `dims`, optionally keeping them.
    pub fn reduce(&mut self, name: &str, a: Value, dims: &[i64], keep_dims: bool) -> Value {
        let mut dims = dims.to_vec();
        dims.sort_unstable();
        let shape: Vec<i64> = self
            .shape(a)
            .iter()
            .enumerate()
            .filter_map(|(i, &e)| if dims.contains(&(i as i64)) { keep_dims.then_some(1) } else { Some(e) })
            .collect();
        let ty = self.ty(shape, self.elem(a));
        self.emit(tensor_op_state(self.ctx, name, vec![a], ty, Some(&dims), keep_dims, self.loc))
    }

    /// `fusion.sum` of `a` over `dims` (none: `a` itself).
    pub fn sum(&mut self, a: Value, dims: &[i64], keep_dims: bool) -> Value {
        if dims.is_empty() {
            return a;
        }
        self.reduce("fusion.sum", a, dims, keep_dims)
    }

    /// `fusion.broadcast` of `a` to `shape`, the new axes at `dims` (none: `a` itself).
    pub fn broadcast(&mut self, a: Value, dims: &[i64], shape: Vec<i64>) -> Value {
        if dims.is_empty() {
            return a;
        }
        let ty = self.ty(shape, self.elem(a));
        self.emit(tensor_op_state(self.ctx, "fusion.broadcast", vec![a], ty, Some(dims), false, self.loc))
    }

    /// `fusion.reshape` of `a` to `shape` (no op when it has that shape).
    pub fn reshape(&mut self, a: Value, shape: Vec<i64>) -> Value {
        if self.shape(a) == shape {
            return a;
        }
        let ty = self.ty(shape, self.elem(a));
        self.op("fusion.reshape", vec![a], ty, Vec::new())
    }

    /// `fusion.permute` of `a` by `perm` (`result[i] = a[perm[i]]`).
    pub fn permute(&mut self, a: Value, perm: &[i64]) -> Value {
        let s = self.shape(a);
        let shape = perm.iter().map(|&p| s[p as usize]).collect();
        let ty = self.ty(shape, self.elem(a));
        self.emit(tensor_op_state(self.ctx, "fusion.permute", vec![a], ty, Some(perm), false, self.loc))
    }

    /// `a` with its last two axes swapped.
    pub fn transpose(&mut self, a: Value) -> Value {
        let r = self.shape(a).len() as i64;
        let mut perm: Vec<i64> = (0..r).collect();
        perm.swap(r as usize - 2, r as usize - 1);
        self.permute(a, &perm)
    }

    /// `fusion.matmul a, b`: `[..., M, K] x [K, N]` or `[..., K, N]`.
    pub fn matmul(&mut self, a: Value, b: Value) -> Value {
        let (sa, sb) = (self.shape(a), self.shape(b));
        let mut shape = sa[..sa.len() - 1].to_vec();
        shape.push(sb[sb.len() - 1]);
        let ty = self.ty(shape, self.elem(a));
        self.op("fusion.matmul", vec![a, b], ty, Vec::new())
    }

    /// `fusion.slice` of `a` with unit strides.
    pub fn slice(&mut self, a: Value, offsets: &[i64], sizes: &[i64]) -> Value {
        let ty = self.ty(sizes.to_vec(), self.elem(a));
        let (o, s) = (self.i64s(offsets), self.i64s(sizes));
        self.op("fusion.slice", vec![a], ty, vec![("offsets", o), ("sizes", s)])
    }

    /// `fusion.concat` of `parts` along `dim`.
    pub fn concat(&mut self, parts: Vec<Value>, dim: usize) -> Value {
        let mut shape = self.shape(parts[0]);
        shape[dim] = parts.iter().map(|&p| self.shape(p)[dim]).sum();
        let ty = self.ty(shape, self.elem(parts[0]));
        let d = self.ctx.int_attr(self.ctx.i64_type(), dim as i64);
        self.op("fusion.concat", parts, ty, vec![("dim", d)])
    }

    /// `fusion.dropout a, seed, offset p = p`.
    pub fn dropout(&mut self, a: Value, seed: Value, offset: Value, p: Attr) -> Value {
        let ty = self.ty(self.shape(a), self.elem(a));
        self.op("fusion.dropout", vec![a, seed, offset], ty, vec![("p", p)])
    }

    /// `fusion.set a` to the type `ty` (a change of sharding).
    pub fn set(&mut self, a: Value, ty: Type) -> Value {
        self.op("fusion.set", vec![a], ty, Vec::new())
    }

    /// A reduced value `r` (over `dims` of a tensor shaped `full`, kept or dropped) broadcast
    /// back to `full`.
    pub fn expand(&mut self, r: Value, dims: &[i64], keep_dims: bool, full: &[i64]) -> Value {
        if dims.is_empty() {
            return r;
        }
        let r = if keep_dims {
            let s: Vec<i64> =
                full.iter().enumerate().filter(|(i, _)| !dims.contains(&(*i as i64))).map(|(_, &e)| e).collect();
            self.reshape(r, s)
        } else {
            r
        };
        let mut d = dims.to_vec();
        d.sort_unstable();
        self.broadcast(r, &d, full.to_vec())
    }

    /// Whether `v` has a floating-point element type.
    pub fn is_float(&self, v: Value) -> bool {
        matches!(self.ctx.type_kind(self.elem(v)), TypeKind::Float(_))
    }
}
