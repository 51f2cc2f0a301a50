//! [`Compiler`]: a context with fuser's dialects (and any the embedder adds) plus a pass
//! registry; it parses text into [`Module`]s, runs pipelines written in MLIR's pipeline
//! syntax, verifies and prints. [`CompilerBuilder`] registers outside dialects, passes and
//! named pipelines before the context is made (the registry is fixed from then on).
//!
//! Every call returns its diagnostics as data and never prints, exits or unwinds (a panic
//! inside becomes an error diagnostic, see `panics.rs`).

use crate::diagnostics::{Diagnostic, Error, resolve_all};
use crate::module::{Module, PrintOptions};
use crate::panics::{guarded, install_quiet_hook};
use fuser_ir::diag::{SourceFile, SourceMgr};
use fuser_ir::pass::{OpPassManager, PassInfo, PassManager, PassManagerConfig, PassRegistry, PipelineInfo};
use fuser_ir::registry::{DialectDef, Registry};
use fuser_ir::{Context, Ir};
use std::sync::Arc;

/// What a [`Compiler`] and the modules it made share: the context and the passes.
pub(crate) struct Shared {
    pub(crate) ctx: Context,
    pub(crate) passes: PassRegistry,
    pub(crate) settings: Settings,
}

/// How pipelines run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    threading: bool,
    verify_each: bool,
}

/// Compiles fuser programs: parse, build, transform, verify, print.
///
/// A `Compiler` is cheap to clone (clones share one context) and is `Send + Sync`: several
/// threads may parse and transform their own modules with one compiler at once.
///
/// ```
/// use fuser::{Compiler, PrintOptions};
///
/// let compiler = Compiler::new();
/// let mut module = compiler.parse("input.mlir", "func.func @id(%a: i32) -> i32 {\n  return %a : i32\n}\n")?;
/// let remarks = compiler.run_pipeline(&mut module, "builtin.module(canonicalize, cse)")?;
/// assert!(remarks.is_empty());
/// compiler.verify(&module)?;
/// let text = compiler.print(&module, &PrintOptions::default());
/// assert!(text.starts_with("module {\n  func.func @id(%arg0: i32) -> i32 {"));
/// # Ok::<(), fuser::Error>(())
/// ```
#[derive(Clone)]
pub struct Compiler {
    pub(crate) shared: Arc<Shared>,
}

impl std::fmt::Debug for Compiler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiler").field("settings", &self.shared.settings).finish_non_exhaustive()
    }
}

impl Default for Compiler {
    fn default() -> Self {
        Compiler::new()
    }
}

impl Compiler {
    /// A compiler with fuser's dialects (builtin, func, arith, fusion, host, comm), passes and
    /// named pipelines (`tp-default`, ...), threading and verify-after-each-pass on, exactly as
    /// `fuser-opt` runs them.
    ///
    /// ```
    /// let compiler = fuser::Compiler::new();
    /// assert!(compiler.has_pass("tp-overlap-p2p") && compiler.has_pass("cse"));
    /// ```
    pub fn new() -> Compiler {
        CompilerBuilder::new().build().unwrap_or_else(|e| unreachable!("fuser's own registrations clash: {e}"))
    }

    /// A builder to register outside dialects, passes and pipelines first.
    ///
    /// ```
    /// let compiler = fuser::Compiler::builder().threading(false).build()?;
    /// assert!(compiler.has_pass("tp-default"));
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn builder() -> CompilerBuilder {
        CompilerBuilder::new()
    }

    /// Whether a pass or named pipeline of this name can be used in pipeline text.
    ///
    /// ```
    /// let compiler = fuser::Compiler::new();
    /// assert!(compiler.has_pass("canonicalize"));
    /// assert!(!compiler.has_pass("no-such-pass"));
    /// ```
    pub fn has_pass(&self, name: &str) -> bool {
        self.shared.passes.pass(name).is_some() || self.shared.passes.pipeline(name).is_some()
    }

