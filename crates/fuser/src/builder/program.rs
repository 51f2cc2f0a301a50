//! [`ProgramBuilder`]: builds a module of meshes and functions without text, as a frontend
//! that traces a model would; [`Mesh`] names a device mesh declared in it.
//!
//! The builder appends ops to a fresh `builtin.module`; [`ProgramBuilder::finish`] verifies
//! the module and hands it over as a [`Module`]. Ops of one function are built through a
//! [`FunctionBuilder`](super::FunctionBuilder).

use super::function::FunctionBuilder;
use super::types::TensorType;
use crate::compiler::Compiler;
use crate::diagnostics::{Error, Location};
use crate::module::Module;
use fuser_dialects::{builtin, func, fusion};
use fuser_ir::diag::SourceMgr;
use fuser_ir::{Attr, BlockId, Ir, OpId};
use std::sync::atomic::{AtomicU64, Ordering};

/// Distinguishes builders, so that a value of one program is never used in another.
static NEXT_PROGRAM_ID: AtomicU64 = AtomicU64::new(1);

/// Builds a program (a module) op by op.
///
/// ```
/// use fuser::builder::{ElementType, Sharding, Split, TensorType};
///
/// let compiler = fuser::Compiler::new();
/// let mut program = compiler.program();
/// let tp = program.mesh("tp", &[0, 1])?;
/// let x_type = TensorType::new(&[8, 16], ElementType::F32).sharded(tp.sharding(2).split(0, Split::DIDX));
/// let mut f = program.function("double", &[x_type])?;
/// let x = f.arg(0)?;
/// let y = f.add(x, x, tp.sharding(2).split(0, Split::DIDX))?;
/// f.finish(&[y])?;
/// let module = program.finish()?;
/// assert!(module.print(&Default::default()).contains("fusion.add %arg0, %arg0"));
/// # Ok::<(), fuser::Error>(())
/// ```
pub struct ProgramBuilder<'c> {
    pub(crate) compiler: &'c Compiler,
    pub(crate) ir: Ir,
    pub(crate) module: OpId,
    pub(crate) body: BlockId,
    pub(crate) id: u64,
    pub(crate) loc: Attr,
    pub(crate) sources: SourceMgr,
}

/// A mesh declared in a program (`fusion.mesh @name = [...]`).
///
/// ```
/// let compiler = fuser::Compiler::new();
/// let mut program = compiler.program();
/// let m = program.mesh_grid("m", &[2, 3], &[0, 1, 2, 3, 4, 5])?;
/// assert_eq!((m.name(), m.shape()), ("m", &[2, 3][..]));
/// assert_eq!(m.sharding(1).to_string(), "#fusion.shard<@m, [[]]>");
/// # Ok::<(), fuser::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Mesh {
    name: String,
    shape: Vec<i64>,
}

impl Mesh {
    /// The mesh's symbol name (without `@`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The extents of the mesh axes (the last one is `DIDx`).
    pub fn shape(&self) -> &[i64] {
        &self.shape
    }

    /// A replicated sharding on this mesh for a tensor of rank `rank`, to add splits to.
    pub fn sharding(&self, rank: usize) -> super::Sharding {
        super::Sharding::new(&self.name, rank)
    }
}

impl Compiler {
    /// A builder for a new program in this compiler's context (see [`ProgramBuilder`]).
    ///
    /// ```
    /// let compiler = fuser::Compiler::new();
    /// let module = compiler.program().finish()?;
    /// assert_eq!(module.print(&Default::default()), "module {\n}\n\n");
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn program(&self) -> ProgramBuilder<'_> {
        let ctx = self.context();
        let mut ir = Ir::new();
        let state = builtin::module_state(ctx, &mut ir, None, ctx.unknown_loc());
        let module = ir.create_op(state);
        let body = ir.region_entry(ir.region(module, 0)).unwrap_or_else(|| unreachable!("module_state adds a block"));
        let id = NEXT_PROGRAM_ID.fetch_add(1, Ordering::Relaxed);
        ProgramBuilder { compiler: self, ir, module, body, id, loc: ctx.unknown_loc(), sources: SourceMgr::new() }
    }
}

impl<'c> ProgramBuilder<'c> {
    /// Declares a one-dimensional mesh of these device ids (`fusion.mesh @name = [0, 1, ...]`).
    ///
    /// ```
    /// let compiler = fuser::Compiler::new();
    /// let mut program = compiler.program();
    /// program.mesh("tp", &[0, 1, 2, 3])?;
    /// assert!(program.finish()?.print(&Default::default()).contains("fusion.mesh @tp = [0, 1, 2, 3]"));
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn mesh(&mut self, name: &str, devices: &[i64]) -> Result<Mesh, Error> {
        self.mesh_grid(name, &[devices.len() as i64], devices)
    }

