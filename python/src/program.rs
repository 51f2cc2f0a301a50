//! `_Program`: the Rust half of `fuser.FusionDefinition`. The Python frontend records inputs,
//! ops and outputs here, each with the Python location that made it; every record is checked
//! at once by rebuilding the whole program through the facade's `ProgramBuilder` and verifying
//! it, so a bad op raises at the Python line that made it.
//!
//! Invariant: `records` always builds and verifies (a record that does not is refused and
//! not kept). Value `i` of the frontend is `records[i]` (inputs and ops alike); the function's
//! arguments are the inputs in the order they were defined, wherever they sit among the ops.
//! Rebuilding on every record is quadratic in the op count; frontend programs are small.

use crate::compiler::Module;
use crate::errors::{self, Loc, Sources};
use fuser::builder::{
    Attribute, DeviceAxis, ElementType, FunctionBuilder, Reduction, Sharding, Split, Tensor, TensorType,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// How the frontend describes a sharding: per axis a list of splits (`"DIDx"`, `"DIDy"`,
/// `"DIDz"`, or a stream chunk count), the partial device axes, and the reduction.
#[derive(Clone, Debug, FromPyObject)]
pub struct ShardSpec {
    splits: Vec<Vec<SplitSpec>>,
    partial: Vec<String>,
    reduce: String,
}

#[derive(Clone, Debug, FromPyObject)]
enum SplitSpec {
    Stream(i64),
    Device(String),
}

#[derive(Clone, Debug)]
struct OpRecord {
    name: String,
    operands: Vec<usize>,
    /// `None`: no encoding (a program without mesh).
    out: Option<Sharding>,
    dims: Vec<i64>,
    keep_dims: bool,
    new_axes: Vec<(i64, i64)>,
    shape: Vec<i64>,
    element: Option<ElementType>,
}

/// A property of a generic op as Python gives it.
#[derive(Clone, Debug, FromPyObject)]
pub enum AttrSpec {
    #[pyo3(transparent)]
    Flag(bool),
    #[pyo3(transparent)]
    Int(i64),
    #[pyo3(transparent)]
    Float(f64),
    #[pyo3(transparent)]
    Ints(Vec<i64>),
    #[pyo3(transparent)]
    Str(String),
    /// `(value, dtype)`: a value of an element type (`fusion.full`'s value).
    Typed(f64, String),
}

/// An op built through the facade's generic `FunctionBuilder::op` (result types inferred by
/// the op): every op that declares `infer_result_types`.
#[derive(Clone, Debug)]
struct GenericRecord {
    name: String,
    operands: Vec<usize>,
    /// One sharding per result (`None`: no encoding).
    outs: Vec<Option<Sharding>>,
    attrs: Vec<(String, Attribute)>,
    /// Explicit result types (shape, element type), for what inference leaves out (the shape
    /// of `full`, the statistics of the norms, `sdpa`'s `lse`); `None`: inferred.
    types: Option<Vec<(Vec<i64>, ElementType)>>,
}

#[derive(Clone, Debug)]
enum Kind {
    Input(TensorType),
    Op(OpRecord),
    /// Result 0 of a generic op.
    Generic(GenericRecord),
    /// Result `index` (at least 1) of the generic op of record `of`.
    Extra {
        of: usize,
        index: usize,
    },
}

#[derive(Clone, Debug)]
struct Record {
    kind: Kind,
    loc: Loc,
}

/// What a value is: shape and element type.
#[derive(Clone, Debug)]
struct ValueInfo {
    shape: Vec<i64>,
    element: ElementType,
}

#[derive(Clone, Debug)]
struct MeshSpec {
    name: String,
    shape: Vec<i64>,
    devices: Vec<i64>,
}

/// A fusion program being defined (see the module docs).
#[pyclass(module = "fuser._fuser")]
pub struct Program {
    compiler: fuser::Compiler,
    name: String,
    mesh: Option<MeshSpec>,
    loc: Loc,
    records: Vec<Record>,
    info: Vec<ValueInfo>,
    outputs: Vec<usize>,
    sources: Sources,
}

fn element(py: Python<'_>, name: &str, loc: &Loc, sources: &Sources) -> PyResult<ElementType> {
    Ok(match name {
        "f64" => ElementType::F64,
        "f32" => ElementType::F32,
        "f16" => ElementType::F16,
        "bf16" => ElementType::BF16,
        "i64" => ElementType::I64,
        "i32" => ElementType::I32,
        "i16" => ElementType::I16,
        "i8" => ElementType::I8,
        "i1" => ElementType::I1,
        _ => {
            let msg = format!("unknown element type '{name}' (f64, f32, f16, bf16, i64, i32, i16, i8, i1)");
            return Err(errors::raise(py, vec![errors::located(Some(loc), &msg, sources)]));
        }
    })
}

fn element_name(e: ElementType) -> &'static str {
    match e {
        ElementType::F64 => "f64",
        ElementType::F32 => "f32",
        ElementType::F16 => "f16",
        ElementType::BF16 => "bf16",
        ElementType::I64 => "i64",
        ElementType::I32 => "i32",
        ElementType::I16 => "i16",
        ElementType::I8 => "i8",
        ElementType::I1 => "i1",
    }
}

