//! [`FunctionBuilder`]: the ops of one fusion function, appended in order, and [`Tensor`],
//! a value they produce.
//!
//! Each op infers its result's shape and element type from its operands with the dialect's
//! own inference (so a shape error is reported when the op is built, naming the op); the
//! caller only says how the result is sharded (`None` for no encoding). Whether the
//! shardings fit the mesh is checked by the verifier when the program is finished.

use super::program::ProgramBuilder;
use super::types::{ElementType, Sharding};
use crate::diagnostics::Error;
use fuser_dialects::{func, fusion};
use fuser_ir::types::TypeKind;
use fuser_ir::{BlockId, OpId, Type, Value};

/// A tensor value of the function being built.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Tensor {
    value: Value,
    program: u64,
}

/// Builds the body of one function; see [`ProgramBuilder::function`].
pub struct FunctionBuilder<'p, 'c> {
    program: &'p mut ProgramBuilder<'c>,
    func: OpId,
    entry: BlockId,
}

/// The op-specific properties of a fusion tensor op.
#[derive(Default)]
struct Props<'a> {
    dims: Option<&'a [i64]>,
    keep_dims: bool,
}

impl<'p, 'c> FunctionBuilder<'p, 'c> {
    pub(crate) fn new(program: &'p mut ProgramBuilder<'c>, func: OpId, entry: BlockId) -> Self {
        FunctionBuilder { program, func, entry }
    }

    /// The `i`-th argument.
    pub fn arg(&self, i: usize) -> Result<Tensor, Error> {
        let args = self.program.ir.block_args(self.entry);
        let value = *args
            .get(i)
            .ok_or_else(|| Error::message(format!("argument {i} out of range: the function takes {}", args.len())))?;
        Ok(Tensor { value, program: self.program.id })
    }

    /// The global shape of a tensor of this function.
    pub fn shape(&self, t: Tensor) -> Result<Vec<i64>, Error> {
        let ty = self.type_of(t)?;
        match self.program.compiler.context().type_kind(ty) {
            TypeKind::RankedTensor { shape, .. } => Ok(shape.clone()),
            _ => Err(Error::message("not a ranked tensor")),
        }
    }

    /// `fusion.matmul`: `a [..., M, K]` times `b [K, N]` (or batched `b`).
    pub fn matmul(&mut self, a: Tensor, b: Tensor, out: impl Into<Option<Sharding>>) -> Result<Tensor, Error> {
        let (ta, tb) = (self.type_of(a)?, self.type_of(b)?);
        let inferred = fusion::infer_matmul(self.ctx(), ta, tb);
        self.tensor_op(fusion::MATMUL.name, &[a, b], inferred, out.into(), Props::default())
    }

    /// `fusion.linear`: `x·wᵀ (+ bias)` with `x [..., K]`, `w [N, K]`, `bias [N]`.
    pub fn linear(
        &mut self,
        x: Tensor,
        w: Tensor,
        bias: Option<Tensor>,
        out: impl Into<Option<Sharding>>,
    ) -> Result<Tensor, Error> {
        let (tx, tw) = (self.type_of(x)?, self.type_of(w)?);
        let tb = bias.map(|b| self.type_of(b)).transpose()?;
        let inferred = fusion::infer_linear(self.ctx(), tx, tw, tb);
        let operands: Vec<Tensor> = [x, w].into_iter().chain(bias).collect();
        self.tensor_op(fusion::LINEAR.name, &operands, inferred, out.into(), Props::default())
    }

    /// `fusion.add`: elementwise sum of two tensors of one shape and element type.
    pub fn add(&mut self, a: Tensor, b: Tensor, out: impl Into<Option<Sharding>>) -> Result<Tensor, Error> {
        self.binary(fusion::ADD.name, a, b, out.into())
    }

    /// `fusion.sub`: elementwise difference.
    pub fn sub(&mut self, a: Tensor, b: Tensor, out: impl Into<Option<Sharding>>) -> Result<Tensor, Error> {
        self.binary(fusion::SUB.name, a, b, out.into())
    }

    /// `fusion.mul`: elementwise product.
    pub fn mul(&mut self, a: Tensor, b: Tensor, out: impl Into<Option<Sharding>>) -> Result<Tensor, Error> {
        self.binary(fusion::MUL.name, a, b, out.into())
    }

    /// `fusion.div`: elementwise quotient.
    pub fn div(&mut self, a: Tensor, b: Tensor, out: impl Into<Option<Sharding>>) -> Result<Tensor, Error> {
        self.binary(fusion::DIV.name, a, b, out.into())
    }

    /// `fusion.neg`: elementwise negation.
    pub fn neg(&mut self, x: Tensor, out: impl Into<Option<Sharding>>) -> Result<Tensor, Error> {
        let inferred = fusion::infer_unary(self.ctx(), self.type_of(x)?);
        self.tensor_op(fusion::NEG.name, &[x], inferred, out.into(), Props::default())
    }

    /// `fusion.cast`: converts every element to `element`.
    pub fn cast(&mut self, x: Tensor, element: ElementType, out: impl Into<Option<Sharding>>) -> Result<Tensor, Error> {
        let elem = element.to_type(self.ctx());
        let inferred = fusion::infer_cast(self.ctx(), self.type_of(x)?, elem);
        self.tensor_op(fusion::CAST.name, &[x], inferred, out.into(), Props::default())
    }

    /// `fusion.set`: a copy, the explicit point where the sharding changes to `out`.
    pub fn set(&mut self, x: Tensor, out: impl Into<Option<Sharding>>) -> Result<Tensor, Error> {
        let inferred = fusion::infer_set(self.ctx(), self.type_of(x)?);
        self.tensor_op(fusion::SET.name, &[x], inferred, out.into(), Props::default())
    }

