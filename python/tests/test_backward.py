"""`fd.backward()` (issue 25, docs/training.md): gradients of small programs (elementwise,
linear, layer_norm, softmax, a tensor-parallel MLP on 2 cpu ranks) against NumPy central
finite differences in f64, sharded runs against the unsharded one, `fwd` + `bwd` against the
joint `vjp`, and the errors (no gradient rule, integer `wrt`) at the user's Python line."""

from __future__ import annotations

import inspect
from typing import Callable, List, Sequence

import fuser
import numpy as np
import pytest
from fuser import DIDx


def numeric_grads(f: Callable[..., np.ndarray], xs: Sequence[np.ndarray], ct: np.ndarray, wrt: Sequence[int], h: float = 1e-6):
    """Central differences of `<ct, f(*xs)>` with respect to every element of each `xs[i]`,
    `i` in `wrt` (NumPy, f64)."""
    out = []
    for i in wrt:
        g = np.zeros_like(xs[i], dtype=np.float64)
        for idx in np.ndindex(xs[i].shape):
            plus = [np.array(x, dtype=np.float64, copy=True) for x in xs]
            minus = [np.array(x, dtype=np.float64, copy=True) for x in xs]
            plus[i][idx] += h
            minus[i][idx] -= h
            g[idx] = (np.sum(ct * f(*plus)) - np.sum(ct * f(*minus))) / (2 * h)
        out.append(g)
    return out


def directional(fd: fuser.FusionDefinition, xs: List[np.ndarray], ct: np.ndarray, wrt: Sequence[int], rng, h=1e-5, **run):
    """`<ct, f(x + h v) - f(x - h v)> / 2h` through fuser's own forward (`fd.execute`), for
    a random direction `v` over the `wrt` inputs; and `v`."""
    v = [rng.standard_normal(xs[i].shape) for i in wrt]

    def at(sign):
        moved = list(xs)
        for i, d in zip(wrt, v):
            moved[i] = xs[i] + sign * h * d
        return float(np.sum(ct * fd.execute(moved, **run)[0]))

    return (at(1) - at(-1)) / (2 * h), v


def check_against_finite_differences(fd, f, xs, rng, wrt=None, **run):
    """The program's gradients (joint vjp) against NumPy central differences of `f` (the
    program in NumPy) and a directional difference through fuser's forward."""
    wrt_idx = list(range(len(xs))) if wrt is None else list(wrt)
    bw = fd.backward(wrt=wrt)
    ct = rng.standard_normal(fd.outputs[0].shape)
    (out,), grads = bw.execute(xs, [ct], **run)
    np.testing.assert_allclose(out, f(*xs), rtol=1e-12, atol=1e-12)
    want = numeric_grads(f, xs, ct, wrt_idx)
    assert len(grads) == len(want)
    for g, w, i in zip(grads, want, wrt_idx):
        assert g.shape == xs[i].shape and g.dtype == np.float64
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-7)
    slope, v = directional(fd, xs, ct, wrt_idx, rng, **run)
    assert abs(slope - sum(float(np.sum(g * d)) for g, d in zip(grads, v))) <= 1e-6 * max(1.0, abs(slope))
    return bw, ct, grads


def test_elementwise(rng):
    with fuser.FusionDefinition() as fd:
        x = fd.define_tensor([3, 4], "f64")
        y = fd.define_tensor([3, 4], "f64")
        z = fd.ops.exp(x) * y + fd.ops.tanh(x) / (y * y + fd.ops.full([3, 4], 1.0, "f64"))
        fd.add_output(fd.ops.sigmoid(z) - fd.ops.gelu(x, approximate="tanh"))

    def f(x, y):
        gelu = 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))
        return 1 / (1 + np.exp(-(np.exp(x) * y + np.tanh(x) / (y * y + 1)))) - gelu

    xs = [rng.standard_normal((3, 4)), rng.standard_normal((3, 4))]
    bw, _, _ = check_against_finite_differences(fd, f, xs, rng)
    assert [t.index for t in bw.wrt] == [t.index for t in fd.inputs]
    assert bw.vjp.name == "fusion_vjp" and "func.func @fusion_vjp(" in bw.vjp.mlir()