fn device_axis(name: &str) -> Result<DeviceAxis, String> {
    match name {
        "DIDx" => Ok(DeviceAxis::DIDx),
        "DIDy" => Ok(DeviceAxis::DIDy),
        "DIDz" => Ok(DeviceAxis::DIDz),
        _ => Err(format!("unknown device axis '{name}' (DIDx, DIDy, DIDz)")),
    }
}

impl ShardSpec {
    fn sharding(&self, mesh: &str) -> Result<Sharding, String> {
        let mut s = Sharding::new(mesh, self.splits.len());
        for (axis, list) in self.splits.iter().enumerate() {
            for split in list {
                s = s.split(
                    axis,
                    match split {
                        SplitSpec::Stream(n) => Split::Stream(*n),
                        SplitSpec::Device(d) => Split::Device(device_axis(d)?),
                    },
                );
            }
        }
        for p in &self.partial {
            s = s.partial(device_axis(p)?);
        }
        let kind = match self.reduce.as_str() {
            "sum" => Reduction::Sum,
            "prod" => Reduction::Prod,
            "min" => Reduction::Min,
            "max" => Reduction::Max,
            other => return Err(format!("unknown reduction '{other}' (sum, prod, min, max)")),
        };
        Ok(s.reduction(kind))
    }
}

/// Appends `op` to the function; `tensors` are the values built so far, by record index.
fn apply(f: &mut FunctionBuilder<'_, '_>, op: &OpRecord, tensors: &[Option<Tensor>]) -> Result<Tensor, fuser::Error> {
    let operand = |k: usize| -> Result<Tensor, fuser::Error> {
        op.operands.get(k).and_then(|&v| tensors.get(v).copied().flatten()).ok_or_else(|| {
            fuser::Error::message(format!("{}: operand #{k} is not a value of this definition", op.name))
        })
    };
    let out = op.out.clone();
    match op.name.as_str() {
        "matmul" => f.matmul(operand(0)?, operand(1)?, out),
        "linear" => {
            let bias = if op.operands.len() > 2 { Some(operand(2)?) } else { None };
            f.linear(operand(0)?, operand(1)?, bias, out)
        }
        "add" => f.add(operand(0)?, operand(1)?, out),
        "sub" => f.sub(operand(0)?, operand(1)?, out),
        "mul" => f.mul(operand(0)?, operand(1)?, out),
        "div" => f.div(operand(0)?, operand(1)?, out),
        "neg" => f.neg(operand(0)?, out),
        "cast" => {
            let e = op.element.ok_or_else(|| fuser::Error::message("cast: no element type"))?;
            f.cast(operand(0)?, e, out)
        }
        "set" => f.set(operand(0)?, out),
        "sum" => f.sum(operand(0)?, &op.dims, op.keep_dims, out),
        "broadcast" => f.broadcast(operand(0)?, &op.new_axes, out),
        "reshape" => f.reshape(operand(0)?, &op.shape, out),
        "permute" => f.permute(operand(0)?, &op.dims, out),
        other => Err(fuser::Error::message(format!("unknown fusion op '{other}'"))),
    }
}