    /// The names usable in pipeline text (passes, then named pipelines), each group sorted.
    ///
    /// ```
    /// let names = fuser::Compiler::new().pass_names();
    /// assert!(names.contains(&"fusion-to-host") && names.contains(&"tp-default"));
    /// ```
    pub fn pass_names(&self) -> Vec<&'static str> {
        let passes = self.shared.passes.passes().map(|p| p.name);
        passes.chain(self.shared.passes.pipelines().map(|p| p.name)).collect()
    }

    /// Parses MLIR text (custom or generic form) and verifies it, as `fuser-opt` does before
    /// running passes. `name` is the buffer name diagnostics report (a file name or a label).
    /// Top-level ops that are not a `builtin.module` are wrapped in one.
    ///
    /// ```
    /// let compiler = fuser::Compiler::new();
    /// let err = compiler.parse("x.mlir", "func.func @f() {\n  %0 = arith.addi : i32\n}\n").unwrap_err();
    /// assert_eq!(err.diagnostics()[0].location.as_ref().unwrap().line, 2);
    /// ```
    pub fn parse(&self, name: &str, text: &str) -> Result<Module, Error> {
        guarded("parse", || {
            let ctx = &self.shared.ctx;
            let source = SourceFile::new(name, Arc::from(text));
            let mut sources = SourceMgr::new();
            sources.add(source.clone());
            let mut ir = Ir::new();
            let op = fuser_ir::parser::parse_source_all(ctx, &mut ir, &source)
                .map_err(|ds| Error::new(resolve_all(ctx, &sources, &ds)))?;
            let module = Module { shared: self.shared.clone(), ir, op, sources };
            self.verify(&module)?;
            Ok(module)
        })
    }

    /// Runs a pipeline given in MLIR's textual syntax, e.g. `builtin.module(tp-default)` or
    /// `builtin.module(func.func(cse), canonicalize)`. Returns the warnings and remarks the
    /// passes reported; on failure, the error with every diagnostic. After a failure the
    /// module may be partly transformed.
    ///
    /// ```
    /// let compiler = fuser::Compiler::new();
    /// let mut module = compiler.parse("m.mlir", "func.func @f() -> i32 {\n  %a = arith.constant 1 : i32\n  %b = arith.addi %a, %a : i32\n  return %b : i32\n}\n")?;
    /// compiler.run_pipeline(&mut module, "builtin.module(func.func(canonicalize))")?;
    /// assert!(module.print(&Default::default()).contains("arith.constant 2 : i32"));
    /// let err = compiler.run_pipeline(&mut module, "builtin.module(bogus)").unwrap_err();
    /// assert!(err.to_string().contains("'bogus' does not refer to a registered pass"));
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn run_pipeline(&self, module: &mut Module, pipeline: &str) -> Result<Vec<Diagnostic>, Error> {
        self.check_owns(module)?;
        guarded("run_pipeline", || {
            let pm = OpPassManager::parse(pipeline, &self.shared.passes).map_err(|e| Error::message(e.to_string()))?;
            let manager = PassManager { pipeline: pm, config: self.shared.settings.pass_config() };
            let output = manager.run(&self.shared.ctx, &mut module.ir, module.op);
            let internal: Vec<_> = output.diagnostics().cloned().collect();
            let diagnostics = resolve_all(&self.shared.ctx, &module.sources, &internal);
            if output.success { Ok(diagnostics) } else { Err(Error::new(diagnostics)) }
        })
    }

    /// Verifies the module: structure, types, SSA dominance and every op's own rules.
    ///
    /// ```
    /// let compiler = fuser::Compiler::new();
    /// let module = compiler.parse("m.mlir", "fusion.mesh @tp = [0, 1]")?;
    /// compiler.verify(&module)?;
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn verify(&self, module: &Module) -> Result<(), Error> {
        self.check_owns(module)?;
        guarded("verify", || {
            fuser_ir::verifier::verify(&self.shared.ctx, &module.ir, module.op)
                .map_err(|ds| Error::new(resolve_all(&self.shared.ctx, &module.sources, &ds)))
        })
    }

    /// Prints the module as `fuser-opt` prints its output (custom forms unless
    /// [`PrintOptions::generic`] is set), ending with a newline.
    ///
    /// ```
    /// let compiler = fuser::Compiler::new();
    /// let module = compiler.parse("m.mlir", "fusion.mesh @tp = [0, 1]")?;
    /// let generic = compiler.print(&module, &fuser::PrintOptions::generic());
    /// assert!(generic.contains("\"fusion.mesh\"() <{devices = array<i64: 0, 1>"));
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn print(&self, module: &Module, options: &PrintOptions) -> String {
        module.print(options)
    }

    fn check_owns(&self, module: &Module) -> Result<(), Error> {
        if Arc::ptr_eq(&self.shared, &module.shared) {
            Ok(())
        } else {
            Err(Error::message("the module was made by another Compiler"))
        }
    }

    /// The context the compiler's modules are built against.
    pub(crate) fn context(&self) -> &Context {
        &self.shared.ctx
    }
}

