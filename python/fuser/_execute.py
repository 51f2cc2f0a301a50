"""Running programs: `fuser.execute(module, inputs, ranks=N, backend="cpu")`.

The cpu backend runs every rank as a thread of this process: the inputs are global NumPy
arrays (array-likes), each rank gets its piece as the program's input shardings say, and the
outputs come back gathered into global arrays. Values cross as float64 and are rounded to the
program's element types (as fuser-run's inputs are); outputs come back in the NumPy dtype of
their element type (float32 for bf16). `check=True` compares every output with the reference
evaluation of the fusion-level program (as `fuser-run --check`) and raises `FuserError` at
the op behind an output that differs by more than its element type's tolerance.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from . import _fuser
from ._dtypes import numpy_dtype

DEFAULT_PIPELINE = "builtin.module(tp-default)"


def run(
    module: _fuser.Module,
    inputs: Sequence[Any],
    *,
    ranks: Optional[int] = None,
    backend: str = "cpu",
    pipeline: str = DEFAULT_PIPELINE,
    check: bool = False,
    timeout: float = 60.0,
) -> Tuple[List[np.ndarray], List[Tuple[float, float]]]:
    """`execute`, also returning each output's (relative error, tolerance) when `check`."""
    if backend != "cpu":
        raise ValueError(
            f"backend {backend!r}: execute() runs the cpu backend; on GPUs run one process per "
            "rank with fuser.torch.Rank (docs/python.md)"
        )
    arrays = [np.ascontiguousarray(np.asarray(x), dtype=np.float64) for x in inputs]
    native = [(list(a.shape), a.tobytes()) for a in arrays]
    outputs, checks = _fuser.run_cpu(module, native, ranks=ranks, pipeline=pipeline, check=check, timeout_s=timeout)
    result = []
    for shape, dtype, data in outputs:
        values = np.frombuffer(data, dtype=np.float64).reshape(shape)
        result.append(values.astype(numpy_dtype(dtype)))
    return result, list(checks)


def execute(
    module: _fuser.Module,
    inputs: Sequence[Any],
    *,
    ranks: Optional[int] = None,
    backend: str = "cpu",
    pipeline: str = DEFAULT_PIPELINE,
    check: bool = False,
    timeout: float = 60.0,
) -> List[np.ndarray]:
    """Runs `module` (lowered by `pipeline` when it is fusion-level) on `ranks` ranks (default:
    the devices of its meshes) with the global `inputs`, one per function argument; returns
    the gathered global outputs."""
    outputs, _ = run(module, inputs, ranks=ranks, backend=backend, pipeline=pipeline, check=check, timeout=timeout)
    return outputs