/// Checks that every extent of `extents` (the argument `what`) is non-negative: a negative
/// one would read as MLIR's dynamic extent (`?`, printed -1) and fail later.
fn check_extents(what: &str, extents: impl IntoIterator<Item = i64>) -> Result<(), String> {
    for (i, e) in extents.into_iter().enumerate() {
        if e < 0 {
            return Err(format!("{what}[{i}] is {e}: extents must be non-negative"));
        }
    }
    Ok(())
}

impl Program {
    /// The number of results of the generic op of record `i`, from a rebuild of the records.
    fn result_count(&self, i: usize) -> usize {
        let Some(Record { kind: Kind::Generic(g), .. }) = self.records.get(i) else { return 1 };
        if let Some(types) = &g.types {
            return types.len();
        }
        let compiler = &self.compiler;
        let mut program = compiler.program();
        let types: Vec<TensorType> = g
            .operands
            .iter()
            .filter_map(|&v| self.info.get(v).map(|vi| TensorType::new(&vi.shape, vi.element)))
            .collect();
        let Ok(mut f) = program.function("count", &types) else { return 1 };
        let args: Vec<Tensor> = (0..types.len()).filter_map(|k| f.arg(k).ok()).collect();
        let attrs: Vec<(&str, Attribute)> = g.attrs.iter().map(|(k, a)| (k.as_str(), a.clone())).collect();
        f.op(&format!("fusion.{}", g.name), &args, &attrs, &[]).map_or(1, |r| r.len())
    }

    fn err_at(&self, py: Python<'_>, loc: &Loc, msg: &str) -> PyErr {
        errors::raise(py, vec![errors::located(Some(loc), msg, &self.sources)])
    }

    /// A `FuserValueError` at `loc`: an argument with a value fuser cannot use.
    fn bad_value(&self, py: Python<'_>, loc: &Loc, msg: &str) -> PyErr {
        errors::argument(py, errors::ErrorKind::Value, Some(loc), msg, &self.sources)
    }

    /// The sharding a spec describes on this program's mesh (`None` without a mesh).
    fn sharding(&self, py: Python<'_>, spec: Option<ShardSpec>, loc: &Loc) -> PyResult<Option<Sharding>> {
        match (&self.mesh, spec) {
            (_, None) => Ok(None),
            (None, Some(_)) => {
                Err(self.err_at(py, loc, "a sharding needs a mesh: FusionDefinition(mesh=fuser.Mesh(...))"))
            }
            (Some(m), Some(spec)) => spec.sharding(&m.name).map(Some).map_err(|e| self.err_at(py, loc, &e)),
        }
    }