impl Settings {
    fn pass_config(self) -> PassManagerConfig {
        PassManagerConfig { threading: self.threading, verify_each: self.verify_each, ..PassManagerConfig::default() }
    }
}

/// Registers outside dialects, passes and named pipelines next to fuser's own, then builds a
/// [`Compiler`].
///
/// Definitions are `'static` data: an outside dialect is a `static` [`DialectDef`](
/// crate::extend::DialectDef) whose ops are declared with [`declare_op!`](crate::extend::declare_op),
/// a pass is a `static` [`PassInfo`](crate::extend::PassInfo). A registered pass is named in
/// pipeline text exactly like fuser's (see the `embed` example and `docs/embedding.md`).
///
/// ```
/// use fuser::extend::{DialectDef, TypeConstraint, declare_op};
///
/// const ANY: TypeConstraint = TypeConstraint::new("any type", |_, _| true);
/// declare_op! {
///     /// `toy.id`: returns its operand.
///     pub static ID: "toy.id" {
///         summary: "identity",
///         traits: [PURE],
///         operands: { input: ANY },
///         results: { result: ANY },
///     }
/// }
/// static TOY: DialectDef = DialectDef {
///     namespace: "toy",
///     summary: "a toy dialect",
///     description: "",
///     ops: &[&ID],
///     materialize_constant: None,
///     types: &[],
///     attrs: &[],
///     opaque_attrs: false,
/// };
///
/// let compiler = fuser::Compiler::builder().dialect(&TOY).build()?;
/// let text = "func.func @f(%a: i32) -> i32 {\n  %0 = \"toy.id\"(%a) : (i32) -> i32\n  return %0 : i32\n}\n";
/// let mut module = compiler.parse("toy.mlir", text)?;
/// // toy.id is pure and unused results die; here it is used, so it stays.
/// compiler.run_pipeline(&mut module, "builtin.module(canonicalize)")?;
/// assert!(module.print(&Default::default()).contains("\"toy.id\"(%arg0)"));
/// # Ok::<(), fuser::Error>(())
/// ```
pub struct CompilerBuilder {
    registry: Registry,
    passes: PassRegistry,
    settings: Settings,
    allow_unregistered: bool,
    errors: Vec<String>,
}

impl CompilerBuilder {
    fn new() -> CompilerBuilder {
        let mut passes = PassRegistry::new();
        let errors = fuser_passes::register_all(&mut passes).err().into_iter().collect();
        CompilerBuilder {
            registry: fuser_dialects::registry(),
            passes,
            settings: Settings { threading: true, verify_each: true },
            allow_unregistered: false,
            errors,
        }
    }

    /// Registers a dialect and its ops. A namespace or op name that is already taken by
    /// another definition makes [`build`](Self::build) fail (see [`CompilerBuilder`] for a
    /// whole outside dialect).
    ///
    /// ```
    /// use fuser::extend::DialectDef;
    /// static FUNC_AGAIN: DialectDef = DialectDef {
    ///     namespace: "func",
    ///     summary: "",
    ///     description: "",
    ///     ops: &[],
    ///     materialize_constant: None,
    ///     types: &[],
    ///     attrs: &[],
    ///     opaque_attrs: false,
    /// };
    /// let err = fuser::Compiler::builder().dialect(&FUNC_AGAIN).build().unwrap_err();
    /// assert!(err.to_string().contains("a dialect named 'func' is already registered"));
    /// ```
    pub fn dialect(mut self, dialect: &'static DialectDef) -> Self {
        if let Some(existing) = self.registry.dialect(dialect.namespace)
            && !std::ptr::eq(existing, dialect)
        {
            self.errors.push(format!("a dialect named '{}' is already registered", dialect.namespace));
            return self;
        }
        if let Some(op) =
            dialect.ops.iter().find(|op| self.registry.op(op.name).is_some_and(|o| !std::ptr::eq(o, **op)))
        {
            self.errors.push(format!("an op named '{}' is already registered", op.name));
            return self;
        }
        self.registry.register(dialect);
        self
    }

