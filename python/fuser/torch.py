"""fuser on GPUs with torch: one process per rank (as `torchrun` starts them), torch CUDA
tensors in and out.

```python
import torch, fuser, fuser.torch
rank = fuser.torch.Rank()                    # joins the run: RANK, WORLD_SIZE, LOCAL_RANK
program = rank.compile(fd)                   # fd: a FusionDefinition (or a Module)
(y,) = rank.execute(program, [x_piece, w_piece])   # this rank's pieces, torch CUDA tensors
```

Inputs are this rank's pieces (the local shapes `program.arg_types()` lists), dense and on
this rank's GPU; they are passed zero-copy through DLPack. The run first waits for torch's
current stream, and is complete when `execute` returns; the outputs (this rank's pieces,
`program.result_types()`) are the runtime's own result buffers as torch tensors, zero-copy
through DLPack too, returned to the runtime when torch frees them (a later run reuses their
memory only after waiting for the stream it is called on: use them on torch's current
stream). `rank.pipeline` is the pipeline `compile` uses by default: `tp-default`, or, when two
ranks of the run share a GPU (`rank.shared_gpu` says why NCCL cannot serve them),
`tp-overlap-collective{backend=cuda_ipc}`, the same lowering with every collective on CUDA IPC.

Importing a torch module (cpu backend, one process; issue 26, docs/pytorch.md):

```python
program = fuser.torch.compile(module, (x,))  # torch.export + the ATen op table -> FusionDefinition
(y,) = program(x)                            # program.fd is the fusion program
(y,) = program.forward(x)                    # differentiable: loss.backward() reaches the module
tp = fuser.torch.compile(module, (x,), mesh=2, plan={"fc1": ColwiseParallel(), "fc2": RowwiseParallel()})
(y,) = tp.execute(x, ranks=2)                # Megatron TP on 2 cpu ranks; tp.report(): GEMMs, collectives
local = tp.to_rank(Rank(backend="cpu"))      # under torchrun: this rank's shards, a torch module
(y_local,) = local(local.shard_input(0, x))  # local shards in and out; loss.backward() reaches them
```

`compile` needs no GPU (a cpu-only torch works); `Rank` needs CUDA, `Rank(backend="cpu")` does
not (below).

Environment: under torchrun, RANK/WORLD_SIZE/LOCAL_RANK/MASTER_ADDR come from torchrun;
fuser's own store (NCCL ids, GPU ids) listens on FUSER_STORE_PORT (default: MASTER_PORT + 1)
and every rank presents FUSER_STORE_TOKEN (default under torchrun: derived from torchrun's
run id, master address and port, which is predictable: set your own secret on shared
machines). Without RANK the process
is rank 0 of 1. The GPU is torch's current device unless `device=` says otherwise (ranks may
share a GPU).

On the cpu backend (no GPU, no CUDA needed), `Rank(backend="cpu")` (a `CpuRank`) has the same
API with torch CPU tensors:

```python
rank = fuser.torch.Rank(backend="cpu")       # joins the run: RANK, WORLD_SIZE, MASTER_ADDR
program = rank.compile(fd)
(y,) = rank.execute(program, [x_piece, w_piece])   # this rank's pieces, torch CPU tensors
```

The ranks meet as the cpu backend's multi-process runs do (`fuser-run --launch --backend cpu`):
rank 0 serves fuser's store (same variables and defaults as above) and the communication hub
every rank links to. Inputs are checked (local shape, element type, dense row-major) and
used in place, zero-copy through DLPack, as the rank's arguments; outputs are new torch
tensors (copied from the runtime's buffers). A run that fails on one rank fails the others
at once, naming it; so does a process that ends with an uncaught exception, or that dies,
between runs. The rank leaves the run when the process exits (or at `close()`); rank 0,
which serves the hub, waits then (at most `timeout`) until the other ranks have left.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import sys
from typing import Any, Dict, List, Optional, Sequence, Union

import torch

from . import _fuser
from ._errors import argument_error, arguments
from ._execute import DEFAULT_PIPELINE, check_timeout
from ._location import caller_location

_TORCH_DTYPES: Dict[str, Any] = {
    "f64": torch.float64,
    "f32": torch.float32,
    "f16": torch.float16,
    "bf16": torch.bfloat16,
    "i64": torch.int64,
    "i32": torch.int32,
    "i16": torch.int16,
    "i8": torch.int8,
    "i1": torch.bool,
}


def _torchrun_defaults() -> None:
    """FUSER_STORE_PORT and FUSER_STORE_TOKEN from torchrun's variables, when unset."""
    env = os.environ
    if "RANK" not in env:
        return
    if "FUSER_STORE_PORT" not in env:
        env["FUSER_STORE_PORT"] = str(int(env.get("MASTER_PORT", "29500")) + 1)
    if "FUSER_STORE_TOKEN" not in env and "TORCHELASTIC_RUN_ID" in env:
        seed = ":".join(["fuser", env["TORCHELASTIC_RUN_ID"], env.get("MASTER_ADDR", ""), env.get("MASTER_PORT", "")])
        env["FUSER_STORE_TOKEN"] = hashlib.sha256(seed.encode()).hexdigest()[:32]