    /// Builds and verifies `records` and `outputs`; on success the info of every value.
    fn build(&self, records: &[Record], outputs: &[usize]) -> Result<(fuser::Module, Vec<ValueInfo>), fuser::Error> {
        let mut program = self.compiler.program();
        for (name, text) in &self.sources {
            program.add_source(name, text);
        }
        program.set_location(Some(&self.loc.facade()));
        if let Some(m) = &self.mesh {
            program.mesh_grid(&m.name, &m.shape, &m.devices)?;
        }
        let inputs: Vec<(usize, &TensorType)> = records
            .iter()
            .enumerate()
            .filter_map(|(i, r)| match &r.kind {
                Kind::Input(t) => Some((i, t)),
                _ => None,
            })
            .collect();
        let types: Vec<TensorType> = inputs.iter().map(|(_, t)| (*t).clone()).collect();
        let mut f = program.function(&self.name, &types)?;
        for (arg, (i, _)) in inputs.iter().enumerate() {
            f.set_arg_location(arg, Some(&records[*i].loc.facade()))?;
        }
        let mut tensors: Vec<Option<Tensor>> = vec![None; records.len()];
        let mut info = Vec::with_capacity(records.len());
        let mut arg = 0;
        let mut extras: std::collections::HashMap<usize, Vec<Tensor>> = std::collections::HashMap::new();
        for (i, r) in records.iter().enumerate() {
            match &r.kind {
                Kind::Input(t) => {
                    tensors[i] = Some(f.arg(arg)?);
                    arg += 1;
                    info.push(ValueInfo { shape: t.shape().to_vec(), element: t.element() });
                }
                Kind::Op(op) => {
                    f.set_location(Some(&r.loc.facade()));
                    let t = apply(&mut f, op, &tensors)?;
                    let element = op.element.unwrap_or_else(|| info[op.operands[0]].element);
                    let shape = f.shape(t)?;
                    tensors[i] = Some(t);
                    info.push(ValueInfo { shape, element });
                }
                Kind::Generic(g) => {
                    f.set_location(Some(&r.loc.facade()));
                    let operands = g
                        .operands
                        .iter()
                        .map(|&v| {
                            tensors.get(v).copied().flatten().ok_or_else(|| {
                                fuser::Error::message(format!(
                                    "{}: value #{v} is not a value of this definition",
                                    g.name
                                ))
                            })
                        })
                        .collect::<Result<Vec<_>, _>>()?;
                    let attrs: Vec<(&str, Attribute)> = g.attrs.iter().map(|(k, a)| (k.as_str(), a.clone())).collect();
                    let name = format!("fusion.{}", g.name);
                    let results = match &g.types {
                        None => f.op(&name, &operands, &attrs, &g.outs)?,
                        Some(types) => {
                            let types: Vec<TensorType> = types
                                .iter()
                                .enumerate()
                                .map(|(j, (shape, e))| {
                                    let t = TensorType::new(shape, *e);
                                    match g.outs.get(j).cloned().flatten() {
                                        Some(s) => t.sharded(s),
                                        None => t,
                                    }
                                })
                                .collect();
                            f.op_with_types(&name, &operands, &attrs, &types)?
                        }
                    };
                    let t = results[0];
                    info.push(ValueInfo { shape: f.shape(t)?, element: f.element(t)? });
                    tensors[i] = Some(t);
                    extras.insert(i, results);
                }
                Kind::Extra { of, index } => {
                    let t =
                        extras.get(of).and_then(|rs| rs.get(*index)).copied().ok_or_else(|| {
                            fuser::Error::message(format!("value #{i}: the op has no result #{index}"))
                        })?;
                    info.push(ValueInfo { shape: f.shape(t)?, element: f.element(t)? });
                    tensors[i] = Some(t);
                }
            }
        }
        let results: Vec<Tensor> = outputs.iter().filter_map(|&o| tensors.get(o).copied().flatten()).collect();
        f.set_location(Some(&self.loc.facade()));
        f.finish(&results)?;
        let module = program.finish()?;
        Ok((module, info))
    }

    /// Adds `record` if the program still builds with it; the new value's index.
    fn push(&mut self, py: Python<'_>, record: Record) -> PyResult<usize> {
        let mut records = self.records.clone();
        let loc = record.loc.clone();
        records.push(record);
        match self.build(&records, &self.outputs) {
            Ok((_, info)) => {
                self.records = records;
                self.info = info;
                Ok(self.records.len() - 1)
            }
            Err(e) => Err(errors::at_loc(py, &e, &loc, &self.sources)),
        }
    }
}

#[pymethods]
impl Program {
    /// A program named `name` (its function's symbol) on an optional mesh
    /// (`(name, shape, devices)`), defined at `loc` = `(file, line, column)`.
    #[new]
    #[pyo3(signature = (compiler, name, mesh, loc))]
    fn new(
        compiler: &crate::compiler::Compiler,
        name: String,
        mesh: Option<(String, Vec<i64>, Vec<i64>)>,
        loc: (String, u32, u32),
    ) -> Program {
        Program {
            compiler: compiler.inner.clone(),
            name,
            mesh: mesh.map(|(name, shape, devices)| MeshSpec { name, shape, devices }),
            loc: Loc { file: loc.0, line: loc.1, column: loc.2 },
            records: Vec::new(),
            info: Vec::new(),
            outputs: Vec::new(),
            sources: Vec::new(),
        }
    }

    /// Registers the text of a source file locations name (for source lines in diagnostics).
    fn add_source(&mut self, name: String, text: String) {
        if !self.sources.iter().any(|(n, _)| *n == name) {
            self.sources.push((name, text));
        }
    }