def test_linear_with_bias_and_a_subset_of_inputs(rng):
    with fuser.FusionDefinition() as fd:
        x = fd.define_tensor([5, 6], "f64")
        w = fd.define_tensor([4, 6], "f64")
        b = fd.define_tensor([4], "f64")
        fd.add_output(fd.ops.linear(x, w, b))

    def f(x, w, b):
        return x @ w.T + b

    xs = [rng.standard_normal((5, 6)), rng.standard_normal((4, 6)), rng.standard_normal(4)]
    check_against_finite_differences(fd, f, xs, rng)
    # Only the weight and the bias, named by Tensor and by position.
    bw, ct, (gw, gb) = check_against_finite_differences(fd, f, xs, rng, wrt=[1, 2])
    assert [t.index for t in fd.backward(wrt=[w, b]).wrt] == [w.index, b.index]
    np.testing.assert_allclose(gw, ct.T @ xs[0], rtol=1e-12)
    np.testing.assert_allclose(gb, ct.sum(0), rtol=1e-12)


def test_layer_norm(rng):
    with fuser.FusionDefinition() as fd:
        x = fd.define_tensor([4, 8], "f64")
        w = fd.define_tensor([8], "f64")
        b = fd.define_tensor([8], "f64")
        fd.add_output(fd.ops.layer_norm(x, w, b, epsilon=1e-5))

    def f(x, w, b):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + 1e-5) * w + b

    xs = [rng.standard_normal((4, 8)), 1 + 0.1 * rng.standard_normal(8), 0.1 * rng.standard_normal(8)]
    bw, _, _ = check_against_finite_differences(fd, f, xs, rng)
    # The norm keeps its statistics for the backward: rstd (and mean) are saved, not recomputed.
    assert any("layer_norm" in s for s in bw.saved), bw.saved


def test_softmax(rng):
    with fuser.FusionDefinition() as fd:
        x = fd.define_tensor([3, 7], "f64")
        fd.add_output(fd.ops.softmax(x, dims=1))

    def f(x):
        e = np.exp(x - x.max(-1, keepdims=True))
        return e / e.sum(-1, keepdims=True)

    check_against_finite_differences(fd, f, [rng.standard_normal((3, 7))], rng)


def mlp(ranks: int, dtype: str = "f64") -> fuser.FusionDefinition:
    """A tensor-parallel MLP: column-parallel fc1 (its rows over DIDx), tanh-GELU,
    row-parallel fc2 (its columns over DIDx), the result replicated (an allreduce)."""
    with fuser.FusionDefinition(mesh=fuser.Mesh(list(range(ranks))), name="mlp") as fd:
        x = fd.define_tensor([6, 8], dtype)
        w1 = fd.define_tensor([16, 8], dtype, splits=[DIDx, []])
        b1 = fd.define_tensor([16], dtype, splits=[DIDx])
        w2 = fd.define_tensor([8, 16], dtype, splits=[[], DIDx])
        h = fd.ops.gelu(fd.ops.linear(x, w1, b1, splits=[[], DIDx]), approximate="tanh")
        fd.add_output(fd.ops.linear(h, w2, splits=[[], []]))
    return fd


def mlp_numpy(x, w1, b1, w2):
    a = x @ w1.T + b1
    g = 0.5 * a * (1 + np.tanh(np.sqrt(2 / np.pi) * (a + 0.044715 * a**3)))
    return g @ w2.T


def mlp_inputs(rng):
    return [rng.standard_normal((6, 8)), rng.standard_normal((16, 8)) / 3, 0.1 * rng.standard_normal(16), rng.standard_normal((8, 16)) / 4]