#: A cuda rank's default pipeline when ranks share a GPU: tp-default's lowering with every
#: collective on the copy engines over CUDA IPC (no NCCL op remains).
SHARED_GPU_PIPELINE = "builtin.module(tp-overlap-collective{backend=cuda_ipc})"


class Rank:
    """This process's rank of a run on the cuda backend (`backend="cpu"`: a `CpuRank`)."""

    def __new__(cls, device: Optional[int] = None, timeout: float = 60.0, backend: str = "cuda") -> Any:
        with arguments():
            if backend not in ("cuda", "cpu"):
                raise ValueError(f"backend must be 'cuda' or 'cpu', got {backend!r}")
            if backend == "cpu" and device is not None:
                raise ValueError("device= names a GPU: a cpu rank takes none")
        if backend == "cpu":
            return CpuRank(timeout)
        return super().__new__(cls)

    def __init__(self, device: Optional[int] = None, timeout: float = 60.0, backend: str = "cuda") -> None:
        with arguments():
            timeout = check_timeout(timeout)
            if device is not None and (isinstance(device, bool) or not hasattr(device, "__index__")):
                raise TypeError(f"device must be a GPU ordinal, not {device!r}")
            if device is not None and int(device) < 0:
                raise ValueError(f"device must be a GPU ordinal (>= 0), got {device}")
        _torchrun_defaults()
        if device is None:
            device = torch.cuda.current_device()
        self._native = _fuser.CudaRank(int(device), timeout)
        self.rank: int = self._native.rank
        self.world: int = self._native.world
        self.device: int = self._native.device
        #: Why NCCL cannot serve this run (two ranks share a GPU), or None.
        self.shared_gpu: Optional[str] = self._native.shared_gpu
        #: The pipeline `compile`, `execute` and `to_rank` use when given none: `tp-default`,
        #: or, when two ranks of the run share a GPU (NCCL refuses them), the same lowering
        #: with every collective on cuda_ipc (`tp-overlap-collective{backend=cuda_ipc}`,
        #: which keeps the program's stream chunks).
        self.pipeline: str = SHARED_GPU_PIPELINE if self.shared_gpu else DEFAULT_PIPELINE

    def compile(self, program: Any, pipeline: Optional[str] = None) -> _fuser.CudaProgram:
        """`program` (a FusionDefinition or a Module) lowered by `pipeline` (default:
        `self.pipeline`) and prepared."""
        module = program.module() if hasattr(program, "module") else program
        return _fuser.CudaProgram(module, pipeline or self.pipeline)

    def execute(
        self, program: Union[_fuser.CudaProgram, Any], inputs: Sequence[torch.Tensor], pipeline: Optional[str] = None
    ) -> List[torch.Tensor]:
        """Runs this rank of `program` on its input pieces; returns its output pieces.

        Both ways without a copy (DLPack): the inputs are read in place, and each output is
        the runtime's own result buffer, returned to it when torch frees the tensor. The run
        first waits for torch's current stream and ends synchronized; a later run reuses a
        freed output's memory only after waiting for the stream it is called on, so use the
        outputs on torch's current stream (or synchronize before switching streams)."""
        if not isinstance(program, _fuser.CudaProgram):
            program = self.compile(program, pipeline)
        device = torch.device("cuda", self.device)
        from torch.utils.dlpack import from_dlpack, to_dlpack

        stream = torch.cuda.current_stream(device).cuda_stream
        capsules = self._native.run_returning(program, [to_dlpack(t) for t in inputs], stream)
        return [from_dlpack(c) for c in capsules]