    /// Checks the mesh and the (empty) program; raises at the definition's location.
    fn check(&self, py: Python<'_>) -> PyResult<()> {
        self.build(&self.records, &self.outputs)
            .map(|_| ())
            .map_err(|e| errors::at_loc(py, &e, &self.loc, &self.sources))
    }

    /// Defines an input tensor; returns its value index.
    #[pyo3(signature = (shape, dtype, sharding, loc))]
    fn input(
        &mut self,
        py: Python<'_>,
        shape: Vec<i64>,
        dtype: &str,
        sharding: Option<ShardSpec>,
        loc: (String, u32, u32),
    ) -> PyResult<usize> {
        let loc = Loc { file: loc.0, line: loc.1, column: loc.2 };
        check_extents("define_tensor: shape", shape.iter().copied()).map_err(|m| self.bad_value(py, &loc, &m))?;
        let elem = element(py, dtype, &loc, &self.sources)?;
        let mut ty = TensorType::new(&shape, elem);
        if let Some(s) = self.sharding(py, sharding, &loc)? {
            ty = ty.sharded(s);
        }
        self.push(py, Record { kind: Kind::Input(ty), loc })
    }

    /// Appends the fusion op `op` (matmul, linear, add, sub, mul, div, neg, cast, set, sum,
    /// broadcast, reshape, permute); returns the result's value index.
    #[pyo3(signature = (op, operands, sharding, loc, *, dims = Vec::new(), keep_dims = false, new_axes = Vec::new(), shape = Vec::new(), dtype = None))]
    #[allow(clippy::too_many_arguments)]
    fn op(
        &mut self,
        py: Python<'_>,
        op: String,
        operands: Vec<usize>,
        sharding: Option<ShardSpec>,
        loc: (String, u32, u32),
        dims: Vec<i64>,
        keep_dims: bool,
        new_axes: Vec<(i64, i64)>,
        shape: Vec<i64>,
        dtype: Option<String>,
    ) -> PyResult<usize> {
        let loc = Loc { file: loc.0, line: loc.1, column: loc.2 };
        if let Some(&bad) = operands.iter().find(|&&v| v >= self.records.len()) {
            return Err(self.err_at(py, &loc, &format!("{op}: value #{bad} is not a value of this definition")));
        }
        match op.as_str() {
            "reshape" => check_extents("reshape: shape", shape.iter().copied()),
            "broadcast" => check_extents("broadcast: new_axes extent", new_axes.iter().map(|&(_, e)| e)),
            _ => Ok(()),
        }
        .map_err(|m| self.bad_value(py, &loc, &m))?;
        let element = dtype.map(|d| element(py, &d, &loc, &self.sources)).transpose()?;
        let out = self.sharding(py, sharding, &loc)?;
        let record = OpRecord { name: op, operands, out, dims, keep_dims, new_axes, shape, element };
        self.push(py, Record { kind: Kind::Op(record), loc })
    }

