"""fuser from Python: define, lower and run sharded multi-GPU tensor programs.

- Compiler API: `fuser.Compiler().parse(text)` gives a `Module`; `module.run_pipeline(
  "builtin.module(tp-default)")`, `module.verify()`, `module.print()`. Failures raise
  `fuser.FuserError`, which carries `diagnostics` (each with `severity`, `file`, `line`,
  `column`, `message`, `notes`, `rendered`) and the first error's fields as attributes;
  `str()` of it is what `fuser-opt` prints (the source line and a caret included). A bad
  argument raises `FuserValueError`, `FuserTypeError` or `FuserOverflowError`: FuserErrors
  that are also ValueError, TypeError or OverflowError.
- Frontend: `with fuser.FusionDefinition(mesh=fuser.Mesh([0, 1, 2, 3])) as fd:` builds a
  fusion program from Python (see `FusionDefinition`); errors point at the Python line.
- Training: `fd.backward(wrt)` differentiates the program (a `Backward`: the joint `vjp`
  program and its `fwd`/`bwd` split, run like the forward; docs/training.md).
- Execution: `fd.execute(inputs, ranks=N)` / `fuser.execute(module, inputs)` on the cpu
  backend with NumPy arrays (global tensors in, gathered global tensors out), with an
  optional reference check; `fuser.torch.Rank` runs one rank per process on GPUs with torch
  CUDA tensors (DLPack, zero copy), as torchrun starts them.
- From PyTorch: `fuser.torch.compile(module, example_inputs)` imports a torch module through
  torch.export into a `FusionDefinition` (docs/pytorch.md).

docs/python.md is the tutorial.
"""

from ._fuser import Compiler, Diagnostic, FuserError, Module, Note, pipeline_names
from ._errors import FuserOverflowError, FuserTypeError, FuserValueError
from ._backward import Backward, GradientProgram, Saved
from ._dtypes import dtype_name
from ._execute import DEFAULT_PIPELINE, execute
from ._frontend import FusionDefinition, Tensor, default_compiler
from ._sharding import DIDx, DIDy, DIDz, DeviceAxis, Mesh, Sharding, Stream

__all__ = [
    "Backward",
    "Compiler",
    "DEFAULT_PIPELINE",
    "DIDx",
    "DIDy",
    "DIDz",
    "DeviceAxis",
    "Diagnostic",
    "FusionDefinition",
    "FuserError",
    "FuserOverflowError",
    "FuserTypeError",
    "FuserValueError",
    "GradientProgram",
    "Mesh",
    "Module",
    "Note",
    "Saved",
    "Sharding",
    "Stream",
    "Tensor",
    "default_compiler",
    "dtype_name",
    "execute",
    "parse",
    "pipeline_names",
]


def parse(text: str, name: str = "<string>") -> Module:
    """Parses and verifies MLIR text with the default compiler."""
    return default_compiler().parse(text, name)