    /// Declares an n-dimensional mesh: `shape` gives the extents (the last axis is `DIDx`),
    /// `devices` the ids in row-major order.
    ///
    /// ```
    /// let compiler = fuser::Compiler::new();
    /// let mut program = compiler.program();
    /// program.mesh_grid("m", &[2, 2], &[0, 1, 2, 3])?;
    /// assert!(program.mesh_grid("bad", &[3], &[0, 1]).is_err());
    /// assert!(program.finish()?.print(&Default::default()).contains("fusion.mesh @m = [[0, 1], [2, 3]]"));
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn mesh_grid(&mut self, name: &str, shape: &[i64], devices: &[i64]) -> Result<Mesh, Error> {
        let mesh = fusion::Mesh { name: name.to_string(), shape: shape.to_vec(), devices: devices.to_vec() };
        mesh.validate().map_err(|m| Error::message(format!("fusion.mesh @{name}: {m}")))?;
        let op = self.ir.create_op(fusion::mesh_state(self.compiler.context(), &mesh, self.loc));
        self.ir.append_op(self.body, op);
        Ok(Mesh { name: mesh.name, shape: mesh.shape })
    }

    /// Starts a function (`func.func @name`) taking tensors of these types; add its ops
    /// through the returned builder and close it with
    /// [`FunctionBuilder::finish`](super::FunctionBuilder::finish).
    ///
    /// ```
    /// use fuser::builder::{ElementType, TensorType};
    /// let compiler = fuser::Compiler::new();
    /// let mut program = compiler.program();
    /// let f = program.function("f", &[TensorType::new(&[2], ElementType::F32)])?;
    /// f.finish(&[])?;
    /// assert!(program.finish()?.print(&Default::default()).contains("func.func @f(%arg0: tensor<2xf32>) {"));
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn function(&mut self, name: &str, inputs: &[TensorType]) -> Result<FunctionBuilder<'_, 'c>, Error> {
        let ctx = self.compiler.context();
        let types = inputs
            .iter()
            .map(|t| t.to_type(ctx))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|m| Error::message(format!("func.func @{name}: argument type: {m}")))?;
        let (state, entry) = func::func_state(ctx, &mut self.ir, name, types, Vec::new(), true, self.loc);
        let op = self.ir.create_op(state);
        self.ir.append_op(self.body, op);
        let entry = entry.unwrap_or_else(|| unreachable!("func_state with a body adds an entry block"));
        Ok(FunctionBuilder::new(self, op, entry))
    }

    /// Gives the ops built from now on this source location (a frontend passes the location
    /// of the model code it traced); `None` for no location (the default).
    ///
    /// ```
    /// use fuser::builder::{ElementType, TensorType};
    /// use fuser::{Location, PrintOptions};
    /// let compiler = fuser::Compiler::new();
    /// let mut program = compiler.program();
    /// program.set_location(Some(&Location { file: "model.py".into(), line: 12, column: 5 }));
    /// program.function("f", &[TensorType::new(&[2], ElementType::F32)])?.finish(&[])?;
    /// let text = program.finish()?.print(&PrintOptions { debug_info: true, ..Default::default() });
    /// assert!(text.contains("loc(\"model.py\":12:5)"));
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn set_location(&mut self, location: Option<&Location>) {
        let ctx = self.compiler.context();
        self.loc = match location {
            Some(l) => ctx.file_loc(&l.file, l.line, l.column),
            None => ctx.unknown_loc(),
        };
    }

    /// Registers the text of a source file the locations of [`set_location`](Self::set_location)
    /// name, so that diagnostics about the program (from the verifier, from passes run on the
    /// module later) show the source line and a caret, as they do for parsed text.
    ///
    /// ```
    /// use fuser::builder::{ElementType, Split, TensorType};
    /// use fuser::Location;
    /// let compiler = fuser::Compiler::new();
    /// let mut program = compiler.program();
    /// let tp = program.mesh("tp", &[0, 1, 2, 3])?;
    /// let mut f = program.function("f", &[TensorType::new(&[6], ElementType::F32).sharded(tp.sharding(1))])?;
    /// f.set_location(Some(&Location { file: "model.py".into(), line: 1, column: 5 }));
    /// // 6 rows cannot be split over 4 devices: the verifier's error points at model.py:1:5.
    /// let y = f.set(f.arg(0)?, tp.sharding(1).split(0, Split::DIDX))?;
    /// f.finish(&[y])?;
    /// program.add_source("model.py", "y = fd.ops.set(x, splits=[DIDx])\n");
    /// let err = program.finish().unwrap_err();
    /// assert!(err.to_string().contains("y = fd.ops.set(x, splits=[DIDx])\n    ^"), "{err}");
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn add_source(&mut self, name: &str, text: &str) {
        self.sources.add(fuser_ir::diag::SourceFile::new(name, std::sync::Arc::from(text)));
    }

    /// Verifies the program and returns it as a module of the compiler.
    ///
    /// ```
    /// let compiler = fuser::Compiler::new();
    /// let module = compiler.program().finish()?;
    /// assert_eq!(module.num_ops(), 1);
    /// # Ok::<(), fuser::Error>(())
    /// ```
    pub fn finish(self) -> Result<Module, Error> {
        let module =
            Module { shared: self.compiler.shared.clone(), ir: self.ir, op: self.module, sources: self.sources };
        self.compiler.verify(&module)?;
        Ok(module)
    }
}
