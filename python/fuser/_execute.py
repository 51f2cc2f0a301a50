"""Running programs: `fuser.execute(module, inputs, ranks=N, backend="cpu")`.

The cpu backend runs every rank as a thread of this process: the inputs are global NumPy
arrays (array-likes), each rank gets its piece as the program's input shardings say, and the
outputs come back gathered into global arrays. Values cross as float64 and are rounded to the
program's element types (as fuser-run's inputs are; integers exactly up to 2**53, booleans
as 0/1); outputs come back in the NumPy dtype of their element type (float32 for bf16, bool
for i1). `check=True` compares every output with the reference
evaluation of the fusion-level program (as `fuser-run --check`) and raises `FuserError` at
the op behind an output that differs by more than its tolerance (that of the least precise
float type the output is computed through: bf16's for an f32 cast of a bf16 sum).
"""

from __future__ import annotations

import math
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from . import _fuser
from ._dtypes import numpy_dtype
from ._errors import arguments

DEFAULT_PIPELINE = "builtin.module(tp-default)"

#: The longest `timeout` a run takes, in seconds (a year).
MAX_TIMEOUT = 365.0 * 24 * 3600

#: The most cpu ranks a run takes (each is a thread of this process).
MAX_RANKS = 4096


def check_timeout(timeout: Any) -> float:
    """`timeout` as seconds: a positive, finite number of at most `MAX_TIMEOUT`; a
    TypeError or ValueError naming it otherwise."""
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float, np.integer, np.floating)):
        raise TypeError(f"timeout must be a number of seconds, not {timeout!r}")
    seconds = float(timeout)
    if not (math.isfinite(seconds) and 0 < seconds <= MAX_TIMEOUT):
        raise ValueError(
            f"timeout must be a positive, finite number of seconds of at most {MAX_TIMEOUT:g} (a year), got {timeout!r}"
        )
    return seconds


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
    with arguments():
        if backend != "cpu":
            raise ValueError(
                f"backend {backend!r}: execute() runs the cpu backend; on GPUs run one process per "
                "rank with fuser.torch.Rank (docs/python.md)"
            )
        if not isinstance(module, _fuser.Module):
            raise TypeError(f"expected a fuser Module, got {type(module).__name__}")
        timeout = check_timeout(timeout)
        if ranks is not None:
            if isinstance(ranks, bool) or not hasattr(ranks, "__index__"):
                raise TypeError(f"ranks must be an integer, not {ranks!r}")
            ranks = int(ranks.__index__())
            if not 1 <= ranks <= MAX_RANKS:
                raise ValueError(f"ranks must be between 1 and {MAX_RANKS}, got {ranks}")
        arrays = []
        for i, x in enumerate(inputs):
            try:
                given = np.asarray(x)
                # np.array, not np.ascontiguousarray: that one makes a rank-0 input rank 1.
                array = np.array(given, dtype=np.float64, order="C")
            except (TypeError, ValueError) as e:
                raise type(e)(f"input #{i} is not a numeric array: {e}") from None
            # Integers cross as float64: exact up to 2**53 (ids, labels, seeds and offsets of
            # any realistic size); beyond that a value would change silently.
            if given.dtype.kind in "iu" and given.size and int(np.max(np.abs(given.astype(object)))) > 2**53:
                raise ValueError(f"input #{i}: integers beyond 2**53 in magnitude cannot be passed exactly")
            arrays.append(array)
        native = [(list(a.shape), a.tobytes()) for a in arrays]
    outputs, checks = _fuser.run_cpu(module, native, ranks=ranks, pipeline=pipeline, check=bool(check), timeout_s=timeout)
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
