//! What the per-rank classes share (`cuda.rs`'s `CudaRank`, `cpu_rank.rs`'s `CpuRank`): a
//! module lowered and prepared once with the local (per-rank) types of its arguments and
//! results, and the checks of a call against them (the DLPack side is `dlpack.rs`).

use crate::compiler::Module;
use crate::dlpack::TensorDesc;
use crate::errors::Sources;
use crate::execute::{self, Fail};
use fuser_ir::{Context, Ir, OpId};
use fuser_runtime::dtype::DType;
use fuser_runtime::exec::{Program, prepare};

/// A local (per-rank) shape and element type.
pub(crate) type Local = (Vec<usize>, DType);

/// A module lowered for the host and prepared once, with the local (per-rank) types of its
/// arguments and results: what `CudaProgram` and `CpuProgram` hold.
pub struct Prepared {
    pub(crate) ctx: Context,
    #[allow(dead_code)]
    pub(crate) ir: Ir,
    pub(crate) prog: Program,
    pub(crate) sources: Sources,
    /// Local (per-rank) shapes and element types of the arguments and results.
    pub(crate) args: Vec<Local>,
    pub(crate) results: Vec<Local>,
    /// The devices of the program's meshes (the ranks it needs).
    pub(crate) ranks: usize,
}

pub(crate) fn local_types(ctx: &Context, ir: &Ir, func: OpId) -> Result<(Vec<Local>, Vec<Local>), String> {
    let (ins, outs) = fuser_dialects::func::signature(ctx, ir, func).ok_or("the function has no signature")?;
    let one = |t| -> Result<Local, String> {
        let b =
            fuser_dialects::host::types::BufferType::of(ctx, t).ok_or("an argument or result is not a host buffer")?;
        let shape = b
            .shape
            .iter()
            .map(|&d| usize::try_from(d).map_err(|_| "dynamic shapes are not supported".to_string()))
            .collect::<Result<_, _>>()?;
        Ok((shape, DType::of(ctx, b.elem).map_err(|e| e.message)?))
    };
    Ok((
        ins.iter().map(|&t| one(t)).collect::<Result<_, _>>()?,
        outs.iter().map(|&t| one(t)).collect::<Result<_, _>>()?,
    ))
}

/// Where a rank's tensors must live: a DLPack device type, the device ordinal (`None`: any,
/// as for host memory) and how the rank says it in errors ("the cpu (a CPU tensor)",
/// "cuda:0").
pub(crate) struct Placement {
    pub(crate) kind: i32,
    pub(crate) ordinal: Option<i32>,
    pub(crate) name: String,
}

impl Prepared {
    /// Checks a call of rank `rank` of `world` with `ins` and `outs` against the program:
    /// its rank count, the tensor counts, and each tensor's device, element type, local shape
    /// and density. The errors are diagnostics at no location (the caller's Python line).
    pub(crate) fn check_call(
        &self,
        (rank, world): (usize, usize),
        at: &Placement,
        ins: &[TensorDesc],
        outs: Option<&[TensorDesc]>,
    ) -> Result<(), Fail> {
        let plain = |m: String| self.error(m);
        // Without outputs (the runtime's own results returned), only the inputs are checked.
        let n_outs = outs.map_or(self.results.len(), <[TensorDesc]>::len);
        let outs = outs.unwrap_or(&[]);
        if self.ranks != world {
            return Err(plain(format!(
                "the program's meshes name {} devices but the run has {world} rank(s) (WORLD_SIZE)",
                self.ranks
            )));
        }
        if ins.len() != self.args.len() || n_outs != self.results.len() {
            return Err(plain(format!(
                "the program takes {} inputs and {} outputs, {} and {} given",
                self.args.len(),
                self.results.len(),
                ins.len(),
                n_outs
            )));
        }
        let tensors = ins.iter().zip(&self.args).map(|t| ("input", t)).enumerate();
        let tensors = tensors.chain(outs.iter().zip(&self.results).map(|t| ("output", t)).enumerate());
        for (i, (what, (d, want))) in tensors {
            let name = format!("{what} #{i}");
            if d.device.0 != at.kind || at.ordinal.is_some_and(|o| d.device.1 != o) {
                return Err(plain(format!("{name}: on DLPack device {:?}, this rank runs on {}", d.device, at.name)));
            }
            if d.dtype != Some(want.1) {
                return Err(plain(format!(
                    "{name}: element type {:?}, the program's is {}",
                    d.dtype.map(DType::name),
                    want.1.name()
                )));
            }
            if d.shape != want.0 {
                return Err(plain(format!(
                    "{name}: shape {:?}, rank {rank} of the program takes {:?}",
                    d.shape, want.0
                )));
            }
            if !d.dense {
                return Err(plain(format!("{name}: not dense row-major (call .contiguous())")));
            }
        }
        Ok(())
    }

