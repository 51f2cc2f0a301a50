"""examples/python/tp_mlp.py: the tensor-parallel MLP block matches NumPy on 1, 2 and 4 ranks,
and lowers to one allreduce (Megatron's column- then row-parallel pair)."""

from __future__ import annotations

import os
import runpy
import sys

import numpy as np
import pytest
from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "examples", "python"))
import tp_mlp  # noqa: E402


@pytest.mark.parametrize("ranks", [1, 2, 4])
def test_tp_mlp_matches_numpy(ranks, rng):
    fd = tp_mlp.tp_mlp(ranks, tokens=8, hidden=16, ffn=32)
    x, w1, b1, w2 = (rng.standard_normal(s) for s in [(8, 16), (32, 16), (32,), (16, 32)])
    (y,) = fd.execute([x, w1, b1, w2], check=True)
    want = ((x @ w1.T + b1) ** 2) @ w2.T
    np.testing.assert_allclose(y, want.astype(np.float32), rtol=1e-4, atol=1e-4)


def test_tp_mlp_lowers_to_one_allreduce():
    text = tp_mlp.tp_mlp(4).lower().print()
    assert text.count("comm.allreduce") == 1 and "comm.allgather" not in text


def test_the_example_script_runs(capsys, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["tp_mlp.py", "2"])
    runpy.run_path(os.path.join(ROOT, "examples", "python", "tp_mlp.py"), run_name="__main__")
    assert "tp_mlp on 2 cpu ranks" in capsys.readouterr().out


@pytest.mark.skipif("RANK" in os.environ, reason="needs a process outside any run (RANK unset)")
def test_the_example_script_runs_on_a_torch_cpu_rank(capsys, monkeypatch):
    pytest.importorskip("torch", reason="--torch-cpu needs torch (not importable here)")
    monkeypatch.setattr(sys, "argv", ["tp_mlp.py", "--torch-cpu"])
    runpy.run_path(os.path.join(ROOT, "examples", "python", "tp_mlp.py"), run_name="__main__")
    assert "tp_mlp rank 0/1 on the cpu backend" in capsys.readouterr().out
