//! [`Module`]: one program (a `builtin.module` and everything in it) owned by the embedder,
//! and [`PrintOptions`], how to print it.
//!
//! A module keeps the context it was made with alive (it shares it with its
//! [`Compiler`](crate::Compiler)) and the source text it was parsed from, so that later
//! diagnostics can still show source lines.

use crate::compiler::Shared;
use fuser_ir::diag::SourceMgr;
use fuser_ir::{Ir, OpId};
use std::sync::Arc;

/// A program: a top-level `builtin.module` with its functions, meshes and other ops.
///
/// ```
/// let compiler = fuser::Compiler::new();
/// let module = compiler.parse("m.mlir", "fusion.mesh @tp = [0, 1]")?;
/// let moved = std::thread::spawn(move || module.print(&Default::default())).join().unwrap();
/// assert!(moved.contains("fusion.mesh @tp"));
/// # Ok::<(), fuser::Error>(())
/// ```
///
/// Made by [`Compiler::parse`](crate::Compiler::parse) or by a
/// [`ProgramBuilder`](crate::builder::ProgramBuilder); transformed, verified and printed by the
/// same [`Compiler`](crate::Compiler). A module is `Send`: it may move to another thread.
pub struct Module {
    pub(crate) shared: Arc<Shared>,
    pub(crate) ir: Ir,
    pub(crate) op: OpId,
    pub(crate) sources: SourceMgr,
}

impl std::fmt::Debug for Module {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.print(&PrintOptions::default()))
    }
}

impl Clone for Module {
    /// A deep copy (same compiler and sources), e.g. to try several pipelines on one input.
    ///
    /// ```
    /// let compiler = fuser::Compiler::new();
    /// let original = compiler.parse("m.mlir", "func.func private @f() {\n  return\n}\n")?;
    /// let mut copy = original.clone();
    /// compiler.run_pipeline(&mut copy, "builtin.module(symbol-dce)")?;
    /// assert_eq!(original.num_ops(), 3);
    /// assert_eq!(copy.num_ops(), 1);
    /// # Ok::<(), fuser::Error>(())
    /// ```
    fn clone(&self) -> Module {
        let mut ir = Ir::new();
        let op = self.ir.clone_op_into(self.op, &mut ir, &mut fuser_ir::ir::IrMapping::new());
        Module { shared: self.shared.clone(), ir, op, sources: self.sources.clone() }
    }
}

impl Module {
    /// The module's text (same as [`Compiler::print`](crate::Compiler::print)).
    ///
    /// ```
    /// let compiler = fuser::Compiler::new();
    /// let module = compiler.parse("m.mlir", "%0 = arith.constant 1 : i32")?;
    /// let generic = module.print(&fuser::PrintOptions { generic: true, ..Default::default() });
    /// assert!(generic.contains("\"arith.constant\"() <{value = 1 : i32}> : () -> i32"));
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn print(&self, options: &PrintOptions) -> String {
        let internal = options.internal();
        let printed = fuser_ir::pass::catch_panic(|| {
            fuser_ir::printer::print_module(&self.shared.ctx, &self.ir, self.op, &internal)
        });
        printed.unwrap_or_else(|message| format!("// internal error while printing: {message}\n"))
    }

    /// Streams the module's text to `sink` as it is printed (the whole text is never held in
    /// memory); the first write error stops printing and is returned.
    ///
    /// ```
    /// let compiler = fuser::Compiler::new();
    /// let module = compiler.parse("m.mlir", "")?;
    /// let mut out = Vec::new();
    /// module.print_to(&fuser::PrintOptions::default(), &mut out).expect("a Vec never fails");
    /// assert_eq!(out, b"module {\n}\n\n");
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn print_to(&self, options: &PrintOptions, sink: &mut dyn std::io::Write) -> std::io::Result<()> {
        let internal = options.internal();
        let printed = fuser_ir::pass::catch_panic(|| {
            fuser_ir::printer::print_module_to(&self.shared.ctx, &self.ir, self.op, &internal, sink)
        });
        printed
            .unwrap_or_else(|message| Err(std::io::Error::other(format!("internal error while printing: {message}"))))
    }

    /// The number of operations in the module, the module itself included.
    ///
    /// ```
    /// let compiler = fuser::Compiler::new();
    /// let module = compiler.parse("m.mlir", "func.func @f() {\n  return\n}\n")?;
    /// assert_eq!(module.num_ops(), 3);
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn num_ops(&self) -> usize {
        self.ir.collect_ops(self.op, fuser_ir::ir::WalkOrder::PreOrder).len()
    }
}

/// How to print a module; the defaults print what `fuser-opt` prints by default.
///
/// ```
/// let options = fuser::PrintOptions { local_scope: true, ..Default::default() };
/// assert!(!options.generic && options.local_scope);
///
/// let compiler = fuser::Compiler::new();
/// let module = compiler.parse("m.mlir", "func.func @f(%a: i32) -> i32 {\n  return %a : i32\n}\n")?;
/// let text = module.print(&fuser::PrintOptions { value_users: true, ..Default::default() });
/// assert!(text.contains("    // %arg0 is used by %1\n    return %arg0 : i32 // id: %1\n"));
/// # Ok::<(), fuser::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PrintOptions {
    /// Every op in the generic form (`--mlir-print-op-generic`), which real MLIR tools load.
    pub generic: bool,
    /// Print locations (`--mlir-print-debuginfo`).
    pub debug_info: bool,
    /// No aliases; attributes and locations inline (`--mlir-print-local-scope`).
    pub local_scope: bool,
    /// Elide dense elements attributes with more elements than this
    /// (`--mlir-elide-elementsattrs-if-larger`).
    pub elide_elements_larger_than: Option<usize>,
    /// Number values across all regions, never restarting in nested ones
    /// (`--mlir-print-unique-ssa-ids`; the generic form always does).
    pub unique_ssa_ids: bool,
    /// Comment every op and block argument with its users (`--mlir-print-value-users`):
    /// `// user: %3`, `// users: %5, %4`, `// unused`, `// id: %6` for an op without results,
    /// `// %arg0 is used by %3`.
    pub value_users: bool,
    /// Leave out the entries of the `{-# ... #-}` resource section whose value prints longer
    /// than this many characters (`--mlir-elide-resource-strings-if-larger`).
    ///
    /// There is no counterpart of `--mlir-print-assume-verified`: this printer never verifies
    /// (it always prints as if the module were verified; see
    /// [`Compiler::verify`](crate::Compiler::verify)).
    pub elide_resource_strings_larger_than: Option<u64>,
}

impl PrintOptions {
    /// The generic form, otherwise defaults.
    ///
    /// ```
    /// assert!(fuser::PrintOptions::generic().generic);
    /// ```
    pub fn generic() -> PrintOptions {
        PrintOptions { generic: true, ..PrintOptions::default() }
    }

    fn internal(&self) -> fuser_ir::printer::PrintOptions {
        fuser_ir::printer::PrintOptions {
            generic: self.generic,
            debug_info: self.debug_info,
            local_scope: self.local_scope,
            elide_elements_attrs_if_larger: self.elide_elements_larger_than,
            pretty_debug_info: false,
            elements_hex_if_larger: None,
            skip_regions: false,
            unique_ssa_ids: self.unique_ssa_ids,
            value_users: self.value_users,
            elide_resource_strings_if_larger: self.elide_resource_strings_larger_than,
            assume_verified: true,
        }
    }
}