    /// `message` as a diagnostic at no location (the caller's Python line).
    pub(crate) fn error(&self, message: String) -> Fail {
        vec![crate::errors::located(None, &message, &self.sources)]
    }

    /// A runtime error of a run of this program as a diagnostic at the op it names.
    pub(crate) fn run_failure(&self, e: fuser_runtime::RtError) -> Fail {
        let loc = e.op.as_ref().map(|_| self.prog.error_loc(&e));
        vec![execute::failure(&self.ctx, &self.sources, &fuser_runtime::driver::Failure { loc, error: e })]
    }

    /// Lowers `module` by `pipeline` (when fusion-level) and prepares it.
    pub(crate) fn new(module: &Module, pipeline: &str) -> Result<Prepared, Fail> {
        let sources = module.sources.clone();
        let (text, lowered) = execute::lowered_texts(module, pipeline)?;
        let ctx = Context::new(fuser_dialects::registry());
        let parsed = execute::parse(&ctx, &sources, lowered.as_deref().unwrap_or(&text))?;
        let ranks = execute::default_ranks(&ctx, &execute::parse(&ctx, &sources, &text)?);
        let func = execute::function(&ctx, &sources, &parsed)?;
        let prog = prepare(&ctx, &parsed.ir, func)
            .map_err(|(loc, m)| vec![execute::diagnostic(&ctx, &sources, Some(loc), &m)])?;
        let (args, results) = local_types(&ctx, &parsed.ir, func)
            .map_err(|m| vec![execute::diagnostic(&ctx, &sources, Some(parsed.ir.loc(func)), &m)])?;
        Ok(Prepared { ctx, ir: parsed.ir, prog, sources, args, results, ranks })
    }
}

/// Declares the Python class of a program prepared for one backend (`CpuProgram`,
/// `CudaProgram`): a frozen `#[pyclass]` over [`Prepared`] with its constructor (lower by
/// `pipeline`, prepare) and its accessors (`arg_types`, `result_types`, `ranks`), the same for
/// every backend.
macro_rules! prepared_program {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[pyclass(module = "fuser._fuser", frozen)]
        pub struct $name(crate::prepared::Prepared);

        impl std::ops::Deref for $name {
            type Target = crate::prepared::Prepared;
            fn deref(&self) -> &crate::prepared::Prepared {
                &self.0
            }
        }

        #[pymethods]
        impl $name {
            /// Lowers `module` by `pipeline` (when fusion-level) and prepares it.
            #[new]
            #[pyo3(signature = (module, pipeline = "builtin.module(tp-default)"))]
            fn new(py: Python<'_>, module: &crate::compiler::Module, pipeline: &str) -> PyResult<$name> {
                py.detach(|| crate::prepared::Prepared::new(module, pipeline))
                    .map($name)
                    .map_err(|d| crate::errors::raise(py, d))
            }

            /// The local (per-rank) shape and element type name of every argument.
            fn arg_types(&self) -> Vec<(Vec<usize>, &'static str)> {
                self.args.iter().map(|(s, d)| (s.clone(), d.name())).collect()
            }

            /// The local (per-rank) shape and element type name of every result.
            fn result_types(&self) -> Vec<(Vec<usize>, &'static str)> {
                self.results.iter().map(|(s, d)| (s.clone(), d.name())).collect()
            }

            /// The number of ranks the program's meshes name.
            fn ranks(&self) -> usize {
                self.ranks
            }
        }
    };
}
pub(crate) use prepared_program;
