//! `fuser._fuser.autodiff`: the facade's `Compiler::autodiff` for Python. The derivative of a
//! module's function as three new `Module`s (the joint `_vjp`, the `_fwd`/`_bwd` split) and
//! what the frontend needs to call them (the saved values' names, the differentiated
//! arguments, which results take a cotangent). `fuser.FusionDefinition.backward` is built on
//! it (python/fuser/_backward.py).

use crate::compiler::Module;
use crate::errors::{self, Loc};
use pyo3::prelude::*;

/// The derivative of one function (see `fuser::Gradients`).
#[pyclass(module = "fuser._fuser", frozen)]
pub struct Gradients {
    vjp: fuser::Module,
    fwd: fuser::Module,
    bwd: fuser::Module,
    compiler: fuser::Compiler,
    sources: errors::Sources,
    /// What each saved value is, in order.
    #[pyo3(get)]
    saved: Vec<String>,
    /// The differentiated arguments (indices), one gradient each, in order.
    #[pyo3(get)]
    wrt: Vec<usize>,
    /// One flag per result of the function: whether it takes a cotangent (floating-point).
    #[pyo3(get)]
    cotangents: Vec<bool>,
}

impl Gradients {
    fn module(&self, m: &fuser::Module) -> Module {
        Module { inner: m.clone(), compiler: self.compiler.clone(), sources: self.sources.clone() }
    }
}

#[pymethods]
impl Gradients {
    /// The joint `@NAME_vjp` (arguments, then cotangents -> results, then gradients).
    #[getter]
    fn vjp(&self) -> Module {
        self.module(&self.vjp)
    }

    /// `@NAME_fwd` (arguments -> results, then the saved values).
    #[getter]
    fn fwd(&self) -> Module {
        self.module(&self.fwd)
    }

    /// `@NAME_bwd` (saved values, then cotangents -> gradients).
    #[getter]
    fn bwd(&self) -> Module {
        self.module(&self.bwd)
    }
}

/// Differentiates `@func` of `module` (left unchanged) with respect to the arguments `wrt`
/// (indices; `None`: every floating-point one). An error without location is placed at `loc`
/// (the Python line that asked for the derivative).
#[pyfunction]
#[pyo3(signature = (module, func, wrt = None, loc = None))]
pub fn autodiff(
    py: Python<'_>,
    module: &Module,
    func: &str,
    wrt: Option<Vec<usize>>,
    loc: Option<(String, u32, u32)>,
) -> PyResult<Gradients> {
    let compiler = module.compiler.clone();
    let inner = &module.inner;
    let result = py.detach(|| compiler.autodiff(inner, func, wrt.as_deref()));
    match result {
        Ok(g) => Ok(Gradients {
            vjp: g.vjp,
            fwd: g.fwd,
            bwd: g.bwd,
            compiler: module.compiler.clone(),
            sources: module.sources.clone(),
            saved: g.saved,
            wrt: g.wrt,
            cotangents: g.cotangents,
        }),
        Err(e) => Err(match loc {
            Some((file, line, column)) => errors::at_loc(py, &e, &Loc { file, line, column }, &module.sources),
            None => errors::from_facade(py, &e),
        }),
    }
}

/// A type as Python gets it: global shape and element type name.
type PyType = (Vec<i64>, &'static str);

/// The global shape and element type of every argument and result of the first function with
/// a body of `module` (a fusion-level program: tensors and scalars), e.g. to check inputs
/// before running a lowered copy, which has only the local shapes.
#[pyfunction]
pub fn signature(py: Python<'_>, module: &Module) -> PyResult<(Vec<PyType>, Vec<PyType>)> {
    let with_locs = fuser::PrintOptions { debug_info: true, ..fuser::PrintOptions::default() };
    let text = module.inner.print(&with_locs);
    let ctx = fuser_ir::Context::new(fuser_dialects::registry());
    let parsed = crate::execute::parse(&ctx, &module.sources, &text).map_err(|ds| errors::raise(py, ds))?;
    let func = crate::execute::function(&ctx, &module.sources, &parsed).map_err(|ds| errors::raise(py, ds))?;
    let Some((inputs, results)) = fuser_dialects::func::signature(&ctx, &parsed.ir, func) else {
        return Ok((Vec::new(), Vec::new()));
    };
    let describe = |t: fuser_ir::Type| -> PyType {
        let (shape, elem) = match ctx.type_kind(t) {
            fuser_ir::TypeKind::RankedTensor { shape, elem, .. } => (shape.clone(), *elem),
            _ => (Vec::new(), t),
        };
        let name = fuser_runtime::dtype::DType::of(&ctx, elem).map_or("?", |d| d.name());
        (shape, name)
    };
    Ok((inputs.iter().map(|&t| describe(t)).collect(), results.iter().map(|&t| describe(t)).collect()))
}
