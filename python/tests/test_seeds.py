"""The seed programs built with the frontend: the same program as the example text, and their
runs on the cpu backend match NumPy (and the reference check)."""

from __future__ import annotations

import fuser
import numpy as np
import pytest
from conftest import bf16, example, rel_err
from programs import SEEDS


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_frontend_builds_the_example_program(name):
    fd = SEEDS[name]()
    parsed = fuser.parse(example(f"{name}.mlir"), f"{name}.mlir")
    assert fd.mlir() == parsed.print()


def test_column_parallel_linear_matches_numpy(rng):
    fd = SEEDS["column_parallel_linear"]()
    x, w = rng.standard_normal((64, 128)), rng.standard_normal((96, 128))
    (y,) = fd.execute([x, w], ranks=4, check=True)
    assert y.shape == (64, 96) and y.dtype == np.float32
    assert rel_err(y, bf16(x) @ bf16(w).T) < 2e-2
    ((err, tol),) = fd.last_check
    assert err <= tol == 2e-2


def test_row_parallel_linear_matches_numpy(rng):
    fd = SEEDS["row_parallel_linear"]()
    x, w = rng.standard_normal((48, 256)), rng.standard_normal((64, 256))
    (y,) = fd.execute([x, w], check=True)
    assert y.shape == (48, 64)
    assert rel_err(y, bf16(x) @ bf16(w).T) < 2e-2


def test_stream_parallel_matmul_matches_numpy_closely(rng):
    fd = SEEDS["stream_parallel_matmul"]()
    a, b = rng.standard_normal((5, 7)), rng.standard_normal((7, 6))
    (c,) = fd.execute([a, b], check=True)
    assert c.dtype == np.float32
    np.testing.assert_allclose(c, (a.astype(np.float32) @ b.astype(np.float32)), rtol=1e-5, atol=1e-5)


def test_sequence_to_head_parallel_is_an_exact_negation(rng):
    fd = SEEDS["sequence_to_head_parallel"]()
    q = rng.standard_normal((64, 128))
    (out,) = fd.execute([q], ranks=4)
    np.testing.assert_array_equal(out, -bf16(q))


def test_execute_a_parsed_module_with_numpy_inputs(rng):
    m = fuser.parse(example("row_parallel_linear.mlir"), "row_parallel_linear.mlir")
    x, w = rng.standard_normal((48, 256)), rng.standard_normal((64, 256))
    (y,) = fuser.execute(m, [x, w], check=True)
    assert rel_err(y, bf16(x) @ bf16(w).T) < 2e-2


def test_a_lowered_host_module_runs_too(rng):
    fd = SEEDS["column_parallel_linear"]()
    host = fd.lower()
    assert "func.func @column_parallel_linear(%arg0: !host.buf" in host.print()
    x, w = rng.standard_normal((64, 128)), rng.standard_normal((96, 128))
    (y,) = fuser.execute(host, [x, w], ranks=4)
    assert rel_err(y, bf16(x) @ bf16(w).T) < 2e-2


@pytest.mark.parametrize("pipeline", fuser.pipeline_names())
def test_every_pipeline_runs_and_matches_numpy(pipeline, rng):
    fd = SEEDS["column_parallel_linear"]()
    x, w = rng.standard_normal((64, 128)), rng.standard_normal((96, 128))
    want = bf16(x) @ bf16(w).T
    if pipeline == "tp-host":
        # The host part only: for programs already lowered to host/comm ops.
        host = fd.lower("builtin.module(func.func(fusion-propagate-sharding, fusion-decompose-resharding, fusion-to-host))")
        host.run_pipeline(f"builtin.module({pipeline})")
        (y,) = fuser.execute(host, [x, w], ranks=4)
    else:
        lowered = fd.lower(f"builtin.module({pipeline})")
        assert "fusion.linear" not in lowered.print() and "comm." in lowered.print()
        (y,) = fd.execute([x, w], pipeline=f"builtin.module({pipeline})", check=True)
    assert rel_err(y, want) < 2e-2