    /// Registers a pass, so that pipeline text may name it. A name already taken by another
    /// pass or pipeline makes [`build`](Self::build) fail (see [`extend`](crate::extend) for
    /// a pass that runs).
    ///
    /// ```
    /// static UNBUILDABLE: fuser::extend::PassInfo = fuser::extend::PassInfo {
    ///     name: "my-unbuildable",
    ///     display: "MyUnbuildable",
    ///     summary: "cannot be created",
    ///     description: "",
    ///     anchor: None,
    ///     options: &[],
    ///     create: |_| Err("not today".into()),
    /// };
    /// let compiler = fuser::Compiler::builder().pass(&UNBUILDABLE).build()?;
    /// assert!(compiler.has_pass("my-unbuildable"));
    /// let mut module = compiler.parse("m.mlir", "")?;
    /// assert!(compiler.run_pipeline(&mut module, "builtin.module(my-unbuildable)").is_err());
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn pass(mut self, pass: &'static PassInfo) -> Self {
        if let Err(e) = self.passes.register_pass(pass) {
            self.errors.push(e);
        }
        self
    }

    /// Registers a named pipeline (same naming rules as [`pass`](Self::pass)).
    ///
    /// ```
    /// use fuser::extend::PipelineInfo;
    /// static CLEANUP: PipelineInfo = PipelineInfo {
    ///     name: "my-cleanup",
    ///     summary: "canonicalize then cse",
    ///     description: "",
    ///     options: &[],
    ///     build: |_, registry, pm| pm.add_pipeline_text("canonicalize,cse", registry).map_err(|e| e.to_string()),
    /// };
    /// let compiler = fuser::Compiler::builder().pipeline(&CLEANUP).build()?;
    /// let mut module = compiler.parse("m.mlir", "")?;
    /// compiler.run_pipeline(&mut module, "builtin.module(my-cleanup)")?;
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn pipeline(mut self, pipeline: &'static PipelineInfo) -> Self {
        if let Err(e) = self.passes.register_pipeline(pipeline) {
            self.errors.push(e);
        }
        self
    }

    /// Accept ops, types and attributes of dialects nobody registered, kept verbatim
    /// (`fuser-opt --allow-unregistered-dialect`). Off by default.
    ///
    /// ```
    /// let text = "\"other.op\"() : () -> ()";
    /// assert!(fuser::Compiler::new().parse("m.mlir", text).is_err());
    /// let lenient = fuser::Compiler::builder().allow_unregistered_dialects(true).build()?;
    /// assert!(lenient.parse("m.mlir", text).is_ok());
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn allow_unregistered_dialects(mut self, allow: bool) -> Self {
        self.allow_unregistered = allow;
        self
    }

    /// Run nested pipelines on several functions in parallel (on by default; output never
    /// depends on it).
    ///
    /// ```
    /// let compiler = fuser::Compiler::builder().threading(false).build()?;
    /// let mut module = compiler.parse("m.mlir", "func.func @a() {\n  return\n}\nfunc.func @b() {\n  return\n}\n")?;
    /// compiler.run_pipeline(&mut module, "builtin.module(func.func(cse))")?;
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn threading(mut self, on: bool) -> Self {
        self.settings.threading = on;
        self
    }

    /// Verify the IR after every pass (on by default, as in `fuser-opt`).
    ///
    /// ```
    /// let compiler = fuser::Compiler::builder().verify_each(false).build()?;
    /// let mut module = compiler.parse("m.mlir", "")?;
    /// compiler.run_pipeline(&mut module, "builtin.module(cse)")?;
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn verify_each(mut self, on: bool) -> Self {
        self.settings.verify_each = on;
        self
    }

    /// The compiler, or the registration conflicts found.
    ///
    /// ```
    /// static CSE_AGAIN: fuser::extend::PassInfo = fuser::extend::PassInfo {
    ///     name: "cse",
    ///     display: "MyCSE",
    ///     summary: "clashes with fuser's cse",
    ///     description: "",
    ///     anchor: None,
    ///     options: &[],
    ///     create: |_| Err("never created".into()),
    /// };
    /// let err = fuser::Compiler::builder().pass(&CSE_AGAIN).build().unwrap_err();
    /// assert!(err.to_string().contains("'cse' is already registered"));
    /// ```
    pub fn build(self) -> Result<Compiler, Error> {
        if !self.errors.is_empty() {
            return Err(Error::new(
                self.errors.into_iter().map(Error::message).flat_map(Error::into_diagnostics).collect(),
            ));
        }
        install_quiet_hook();
        let ctx = Context::new(self.registry);
        ctx.set_allow_unregistered(self.allow_unregistered);
        Ok(Compiler { shared: Arc::new(Shared { ctx, passes: self.passes, settings: self.settings }) })
    }
}
