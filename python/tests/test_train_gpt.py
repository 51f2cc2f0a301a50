"""examples/python/train_gpt.py: a 2-layer GPT trained through `fd.backward()`'s joint program
with NumPy AdamW; 10 steps with tensor + sequence parallelism on 2 cpu ranks: the loss
decreases and equals the 1-rank run's, the NumPy AdamW is torch's update, and (with torch
installed) the loss curve is torch.optim.AdamW's."""

from __future__ import annotations

import math
import os
import sys

import numpy as np
import pytest
from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "examples", "python"))
import train_gpt  # noqa: E402


def test_ten_steps_on_two_ranks_match_one_rank_and_the_loss_decreases():
    t = train_gpt.TrainConfig(steps=10)
    one = train_gpt.train(t, 1, log=False)  # each step's loss also checked against NumPy
    two = train_gpt.train(t, 2, log=False)
    assert len(one) == len(two) == 10
    assert abs(one[0] - math.log(t.vocab)) < 0.1, one[0]  # near-uniform predictions at the start
    assert two[-1] < 0.75 * two[0] and all(b < a for a, b in zip(two, two[1:])), two
    np.testing.assert_allclose(two, one, rtol=1e-5)


def test_the_program_is_sharded_tp_sp():
    """The 2-rank program: vocab-parallel embedding and LM head (never gathering the logits),
    the sequence split between the GEMMs; the backward has Megatron's collectives."""
    fd = train_gpt.build(train_gpt.TrainConfig(), 2)
    bw = fd.backward()
    assert len(bw.wrt) == len(train_gpt.param_names(train_gpt.TrainConfig()))
    host = bw.vjp.lower().print()
    for collective in ("comm.allgather", "comm.reduce_scatter", "comm.allreduce"):
        assert collective in host, collective


def test_adamw_is_torchs_update():
    """One parameter, two steps, against the formulas of torch.optim.AdamW written out."""
    p = {"w": np.array([1.0, -2.0, 0.5], dtype=np.float32)}
    opt = train_gpt.AdamW(p, lr=0.1, betas=(0.9, 0.99), eps=1e-8, weight_decay=0.1)
    want = p["w"].astype(np.float64).copy()
    m = np.zeros(3)
    v = np.zeros(3)
    for step, g in enumerate([np.array([0.5, 1.0, -1.0]), np.array([-0.25, 2.0, 0.0])], start=1):
        opt.step(p, {"w": g.astype(np.float32)})
        want *= 1 - 0.1 * 0.1
        m = 0.9 * m + 0.1 * g
        v = 0.99 * v + 0.01 * g * g
        want -= 0.1 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.99**step)) + 1e-8)
        assert p["w"].dtype == np.float32
        np.testing.assert_allclose(p["w"], want, rtol=1e-6)


def test_the_loss_curve_is_torchs():
    """Where torch is importable: the same model, weights and data with torch.optim.AdamW (f32,
    cpu) give the same losses for 10 steps, to 1e-4 relative (skipped without torch)."""
    pytest.importorskip("torch", reason="torch is not installed: the comparison with torch.optim.AdamW is skipped")
    t = train_gpt.TrainConfig(steps=10)
    ref = train_gpt.torch_losses(t)
    assert ref is not None
    np.testing.assert_allclose(train_gpt.train(t, 2, log=False), ref, rtol=1e-4)


def test_the_gpu_training_script_runs_on_the_cpu(tmp_path):
    """examples/python/train_gpt_gpu.py (the H200 training step of issue 25) with --device cpu:
    fuser's joint program through NumPy and torch eager from the same weights and batches give
    the same losses (to 1e-4, f32), and the JSON it writes holds both curves and the step
    times (skipped without torch)."""
    pytest.importorskip("torch", reason="torch is not installed: the GPU training script's smoke run is skipped")
    import json

    import train_gpt_gpu

    out = tmp_path / "train.json"
    rc = train_gpt_gpu.main(["--device", "cpu", "--dtype", "f32", "--layers", "2", "--hidden", "32", "--heads", "4",
                             "--ffn", "128", "--seq", "16", "--vocab", "64", "--period", "8", "--steps", "5",
                             "--warmup", "1", "--lr", "3e-3", "--no-compile", "--json", str(out)])
    assert rc == 0
    got = json.loads(out.read_text())
    fuser, eager = got["runs"]["fuser"]["losses"], got["runs"]["torch eager"]["losses"]
    assert len(fuser) == len(eager) == 5 and fuser[-1] < fuser[0]
    assert got["fuser_vs_eager_max_rel"] <= 1e-4
    assert got["runs"]["fuser"]["step_ms"] > 0 and got["runs"]["torch eager"]["fwd_bwd_ms"] > 0
