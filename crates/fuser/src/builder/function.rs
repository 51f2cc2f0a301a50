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

/// A tensor value of the function being built (a handle, `Copy`); see [`FunctionBuilder`].
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Tensor {
    value: Value,
    program: u64,
}

/// Builds the body of one function; see [`ProgramBuilder::function`]. Each op method infers
/// the result's shape and element type and takes the result's sharding (`None` for none).
///
/// ```
/// use fuser::builder::{ElementType, TensorType};
/// let compiler = fuser::Compiler::new();
/// let mut program = compiler.program();
/// let mut f = program.function("square", &[TensorType::new(&[3, 3], ElementType::F64)])?;
/// let x = f.arg(0)?;
/// let y = f.matmul(x, x, None)?;
/// f.finish(&[y])?;
/// program.finish()?;
/// # Ok::<(), fuser::Error>(())
/// ```
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
    ///
    /// ```
    /// # use fuser::builder::{ElementType, TensorType};
    /// # let compiler = fuser::Compiler::new();
    /// # let mut program = compiler.program();
    /// let mut f = program.function("f", &[TensorType::new(&[4], ElementType::F32)])?;
    /// assert!(f.arg(0).is_ok());
    /// assert!(f.arg(1).is_err());
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn arg(&self, i: usize) -> Result<Tensor, Error> {
        let args = self.program.ir.block_args(self.entry);
        let value = *args
            .get(i)
            .ok_or_else(|| Error::message(format!("argument {i} out of range: the function takes {}", args.len())))?;
        Ok(Tensor { value, program: self.program.id })
    }

    /// The global shape of a tensor of this function.
    ///
    /// ```
    /// # use fuser::builder::{ElementType, TensorType};
    /// # let compiler = fuser::Compiler::new();
    /// # let mut program = compiler.program();
    /// let f = program.function("f", &[TensorType::new(&[4, 2], ElementType::F32)])?;
    /// let r = f.arg(0)?;
    /// assert_eq!(f.shape(r)?, vec![4, 2]);
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn shape(&self, t: Tensor) -> Result<Vec<i64>, Error> {
        let ty = self.type_of(t)?;
        match self.program.compiler.context().type_kind(ty) {
            TypeKind::RankedTensor { shape, .. } => Ok(shape.clone()),
            _ => Err(Error::message("not a ranked tensor")),
        }
    }

    /// The element type of a tensor of this function.
    ///
    /// ```
    /// # use fuser::builder::{ElementType, TensorType};
    /// # let compiler = fuser::Compiler::new();
    /// # let mut program = compiler.program();
    /// let f = program.function("f", &[TensorType::new(&[4], ElementType::BF16)])?;
    /// assert_eq!(f.element(f.arg(0)?)?, ElementType::BF16);
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn element(&self, t: Tensor) -> Result<ElementType, Error> {
        let ctx = self.program.compiler.context();
        match ctx.type_kind(self.type_of(t)?) {
            TypeKind::RankedTensor { elem, .. } => {
                ElementType::from_type(ctx, *elem).ok_or_else(|| Error::message("unsupported element type"))
            }
            _ => Err(Error::message("not a ranked tensor")),
        }
    }

    /// `fusion.matmul`: `a [..., M, K]` times `b [K, N]` (or batched `b`).
    ///
    /// ```
    /// # use fuser::builder::{ElementType, TensorType};
    /// # let compiler = fuser::Compiler::new();
    /// # let mut program = compiler.program();
    /// let a = TensorType::new(&[5, 7], ElementType::F32);
    /// let b = TensorType::new(&[7, 6], ElementType::F32);
    /// let mut f = program.function("f", &[a, b])?;
    /// let c = f.matmul(f.arg(0)?, f.arg(1)?, None)?;
    /// assert_eq!(f.shape(c)?, vec![5, 6]);
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn matmul(&mut self, a: Tensor, b: Tensor, out: impl Into<Option<Sharding>>) -> Result<Tensor, Error> {
        let (ta, tb) = (self.type_of(a)?, self.type_of(b)?);
        let inferred = fusion::infer_matmul(self.ctx(), ta, tb);
        self.tensor_op(fusion::MATMUL.name, &[a, b], inferred, out.into(), Props::default())
    }

    /// `fusion.linear`: `x·wᵀ (+ bias)` with `x [..., K]`, `w [N, K]`, `bias [N]`.
    ///
    /// ```
    /// # use fuser::builder::{ElementType, TensorType};
    /// # let compiler = fuser::Compiler::new();
    /// # let mut program = compiler.program();
    /// let x = TensorType::new(&[8, 16], ElementType::BF16);
    /// let w = TensorType::new(&[32, 16], ElementType::BF16);
    /// let b = TensorType::new(&[32], ElementType::BF16);
    /// let mut f = program.function("f", &[x, w, b])?;
    /// let y = f.linear(f.arg(0)?, f.arg(1)?, Some(f.arg(2)?), None)?;
    /// assert_eq!(f.shape(y)?, vec![8, 32]);
    /// # Ok::<(), fuser::Error>(())
    /// ```
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
    ///
    /// ```
    /// # use fuser::builder::{ElementType, TensorType};
    /// # let compiler = fuser::Compiler::new();
    /// # let mut program = compiler.program();
    /// let mut f = program.function("f", &[TensorType::new(&[4], ElementType::F32)])?;
    /// let x = f.arg(0)?;
    /// let y = f.add(x, x, None)?;
    /// f.finish(&[y])?;
    /// assert!(program.finish()?.print(&Default::default()).contains("fusion.add %arg0, %arg0"));
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn add(&mut self, a: Tensor, b: Tensor, out: impl Into<Option<Sharding>>) -> Result<Tensor, Error> {
        self.binary(fusion::ADD.name, a, b, out.into())
    }

    /// `fusion.sub`: elementwise difference.
    ///
    /// ```
    /// # use fuser::builder::{ElementType, TensorType};
    /// # let compiler = fuser::Compiler::new();
    /// # let mut program = compiler.program();
    /// let mut f = program.function("f", &[TensorType::new(&[4], ElementType::F32)])?;
    /// let x = f.arg(0)?;
    /// let r = f.sub(x, x, None)?;
    /// assert_eq!(f.shape(r)?, vec![4]);
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn sub(&mut self, a: Tensor, b: Tensor, out: impl Into<Option<Sharding>>) -> Result<Tensor, Error> {
        self.binary(fusion::SUB.name, a, b, out.into())
    }

    /// `fusion.mul`: elementwise product.
    ///
    /// ```
    /// # use fuser::builder::{ElementType, TensorType};
    /// # let compiler = fuser::Compiler::new();
    /// # let mut program = compiler.program();
    /// let mut f = program.function("f", &[TensorType::new(&[4], ElementType::F32)])?;
    /// let x = f.arg(0)?;
    /// let r = f.mul(x, x, None)?;
    /// assert_eq!(f.shape(r)?, vec![4]);
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn mul(&mut self, a: Tensor, b: Tensor, out: impl Into<Option<Sharding>>) -> Result<Tensor, Error> {
        self.binary(fusion::MUL.name, a, b, out.into())
    }

    /// `fusion.div`: elementwise quotient.
    ///
    /// ```
    /// # use fuser::builder::{ElementType, TensorType};
    /// # let compiler = fuser::Compiler::new();
    /// # let mut program = compiler.program();
    /// let mut f = program.function("f", &[TensorType::new(&[4], ElementType::F32)])?;
    /// let x = f.arg(0)?;
    /// let r = f.div(x, x, None)?;
    /// assert_eq!(f.shape(r)?, vec![4]);
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn div(&mut self, a: Tensor, b: Tensor, out: impl Into<Option<Sharding>>) -> Result<Tensor, Error> {
        self.binary(fusion::DIV.name, a, b, out.into())
    }

    /// `fusion.neg`: elementwise negation.
    ///
    /// ```
    /// # use fuser::builder::{ElementType, TensorType};
    /// # let compiler = fuser::Compiler::new();
    /// # let mut program = compiler.program();
    /// let mut f = program.function("f", &[TensorType::new(&[4], ElementType::F32)])?;
    /// let x = f.arg(0)?;
    /// let r = f.neg(x, None)?;
    /// assert_eq!(f.shape(r)?, vec![4]);
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn neg(&mut self, x: Tensor, out: impl Into<Option<Sharding>>) -> Result<Tensor, Error> {
        let inferred = fusion::infer_unary(self.ctx(), self.type_of(x)?);
        self.tensor_op(fusion::NEG.name, &[x], inferred, out.into(), Props::default())
    }

    /// `fusion.cast`: converts every element to `element`.
    ///
    /// ```
    /// # use fuser::builder::{ElementType, TensorType};
    /// # let compiler = fuser::Compiler::new();
    /// # let mut program = compiler.program();
    /// let mut f = program.function("f", &[TensorType::new(&[4], ElementType::BF16)])?;
    /// let y = f.cast(f.arg(0)?, ElementType::F32, None)?;
    /// f.finish(&[y])?;
    /// let text = program.finish()?.print(&Default::default());
    /// assert!(text.contains("fusion.cast %arg0 : (tensor<4xbf16>) -> tensor<4xf32>"));
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn cast(&mut self, x: Tensor, element: ElementType, out: impl Into<Option<Sharding>>) -> Result<Tensor, Error> {
        let elem = element.to_type(self.ctx());
        let inferred = fusion::infer_cast(self.ctx(), self.type_of(x)?, elem);
        self.tensor_op(fusion::CAST.name, &[x], inferred, out.into(), Props::default())
    }

    /// `fusion.set`: a copy, the explicit point where the sharding changes to `out`.
    ///
    /// ```
    /// # use fuser::builder::{ElementType, TensorType};
    /// # let compiler = fuser::Compiler::new();
    /// # let mut program = compiler.program();
    /// # use fuser::builder::Split;
    /// let tp = program.mesh("tp", &[0, 1])?;
    /// let t = TensorType::new(&[4, 8], ElementType::F32).sharded(tp.sharding(2).split(0, Split::DIDX));
    /// let mut f = program.function("gather", &[t])?;
    /// let all = f.set(f.arg(0)?, tp.sharding(2))?;
    /// f.finish(&[all])?;
    /// assert!(program.finish()?.print(&Default::default()).contains("#fusion.shard<@tp, [[], []]>"));
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn set(&mut self, x: Tensor, out: impl Into<Option<Sharding>>) -> Result<Tensor, Error> {
        let inferred = fusion::infer_set(self.ctx(), self.type_of(x)?);
        self.tensor_op(fusion::SET.name, &[x], inferred, out.into(), Props::default())
    }

    /// `fusion.sum`: sums over the axes `dims`; with `keep_dims` they stay with extent 1.
    ///
    /// ```
    /// # use fuser::builder::{ElementType, TensorType};
    /// # let compiler = fuser::Compiler::new();
    /// # let mut program = compiler.program();
    /// let mut f = program.function("f", &[TensorType::new(&[4, 8], ElementType::F32)])?;
    /// let x = f.arg(0)?;
    /// let r = f.sum(x, &[1], false, None)?;
    /// assert_eq!(f.shape(r)?, vec![4]);
    /// let r = f.sum(x, &[1, 0], true, None)?;
    /// assert_eq!(f.shape(r)?, vec![1, 1]);
    /// # Ok::<(), fuser::Error>(())
    /// ```
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
    ///
    /// ```
    /// # use fuser::builder::{ElementType, TensorType};
    /// # let compiler = fuser::Compiler::new();
    /// # let mut program = compiler.program();
    /// let mut f = program.function("f", &[TensorType::new(&[8], ElementType::F32)])?;
    /// let b = f.broadcast(f.arg(0)?, &[(0, 4)], None)?;
    /// assert_eq!(f.shape(b)?, vec![4, 8]);
    /// # Ok::<(), fuser::Error>(())
    /// ```
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
    ///
    /// ```
    /// # use fuser::builder::{ElementType, TensorType};
    /// # let compiler = fuser::Compiler::new();
    /// # let mut program = compiler.program();
    /// let mut f = program.function("f", &[TensorType::new(&[4, 8], ElementType::F32)])?;
    /// let x = f.arg(0)?;
    /// let r = f.reshape(x, &[32], None)?;
    /// assert_eq!(f.shape(r)?, vec![32]);
    /// assert!(f.reshape(x, &[31], None).is_err());
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn reshape(&mut self, x: Tensor, shape: &[i64], out: impl Into<Option<Sharding>>) -> Result<Tensor, Error> {
        let inferred = fusion::infer_reshape(self.ctx(), self.type_of(x)?, shape);
        self.tensor_op(fusion::RESHAPE.name, &[x], inferred, out.into(), Props::default())
    }

    /// `fusion.permute`: `result[i] = x[dims[i]]`.
    ///
    /// ```
    /// # use fuser::builder::{ElementType, TensorType};
    /// # let compiler = fuser::Compiler::new();
    /// # let mut program = compiler.program();
    /// let mut f = program.function("f", &[TensorType::new(&[4, 8], ElementType::F32)])?;
    /// let t = f.permute(f.arg(0)?, &[1, 0], None)?;
    /// assert_eq!(f.shape(t)?, vec![8, 4]);
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn permute(&mut self, x: Tensor, dims: &[i64], out: impl Into<Option<Sharding>>) -> Result<Tensor, Error> {
        let inferred = fusion::infer_permute(self.ctx(), self.type_of(x)?, dims);
        self.tensor_op(fusion::PERMUTE.name, &[x], inferred, out.into(), Props { dims: Some(dims), keep_dims: false })
    }

    /// Any fusion op by name, with the properties `attrs` and one sharding per result in
    /// `outs` (missing entries: no encoding). The result types come from the op's
    /// `infer_result_types` hook (MLIR's `InferTypeOpInterface`), so every op that has one is
    /// buildable without a method of its own; an op without it, or operands that do not fit,
    /// is an error naming the op.
    ///
    /// ```
    /// use fuser::builder::{Attribute, ElementType, TensorType};
    /// # let compiler = fuser::Compiler::new();
    /// # let mut program = compiler.program();
    /// let mut f = program.function("f", &[TensorType::new(&[4, 8], ElementType::F32)])?;
    /// let x = f.arg(0)?;
    /// let s = f.op("fusion.sum", &[x], &[("dims", Attribute::Ints(vec![1]))], &[])?;
    /// assert_eq!(f.shape(s[0])?, vec![4]);
    /// assert!(f.op("fusion.sum", &[x], &[], &[]).unwrap_err().to_string().contains("'dims'"));
    /// assert!(f.op("fusion.nothing", &[x], &[], &[]).is_err());
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn op(
        &mut self,
        name: &str,
        operands: &[Tensor],
        attrs: &[(&str, super::types::Attribute)],
        outs: &[Option<Sharding>],
    ) -> Result<Vec<Tensor>, Error> {
        let fail = |m: String| Error::message(format!("{name}: {m}"));
        let values = operands.iter().map(|&t| self.value_of(t)).collect::<Result<Vec<_>, _>>()?;
        let types: Vec<Type> = values.iter().map(|&v| self.program.ir.value_type(v)).collect();
        let ctx = self.program.compiler.context();
        let def = ctx.op_def(ctx.op_name(name)).ok_or_else(|| fail("no such op".into()))?;
        let infer = def.infer_result_types.ok_or_else(|| fail("the op cannot infer its result types".into()))?;
        let props = (!attrs.is_empty())
            .then(|| ctx.dictionary(attrs.iter().map(|(k, a)| (ctx.ident(k), a.to_attr(ctx))).collect()));
        let inferred = infer(ctx, &types, props).map_err(fail)?;
        let results = inferred
            .into_iter()
            .enumerate()
            .map(|(j, t)| self.with_sharding(t, outs.get(j).cloned().flatten()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(fail)?;
        Ok(self.append(name, values, results, props))
    }

    /// Any fusion op by name with explicit result types (each with its sharding), for what
    /// [`FunctionBuilder::op`] cannot infer: the shape of a `fusion.full` (it has no operand)
    /// and the optional results inference leaves out (the statistics of `fusion.layer_norm`
    /// and `fusion.rms_norm`, the `lse` of `fusion.sdpa`). The op's verifier checks the types
    /// when the program is finished.
    ///
    /// ```
    /// use fuser::builder::{Attribute, ElementType, TensorType};
    /// # let compiler = fuser::Compiler::new();
    /// # let mut program = compiler.program();
    /// let mut f = program.function("f", &[])?;
    /// let ones = [TensorType::new(&[2, 3], ElementType::F32)];
    /// let z = f.op_with_types("fusion.full", &[], &[("value", Attribute::Typed(1.0, ElementType::F32))], &ones)?;
    /// assert_eq!(f.shape(z[0])?, vec![2, 3]);
    /// assert!(f.op_with_types("fusion.nothing", &[], &[], &ones).is_err());
    /// f.finish(&z)?;
    /// assert!(program.finish().is_ok());
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn op_with_types(
        &mut self,
        name: &str,
        operands: &[Tensor],
        attrs: &[(&str, super::types::Attribute)],
        results: &[super::types::TensorType],
    ) -> Result<Vec<Tensor>, Error> {
        let fail = |m: String| Error::message(format!("{name}: {m}"));
        let values = operands.iter().map(|&t| self.value_of(t)).collect::<Result<Vec<_>, _>>()?;
        let ctx = self.program.compiler.context();
        ctx.op_def(ctx.op_name(name)).ok_or_else(|| fail("no such op".into()))?;
        let props = (!attrs.is_empty())
            .then(|| ctx.dictionary(attrs.iter().map(|(k, a)| (ctx.ident(k), a.to_attr(ctx))).collect()));
        let types = results.iter().map(|t| t.to_type(ctx)).collect::<Result<Vec<_>, _>>().map_err(fail)?;
        Ok(self.append(name, values, types, props))
    }

    /// Creates the op `name` and appends it; its results.
    fn append(
        &mut self,
        name: &str,
        values: Vec<Value>,
        results: Vec<Type>,
        props: Option<fuser_ir::Attr>,
    ) -> Vec<Tensor> {
        let ctx = self.program.compiler.context();
        let state = fuser_ir::ir::OperationState {
            name: ctx.op_name(name),
            operands: values,
            result_types: results,
            successors: Vec::new(),
            regions: Vec::new(),
            attrs: ctx.empty_dict(),
            props,
            loc: self.program.loc,
        };
        let op = self.program.ir.create_op(state);
        self.program.ir.append_op(self.entry, op);
        let id = self.program.id;
        self.program.ir.results(op).iter().map(|&value| Tensor { value, program: id }).collect()
    }

    /// Gives the ops appended from now on this source location (see
    /// [`ProgramBuilder::set_location`]); a frontend calls it before each op it traces.
    ///
    /// ```
    /// use fuser::builder::{ElementType, TensorType};
    /// use fuser::{Location, PrintOptions};
    /// let compiler = fuser::Compiler::new();
    /// let mut program = compiler.program();
    /// let mut f = program.function("f", &[TensorType::new(&[2], ElementType::F32)])?;
    /// f.set_location(Some(&Location { file: "model.py".into(), line: 7, column: 9 }));
    /// let y = f.neg(f.arg(0)?, None)?;
    /// f.finish(&[y])?;
    /// let text = program.finish()?.print(&PrintOptions { debug_info: true, ..Default::default() });
    /// assert!(text.contains("fusion.neg %arg0 : (tensor<2xf32>) -> tensor<2xf32> loc(#loc1)"), "{text}");
    /// assert!(text.contains("#loc1 = loc(\"model.py\":7:9)"), "{text}");
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn set_location(&mut self, location: Option<&crate::Location>) {
        self.program.set_location(location);
    }

    /// Gives the `i`-th argument a source location (a frontend passes the line that defined
    /// the input); `None` for no location. Diagnostics about the argument (its sharding
    /// against the mesh, a run's input of the wrong shape) then point there.
    ///
    /// ```
    /// # use fuser::builder::{ElementType, TensorType};
    /// # use fuser::{Location, PrintOptions};
    /// # let compiler = fuser::Compiler::new();
    /// # let mut program = compiler.program();
    /// let mut f = program.function("f", &[TensorType::new(&[2], ElementType::F32)])?;
    /// f.set_arg_location(0, Some(&Location { file: "model.py".into(), line: 3, column: 5 }))?;
    /// assert!(f.set_arg_location(1, None).is_err());
    /// f.finish(&[])?;
    /// let text = program.finish()?.print(&PrintOptions { debug_info: true, ..Default::default() });
    /// assert!(text.contains("loc(\"model.py\":3:5)"), "{text}");
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn set_arg_location(&mut self, i: usize, location: Option<&crate::Location>) -> Result<(), Error> {
        let arg = self.arg(i)?.value;
        let ctx = self.program.compiler.context();
        let loc = location.map(|l| ctx.file_loc(&l.file, l.line, l.column));
        self.program.ir.set_value_loc(arg, loc);
        Ok(())
    }

    /// Ends the function with `return results`; its result types are theirs.
    ///
    /// ```
    /// # use fuser::builder::{ElementType, TensorType};
    /// # let compiler = fuser::Compiler::new();
    /// # let mut program = compiler.program();
    /// let mut f = program.function("id", &[TensorType::new(&[4], ElementType::I32)])?;
    /// let x = f.arg(0)?;
    /// f.finish(&[x])?;
    /// let text = program.finish()?.print(&Default::default());
    /// assert!(text.contains("func.func @id(%arg0: tensor<4xi32>) -> tensor<4xi32>"));
    /// # Ok::<(), fuser::Error>(())
    /// ```
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