def test_tensor_parallel_mlp_on_two_ranks(rng):
    xs = mlp_inputs(rng)
    fd = mlp(2)
    bw, ct, grads = check_against_finite_differences(fd, mlp_numpy, xs, rng, ranks=2)
    # Gradients keep the inputs' shardings: the vjp returns dw1 split like w1, dw2 like w2.
    args, results = fuser._fuser.signature(bw.vjp.module())
    text = bw.vjp.mlir()
    sig = text[text.index("func.func @mlp_vjp(") :].split("{", 1)[0]
    assert sig.count("#fusion.shard<@tp, [[DIDx], []]>") == 2  # w1 and its gradient
    assert sig.count("#fusion.shard<@tp, [[], [DIDx]]>") == 2  # w2 and its gradient
    assert [s for s, _ in results] == [[6, 8], [6, 8], [16, 8], [16], [8, 16]]
    # The unsharded run (1 rank, no mesh splits used) gives the same gradients.
    (_, grads1) = mlp(1).backward().execute(xs, [ct], ranks=1)
    for g2, g1 in zip(grads, grads1):
        np.testing.assert_allclose(g2, g1, rtol=1e-12, atol=1e-12)
    # And the sharded joint program passes the reference check.
    bw.vjp.execute(xs + [ct], ranks=2, check=True)
    assert all(err <= tol for err, tol in bw.vjp.last_check)
    # The backward of the sharded program communicates: the partial dx is allreduced.
    assert "comm.allreduce" in bw.bwd.lower().print()


@pytest.mark.parametrize("ranks", [1, 2])
def test_fwd_then_bwd_equals_the_joint(rng, ranks):
    xs = mlp_inputs(rng)
    fd = mlp(ranks, "f32")
    bw = fd.backward()
    ct = rng.standard_normal((6, 8))
    outs, grads = bw.execute(xs, [ct])
    outs2, saved = bw.forward(xs)
    assert isinstance(saved, fuser.Saved) and len(saved) == len(bw.saved) > 0 and saved.nbytes > 0
    assert saved.names == bw.saved
    grads2 = bw.backward(saved, [ct])
    for a, b in zip(outs + grads, outs2 + grads2):
        assert a.dtype == np.float32
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
    # The raw programs: fwd returns the outputs then the saved values, bwd the gradients.
    raw = bw.fwd.execute(xs)
    assert len(raw) == 1 + len(bw.saved)
    np.testing.assert_array_equal(raw[0], outs2[0])
    assert len(bw.bwd.execute(raw[1:] + [ct])) == 4


def test_default_cotangents_are_ones_and_integer_outputs_take_none(rng):
    with fuser.FusionDefinition() as fd:
        x = fd.define_tensor([4], "f64")
        fd.add_output(fd.ops.sum(x * x, [0]))
        fd.add_output(x > fd.ops.full([4], 0.0, "f64"))
    bw = fd.backward()
    assert [t.index for t in bw.cotangents] == [fd.outputs[0].index]
    xs = rng.standard_normal(4)
    (loss, positive), (gx,) = bw.execute([xs])
    np.testing.assert_allclose(loss, np.sum(xs * xs), rtol=1e-12)
    np.testing.assert_array_equal(positive, xs > 0)
    np.testing.assert_allclose(gx, 2 * xs, rtol=1e-12)


def test_an_integer_input_in_wrt_is_refused_at_the_backward_line():
    with fuser.FusionDefinition() as fd:
        x = fd.define_tensor([4, 3], "f32")
        ids = fd.define_tensor([2], "i64")
        fd.add_output(fd.ops.embedding(x, ids))
    line = inspect.currentframe().f_lineno + 2
    try:
        fd.backward(wrt=[x, ids])
        raise AssertionError("not reached")
    except fuser.FuserTypeError as e:
        assert isinstance(e, TypeError) and (e.file, e.line) == (__file__, line)
        assert e.message == "backward: wrt[1] is input #1 of element type i64: only floating-point inputs have a gradient"
        assert "fd.backward(wrt=[x, ids])" in str(e)
    # The table's gradient is fine (embedding has a rule).
    (out,), (gx,) = fd.backward(wrt=[x]).execute([np.arange(12.0).reshape(4, 3), [3, 1]], [np.ones((2, 3))])
    np.testing.assert_array_equal(gx, [[0, 0, 0], [1, 1, 1], [0, 0, 0], [1, 1, 1]])


