"""A tensor-parallel MLP block (Megatron style) built with the fuser frontend and run on the
cpu backend, checked against NumPy's unsharded computation.

    h = x · W1ᵀ + b1      column-parallel: W1 [F, D] split by output features over the devices
    a = h * h             the activation (the fusion dialect has no gelu; a square stands in)
    y = a · W2ᵀ           row-parallel: W2 [D, F] split along F, the contraction axis, so each
                          device holds a partial sum of y; the replicated result is an allreduce

Run: python examples/python/tp_mlp.py [ranks]. GPU execution with torch tensors (torchrun,
DLPack) is not implemented yet (docs/python.md).
"""

from __future__ import annotations

import sys

import numpy as np

import fuser
from fuser import DIDx


def tp_mlp(ranks: int, tokens: int = 32, hidden: int = 64, ffn: int = 128) -> fuser.FusionDefinition:
    """The MLP block on a mesh of `ranks` devices, in f32."""
    with fuser.FusionDefinition(mesh=fuser.Mesh(list(range(ranks))), name="tp_mlp") as fd:
        x = fd.define_tensor([tokens, hidden], "f32")
        w1 = fd.define_tensor([ffn, hidden], "f32", splits=[DIDx, []])
        b1 = fd.define_tensor([ffn], "f32", splits=[DIDx])
        w2 = fd.define_tensor([hidden, ffn], "f32", splits=[[], DIDx])
        h = fd.ops.linear(x, w1, b1, splits=[[], DIDx])
        a = h * h
        y = fd.ops.linear(a, w2, splits=[[], []])
        fd.add_output(y)
    return fd


def main() -> None:
    ranks = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    fd = tp_mlp(ranks)
    rng = np.random.default_rng(0)
    x, w1 = rng.standard_normal((32, 64)), rng.standard_normal((128, 64)) / 8
    b1, w2 = rng.standard_normal(128), rng.standard_normal((64, 128)) / 8
    (y,) = fd.execute([x, w1, b1, w2], ranks=ranks, check=True)
    want = ((x @ w1.T + b1) ** 2) @ w2.T
    err = float(np.max(np.abs(y - want)) / np.max(np.abs(want)))
    print(f"tp_mlp on {ranks} cpu ranks: max rel err vs NumPy {err:.2e}, reference check {fd.last_check}")
    assert err < 1e-5, err


if __name__ == "__main__":
    main()