class CpuRank:
    """This process's rank of a run on the cpu backend (see the module doc); needs no GPU."""

    def __init__(self, timeout: float = 60.0) -> None:
        with arguments():
            timeout = check_timeout(timeout)
        _torchrun_defaults()
        self._native = _fuser.CpuRank(timeout)
        self.rank: int = self._native.rank
        self.world: int = self._native.world
        #: The pipeline `compile`, `execute` and `to_rank` use when given none.
        self.pipeline: str = DEFAULT_PIPELINE
        atexit.register(_leave, self._native)

    def compile(self, program: Any, pipeline: str = DEFAULT_PIPELINE) -> _fuser.CpuProgram:
        """`program` (a FusionDefinition or a Module) lowered by `pipeline` and prepared."""
        module = program.module() if hasattr(program, "module") else program
        return _fuser.CpuProgram(module, pipeline)

    def execute(
        self, program: Union[_fuser.CpuProgram, Any], inputs: Sequence[torch.Tensor], pipeline: str = DEFAULT_PIPELINE
    ) -> List[torch.Tensor]:
        """Runs this rank of `program` on its input pieces (torch CPU tensors); returns its
        output pieces (new torch CPU tensors)."""
        if not isinstance(program, _fuser.CpuProgram):
            program = self.compile(program, pipeline)
        outputs = [torch.empty(shape, dtype=_TORCH_DTYPES[dtype]) for shape, dtype in program.result_types()]
        from torch.utils.dlpack import to_dlpack

        self._native.run(program, [to_dlpack(t) for t in inputs], [to_dlpack(t) for t in outputs])
        return outputs

    def close(self) -> None:
        """Leaves the run (done when the process exits; see the module doc)."""
        self._native.close()


def _leave(native: Any) -> None:
    """At exit: a process ending with an uncaught exception fails the run first (the other
    ranks hear it, naming this rank, instead of waiting for it), then the rank leaves."""
    error = getattr(sys, "last_value", None)
    if error is not None and native.aborted() is None:
        native.fail(f"its process ended with an uncaught {type(error).__name__}: {error}")
    try:
        native.close()
    except _fuser.FuserError as e:
        if native.aborted() is None:
            print(f"fuser: rank {native.rank}: leaving the run: {e}", file=sys.stderr)


def compile(
    module: Any,
    example_inputs: Sequence[Any],
    *,
    mesh: Any = None,
    placements: Optional[Dict[str, Any]] = None,
    output_placements: Any = None,
    plan: Optional[Dict[str, Any]] = None,
    stream: Optional[int] = None,
    stream_dim: int = 1,
    name: str = "fusion",
    decompose: bool = False,
) -> Any:
    """Imports the torch `module` as a fusion program: `torch.export.export(module,
    example_inputs)` (ATen IR; with `decompose`, decomposed to the core ATen opset), each ATen
    op translated by `fuser._torch_import.ATEN_OPS`. Returns an `ImportedModule` (`.fd` the
    `FusionDefinition`; calling it runs on the cpu backend with torch tensors in and out;
    `.forward(*args)` runs it as a `torch.autograd.Function`; `.report()` lists the GEMMs and
    collectives of the lowered program).

    `mesh`: the device mesh (a `fuser.Mesh`, a device count or a mesh shape such as `(2, 2)`);
    alone, every tensor is replicated over it. `placements`: `{input name: [placement per mesh
    axis]}` for parameters (by fully qualified name) and user inputs (by `forward` argument
    name), with `Shard(d)`, `Replicate()`, `Partial()` (fuser.torch's or torch's own).
    `output_placements`: a placement list per output (a list, or a dict by output position).
    `plan`: `{module path pattern: style}` (fnmatch patterns as torchtitan's, e.g.
    `"layers.*.attention.wq"`) with `ColwiseParallel`, `RowwiseParallel`, `SequenceParallel`,
    `PrepareModuleInput`, `PrepareModuleOutput` (fuser.torch's or torch's own), sharding over
    the last mesh axis. `stream=N`: `Stream(N)` chunks on axis `stream_dim` (the sequence) of
    the residual-stream activations, for the overlap pipelines (`tp-overlap-collective`).
    Everything the placements and the plan do not fix is left to fuser's sharding
    propagation. An unsupported ATen op, or a bad placement or plan, raises `FuserValueError`
    naming the op or module path and why. docs/pytorch.md has the details."""
    from ._torch_import import import_module

    return import_module(
        module, example_inputs, mesh=mesh, name=name, decompose=decompose, placements=placements,
        output_placements=output_placements, plan=plan, stream=stream, stream_dim=stream_dim,
    )


from ._torch_placements import (  # noqa: E402
    ColwiseParallel,
    Partial,
    PrepareModuleInput,
    PrepareModuleOutput,
    Replicate,
    RowwiseParallel,
    SequenceParallel,
    Shard,
)

__all__ = [
    "Rank", "compile", "Shard", "Replicate", "Partial", "ColwiseParallel", "RowwiseParallel",
    "SequenceParallel", "PrepareModuleInput", "PrepareModuleOutput",
]
