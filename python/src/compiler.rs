//! `fuser.Compiler` and `fuser.Module`: the embedding facade (`crates/fuser`) for Python:
//! parse MLIR text, run a pipeline written in MLIR's pipeline syntax, verify, print.
//!
//! A `Module` keeps the source texts its locations refer to (the parsed text, or the Python
//! files a `FusionDefinition` was written in), so diagnostics about it, from passes and from
//! runs, show the source line and a caret.

use crate::errors::{self, Diagnostic, Sources};
use pyo3::prelude::*;

/// A compiler: fuser's dialects, passes and named pipelines.
#[pyclass(module = "fuser._fuser", frozen)]
pub struct Compiler {
    pub inner: fuser::Compiler,
}

/// A program (a `builtin.module`) of a compiler.
#[pyclass(module = "fuser._fuser")]
pub struct Module {
    pub inner: fuser::Module,
    pub compiler: fuser::Compiler,
    pub sources: Sources,
}

/// The keyword arguments of `print`, as `fuser::PrintOptions` (mlir-opt's printing flags).
#[allow(clippy::too_many_arguments)]
fn print_options(
    generic: bool,
    debug_info: bool,
    local_scope: bool,
    unique_ssa_ids: bool,
    value_users: bool,
    elide_elements_larger_than: Option<usize>,
    elide_resource_strings_larger_than: Option<u64>,
) -> fuser::PrintOptions {
    fuser::PrintOptions {
        generic,
        debug_info,
        local_scope,
        unique_ssa_ids,
        value_users,
        elide_elements_larger_than,
        elide_resource_strings_larger_than,
    }
}

#[pymethods]
impl Compiler {
    #[new]
    #[pyo3(signature = (*, threading = true, verify_each = true))]
    fn new(py: Python<'_>, threading: bool, verify_each: bool) -> PyResult<Compiler> {
        let built = fuser::Compiler::builder().threading(threading).verify_each(verify_each).build();
        built.map(|inner| Compiler { inner }).map_err(|e| errors::from_facade(py, &e))
    }

    /// Parses and verifies MLIR text; `name` is the file name diagnostics use.
    #[pyo3(signature = (text, name = "<string>"))]
    fn parse(&self, py: Python<'_>, text: &str, name: &str) -> PyResult<Module> {
        let module = self.inner.parse(name, text).map_err(|e| errors::from_facade(py, &e))?;
        Ok(Module { inner: module, compiler: self.inner.clone(), sources: vec![(name.to_string(), text.to_string())] })
    }

    /// Runs `pipeline` on `module` in place; returns the warnings and remarks.
    fn run_pipeline(&self, py: Python<'_>, module: &mut Module, pipeline: &str) -> PyResult<Vec<Diagnostic>> {
        module.run_pipeline(py, pipeline)
    }

    /// Verifies `module`.
    fn verify(&self, py: Python<'_>, module: &Module) -> PyResult<()> {
        module.verify(py)
    }

    /// The text of `module`; the keywords are `Module.print`'s.
    #[pyo3(signature = (module, *, generic = false, debug_info = false, local_scope = false,
        unique_ssa_ids = false, value_users = false, elide_elements_larger_than = None,
        elide_resource_strings_larger_than = None))]
    #[allow(clippy::too_many_arguments)]
    fn print(
        &self,
        module: &Module,
        generic: bool,
        debug_info: bool,
        local_scope: bool,
        unique_ssa_ids: bool,
        value_users: bool,
        elide_elements_larger_than: Option<usize>,
        elide_resource_strings_larger_than: Option<u64>,
    ) -> String {
        module.print(
            generic,
            debug_info,
            local_scope,
            unique_ssa_ids,
            value_users,
            elide_elements_larger_than,
            elide_resource_strings_larger_than,
        )
    }

    /// The names of every pass and named pipeline.
    fn pass_names(&self) -> Vec<&'static str> {
        self.inner.pass_names()
    }

    /// Whether a pass or pipeline of this name exists.
    fn has_pass(&self, name: &str) -> bool {
        self.inner.has_pass(name)
    }
}

#[pymethods]
impl Module {
    /// Runs `pipeline` in place; returns the warnings and remarks.
    fn run_pipeline(&mut self, py: Python<'_>, pipeline: &str) -> PyResult<Vec<Diagnostic>> {
        let compiler = self.compiler.clone();
        let inner = &mut self.inner;
        let result = py.detach(|| compiler.run_pipeline(inner, pipeline));
        match result {
            Ok(ds) => Ok(ds.iter().map(Diagnostic::from).collect()),
            Err(e) => Err(errors::from_facade(py, &e)),
        }
    }

    /// Verifies the module.
    fn verify(&self, py: Python<'_>) -> PyResult<()> {
        self.compiler.verify(&self.inner).map_err(|e| errors::from_facade(py, &e))
    }

    /// The module's text, with mlir-opt's printing flags as keywords: `generic`
    /// (`--mlir-print-op-generic`), `debug_info` (`--mlir-print-debuginfo`), `local_scope`
    /// (`--mlir-print-local-scope`), `unique_ssa_ids` (`--mlir-print-unique-ssa-ids`),
    /// `value_users` (`--mlir-print-value-users`), `elide_elements_larger_than`
    /// (`--mlir-elide-elementsattrs-if-larger`), `elide_resource_strings_larger_than`
    /// (`--mlir-elide-resource-strings-if-larger`).
    #[pyo3(signature = (*, generic = false, debug_info = false, local_scope = false,
        unique_ssa_ids = false, value_users = false, elide_elements_larger_than = None,
        elide_resource_strings_larger_than = None))]
    #[allow(clippy::too_many_arguments)]
    fn print(
        &self,
        generic: bool,
        debug_info: bool,
        local_scope: bool,
        unique_ssa_ids: bool,
        value_users: bool,
        elide_elements_larger_than: Option<usize>,
        elide_resource_strings_larger_than: Option<u64>,
    ) -> String {
        self.inner.print(&print_options(
            generic,
            debug_info,
            local_scope,
            unique_ssa_ids,
            value_users,
            elide_elements_larger_than,
            elide_resource_strings_larger_than,
        ))
    }

    /// A copy (passes run on it leave this module alone).
    fn clone(&self) -> Module {
        Module { inner: self.inner.clone(), compiler: self.compiler.clone(), sources: self.sources.clone() }
    }

    /// The number of operations, the module included.
    fn num_ops(&self) -> usize {
        self.inner.num_ops()
    }

    fn __str__(&self) -> String {
        self.inner.print(&fuser::PrintOptions::default())
    }
}
