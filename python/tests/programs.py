"""The seed programs of examples/, built with the frontend (each function returns the
definition; the tests compare it with the example file and run it against NumPy)."""

from __future__ import annotations

import fuser
from fuser import DIDx, Stream


def column_parallel_linear() -> fuser.FusionDefinition:
    """examples/column_parallel_linear.mlir: AllGather + linear overlapped in 4 stream chunks."""
    with fuser.FusionDefinition(mesh=fuser.Mesh([0, 1, 2, 3]), name="column_parallel_linear") as fd:
        x = fd.define_tensor([64, 128], "bf16", splits=[DIDx, []])
        w = fd.define_tensor([96, 128], "bf16")
        xg = fd.ops.set(x, splits=[Stream(4), []])
        y = fd.ops.linear(xg, w, splits=[Stream(4), []])
        fd.add_output(y)
    return fd


def row_parallel_linear() -> fuser.FusionDefinition:
    """examples/row_parallel_linear.mlir: K split over devices, allreduce in the stream loop."""
    with fuser.FusionDefinition(mesh=fuser.Mesh([0, 1, 2, 3]), name="row_parallel_linear") as fd:
        x = fd.define_tensor([48, 256], "bf16", splits=[Stream(3), DIDx])
        w = fd.define_tensor([64, 256], "bf16", splits=[[], DIDx])
        y = fd.ops.linear(x, w, splits=[Stream(3), []])
        fd.add_output(y)
    return fd


def stream_parallel_matmul() -> fuser.FusionDefinition:
    """examples/stream_parallel_matmul.mlir: one device, N in 3 stream chunks."""
    with fuser.FusionDefinition(mesh=fuser.Mesh([0]), name="stream_parallel_matmul") as fd:
        a = fd.define_tensor([5, 7], "f32")
        b = fd.define_tensor([7, 6], "f32")
        c = fd.ops.matmul(a, b, splits=[[], Stream(3)])
        fd.add_output(c)
    return fd


def sequence_to_head_parallel() -> fuser.FusionDefinition:
    """examples/sequence_to_head_parallel.mlir: all_to_all from rows to columns and back."""
    with fuser.FusionDefinition(mesh=fuser.Mesh([0, 1, 2, 3]), name="sequence_to_head_parallel") as fd:
        q = fd.define_tensor([64, 128], "bf16", splits=[DIDx, []])
        heads = fd.ops.set(q, splits=[[], DIDx])
        work = -heads
        rows = fd.ops.set(work, splits=[DIDx, []])
        fd.add_output(rows)
    return fd


SEEDS = {
    "column_parallel_linear": column_parallel_linear,
    "row_parallel_linear": row_parallel_linear,
    "stream_parallel_matmul": stream_parallel_matmul,
    "sequence_to_head_parallel": sequence_to_head_parallel,
}