def test_an_op_without_a_gradient_rule_is_reported_at_its_python_line():
    with fuser.FusionDefinition() as fd:
        ids = fd.define_tensor([3], "i64")
        g = fd.define_tensor([3, 2], "f32")
        line = inspect.currentframe().f_lineno + 1
        table = fd.ops.embedding_grad(ids, g, 5)
        fd.add_output(table)
    with pytest.raises(fuser.FuserError) as info:
        fd.backward()
    e = info.value
    assert (e.file, e.line) == (__file__, line)
    assert e.message == "fusion-autodiff: no gradient rule for 'fusion.embedding_grad' yet"
    assert "table = fd.ops.embedding_grad(ids, g, 5)" in str(e)


def test_bad_wrt_and_cotangents_raise_at_the_call(rng):
    with fuser.FusionDefinition() as fd:
        x = fd.define_tensor([2], "f64")
        y = fd.ops.exp(x)
        fd.add_output(y)
    for wrt, kind, message in [
        ([], fuser.FuserValueError, "backward: wrt is empty: name at least one input"),
        ([y], fuser.FuserValueError, f"backward: wrt[0] (value #{y.index}) is not an input (define_tensor) of the definition"),
        ([3], fuser.FuserValueError, "backward: wrt[0] is 3, but the definition has 1 inputs"),
        ([0, x], fuser.FuserValueError, "backward: wrt[1] names input #0 a second time"),
        (["x"], fuser.FuserTypeError, "backward: wrt[0] must be an input Tensor or an input position, not 'x'"),
    ]:
        with pytest.raises(kind) as info:
            fd.backward(wrt=wrt)
        assert info.value.message == message and info.value.file == __file__
    bw = fd.backward()
    with pytest.raises(fuser.FuserValueError, match="1 cotangents expected"):
        bw.execute([np.ones(2)], [np.ones(2), np.ones(2)])
    with pytest.raises(fuser.FuserValueError, match=r"input #1 has shape \[3\], the function takes \[2\]"):
        bw.execute([np.ones(2)], [np.ones(3)])
    with pytest.raises(fuser.FuserTypeError, match="saved must be what this Backward's forward"):
        bw.backward([np.ones(2)], [np.ones(2)])
    with fuser.FusionDefinition() as empty:
        empty.define_tensor([2], "f64")
    with pytest.raises(fuser.FuserValueError, match="no output"):
        empty.backward()


@pytest.mark.parametrize("model", ["gpt3", "llama"])
def test_transformer_layers_tp_sp_on_two_ranks_match_one_rank(model):
    """examples/python/transformer.py's layers (attention, norms, dropout, rotary, GQA) with
    tensor + sequence parallelism: the sharded joint passes the reference check, and its
    gradients on 2 ranks equal the 1-rank run's."""
    import os
    import sys

    from conftest import ROOT

    sys.path.insert(0, os.path.join(ROOT, "examples", "python"))
    import transformer

    grads = {}
    for devices in (1, 2):
        c = transformer.Config(placement="tpsp", devices=devices)
        fd = transformer.BUILDERS[model](c)
        xs = transformer.inputs(c, np.random.default_rng(0))
        bw = fd.backward()
        assert [fd.inputs.index(t) for t in bw.wrt] == [i for i, s in enumerate(c.specs) if s[2] == "f32"]
        ct = np.random.default_rng(1).standard_normal(fd.outputs[0].shape)
        out = bw.vjp.execute(xs + [ct], check=devices == 2)
        grads[devices] = out[1:]
    assert all(err <= tol for err, tol in bw.vjp.last_check)
    for g2, g1 in zip(grads[2], grads[1]):
        np.testing.assert_allclose(g2, g1, rtol=1e-4, atol=1e-5)