    /// Appends the fusion op `fusion.<op>` through its inferred result types (any op that
    /// declares them: softmax, layer_norm, sdpa, ...), or with the explicit result types
    /// `types` (`(shape, dtype)` per result: `full`, ops without inference, the optional results
    /// inference leaves out), with the properties `attrs` and one sharding per result; returns
    /// the value index of every result.
    #[pyo3(signature = (op, operands, shardings, loc, attrs, types = None))]
    #[allow(clippy::too_many_arguments)]
    fn generic(
        &mut self,
        py: Python<'_>,
        op: String,
        operands: Vec<usize>,
        shardings: Vec<Option<ShardSpec>>,
        loc: (String, u32, u32),
        attrs: Vec<(String, AttrSpec)>,
        types: Option<Vec<(Vec<i64>, String)>>,
    ) -> PyResult<Vec<usize>> {
        let loc = Loc { file: loc.0, line: loc.1, column: loc.2 };
        if let Some(&bad) = operands.iter().find(|&&v| v >= self.records.len()) {
            return Err(self.err_at(py, &loc, &format!("{op}: value #{bad} is not a value of this definition")));
        }
        let mut outs = Vec::with_capacity(shardings.len());
        for s in shardings {
            outs.push(self.sharding(py, s, &loc)?);
        }
        let mut converted = Vec::with_capacity(attrs.len());
        for (k, a) in attrs {
            let attr = match a {
                AttrSpec::Flag(true) => Attribute::Flag,
                AttrSpec::Flag(false) => continue,
                AttrSpec::Int(i) => Attribute::Int(i),
                AttrSpec::Float(x) => Attribute::Float(x),
                // MLIR's segment sizes are an array<i32>.
                AttrSpec::Ints(v) if k == "operandSegmentSizes" => {
                    Attribute::I32s(v.iter().map(|&x| i32::try_from(x).unwrap_or(-1)).collect())
                }
                AttrSpec::Ints(v) => Attribute::Ints(v),
                AttrSpec::Str(s) => Attribute::Str(s),
                AttrSpec::Typed(v, d) => Attribute::Typed(v, element(py, &d, &loc, &self.sources)?),
            };
            converted.push((k, attr));
        }
        let types = match types {
            None => None,
            Some(list) => {
                let mut out = Vec::with_capacity(list.len());
                for (shape, d) in list {
                    check_extents(&format!("{op}: shape"), shape.iter().copied())
                        .map_err(|m| self.bad_value(py, &loc, &m))?;
                    out.push((shape, element(py, &d, &loc, &self.sources)?));
                }
                Some(out)
            }
        };
        let record = GenericRecord { name: op, operands, outs, attrs: converted, types };
        let first = self.push(py, Record { kind: Kind::Generic(record), loc: loc.clone() })?;
        // The other results: one record each, read from the op's results by the rebuild.
        let count = self.result_count(first);
        let mut indices = vec![first];
        for index in 1..count {
            indices.push(self.push(py, Record { kind: Kind::Extra { of: first, index }, loc: loc.clone() })?);
        }
        Ok(indices)
    }

    /// Marks value `value` as the next output.
    fn output(&mut self, py: Python<'_>, value: usize, loc: (String, u32, u32)) -> PyResult<()> {
        let loc = Loc { file: loc.0, line: loc.1, column: loc.2 };
        if value >= self.records.len() {
            return Err(self.err_at(py, &loc, &format!("value #{value} is not a value of this definition")));
        }
        let mut outputs = self.outputs.clone();
        outputs.push(value);
        match self.build(&self.records, &outputs) {
            Ok(_) => {
                self.outputs = outputs;
                Ok(())
            }
            Err(e) => Err(errors::at_loc(py, &e, &loc, &self.sources)),
        }
    }

    /// The global shape of value `value`.
    fn shape(&self, value: usize) -> PyResult<Vec<i64>> {
        self.info.get(value).map(|i| i.shape.clone()).ok_or_else(|| PyValueError::new_err(format!("no value #{value}")))
    }

    /// The element type name of value `value`.
    fn dtype(&self, value: usize) -> PyResult<&'static str> {
        self.info
            .get(value)
            .map(|i| element_name(i.element))
            .ok_or_else(|| PyValueError::new_err(format!("no value #{value}")))
    }

    /// The number of inputs defined so far.
    fn num_inputs(&self) -> usize {
        self.records.iter().filter(|r| matches!(r.kind, Kind::Input(_))).count()
    }

    /// The value indices of the inputs, in argument order.
    fn inputs(&self) -> Vec<usize> {
        self.records.iter().enumerate().filter(|(_, r)| matches!(r.kind, Kind::Input(_))).map(|(i, _)| i).collect()
    }

    /// The value indices of the outputs.
    fn outputs(&self) -> Vec<usize> {
        self.outputs.clone()
    }

    /// The program as a verified module (a fresh one on each call).
    fn module(&self, py: Python<'_>) -> PyResult<Module> {
        match self.build(&self.records, &self.outputs) {
            Ok((inner, _)) => Ok(Module { inner, compiler: self.compiler.clone(), sources: self.sources.clone() }),
            Err(e) => Err(errors::at_loc(py, &e, &self.loc, &self.sources)),
        }
    }
}