    /// `fusion.sum`: sums over the axes `dims`; with `keep_dims` they stay with extent 1.
    pub fn sum(
        &mut self,
        x: Tensor,
        dims: &[i64],
        keep_dims: bool,
        out: impl Into<Option<Sharding>>,
    ) -> Result<Tensor, Error> {
        let mut sorted = dims.to_vec();
        sorted.sort_unstable();
        let inferred = fusion::infer_sum(self.ctx(), self.type_of(x)?, &sorted, keep_dims);
        self.tensor_op(fusion::SUM.name, &[x], inferred, out.into(), Props { dims: Some(&sorted), keep_dims })
    }

    /// `fusion.broadcast`: inserts new axes; `new_axes` lists `(result axis, extent)` pairs.
    pub fn broadcast(
        &mut self,
        x: Tensor,
        new_axes: &[(i64, i64)],
        out: impl Into<Option<Sharding>>,
    ) -> Result<Tensor, Error> {
        let mut axes = new_axes.to_vec();
        axes.sort_unstable();
        let dims: Vec<i64> = axes.iter().map(|&(d, _)| d).collect();
        let extents: Vec<i64> = axes.iter().map(|&(_, e)| e).collect();
        let inferred = fusion::infer_broadcast(self.ctx(), self.type_of(x)?, &dims, &extents);
        self.tensor_op(
            fusion::BROADCAST.name,
            &[x],
            inferred,
            out.into(),
            Props { dims: Some(&dims), keep_dims: false },
        )
    }

    /// `fusion.reshape`: the same elements in row-major order with another shape.
    pub fn reshape(&mut self, x: Tensor, shape: &[i64], out: impl Into<Option<Sharding>>) -> Result<Tensor, Error> {
        let inferred = fusion::infer_reshape(self.ctx(), self.type_of(x)?, shape);
        self.tensor_op(fusion::RESHAPE.name, &[x], inferred, out.into(), Props::default())
    }

    /// `fusion.permute`: `result[i] = x[dims[i]]`.
    pub fn permute(&mut self, x: Tensor, dims: &[i64], out: impl Into<Option<Sharding>>) -> Result<Tensor, Error> {
        let inferred = fusion::infer_permute(self.ctx(), self.type_of(x)?, dims);
        self.tensor_op(fusion::PERMUTE.name, &[x], inferred, out.into(), Props { dims: Some(dims), keep_dims: false })
    }

    /// Ends the function with `return results`; its result types are theirs.
    pub fn finish(self, results: &[Tensor]) -> Result<(), Error> {
        let values = results.iter().map(|&t| self.value_of(t)).collect::<Result<Vec<_>, _>>()?;
        let ctx = self.program.compiler.context();
        let ir = &mut self.program.ir;
        let inputs: Vec<Type> = ir.block_args(self.entry).iter().map(|&a| ir.value_type(a)).collect();
        let outputs: Vec<Type> = values.iter().map(|&v| ir.value_type(v)).collect();
        func::set_signature(ctx, ir, self.func, inputs, outputs);
        let ret = ir.create_op(func::return_state(ctx, &values, self.program.loc));
        ir.append_op(self.entry, ret);
        Ok(())
    }

    fn binary(&mut self, name: &'static str, a: Tensor, b: Tensor, out: Option<Sharding>) -> Result<Tensor, Error> {
        let inferred = fusion::infer_elementwise(self.ctx(), self.type_of(a)?, self.type_of(b)?);
        self.tensor_op(name, &[a, b], inferred, out, Props::default())
    }

    /// Appends the op `name` whose unsharded result type was inferred as `inferred`, with the
    /// result encoded by `out`.
    fn tensor_op(
        &mut self,
        name: &str,
        operands: &[Tensor],
        inferred: Result<Type, String>,
        out: Option<Sharding>,
        props: Props<'_>,
    ) -> Result<Tensor, Error> {
        let fail = |m: String| Error::message(format!("{name}: {m}"));
        let values = operands.iter().map(|&t| self.value_of(t)).collect::<Result<Vec<_>, _>>()?;
        let ctx = self.program.compiler.context();
        let result = self.with_sharding(inferred.map_err(fail)?, out).map_err(fail)?;
        let state = fusion::tensor_op_state(ctx, name, values, result, props.dims, props.keep_dims, self.program.loc);
        let op = self.program.ir.create_op(state);
        self.program.ir.append_op(self.entry, op);
        Ok(Tensor { value: self.program.ir.result(op, 0), program: self.program.id })
    }

    /// `ty` (an unsharded ranked tensor) with `sharding` as its encoding.
    fn with_sharding(&self, ty: Type, sharding: Option<Sharding>) -> Result<Type, String> {
        let ctx = self.ctx();
        let Some(sharding) = sharding else { return Ok(ty) };
        match ctx.type_kind(ty) {
            TypeKind::RankedTensor { shape, elem, .. } => {
                Ok(ctx.tensor_type(shape.clone(), *elem, Some(sharding.to_attr(ctx)?)))
            }
            _ => Err("the result is not a ranked tensor".into()),
        }
    }

    fn value_of(&self, t: Tensor) -> Result<Value, Error> {
        if t.program != self.program.id || !self.program.ir.is_live_value(t.value) {
            return Err(Error::message("a tensor of another program was used"));
        }
        Ok(t.value)
    }

    fn type_of(&self, t: Tensor) -> Result<Type, Error> {
        Ok(self.program.ir.value_type(self.value_of(t)?))
    }

    fn ctx(&self) -> &fuser_ir::Context {
        self.program.compiler.context()
    }
}
