"""The transformer ops of FusionDefinition (issue 23): result shapes and element types, errors
at the Python line, and numeric results against NumPy (softmax, norms, gelu, sdpa, ...) on the
cpu backend, sharded and not, with the reference check."""

from __future__ import annotations

import math
import sys

import fuser
import numpy as np
import pytest
from fuser import DIDx


def here() -> int:
    """The line of the caller (the line a test expects an error at is the next one)."""
    return sys._getframe(1).f_lineno


def erf(a: np.ndarray) -> np.ndarray:
    return np.vectorize(math.erf)(a)


def run1(build, inputs, ranks=None, mesh=None):
    """Builds a one-output program with `build(fd, *tensors)` over f64 inputs of the given
    arrays' shapes (and dtypes), runs it with the check; the outputs."""
    with fuser.FusionDefinition(mesh=mesh) as fd:
        ts = [fd.define_tensor(a.shape, _name(a)) for a in inputs]
        outs = build(fd, *ts)
        for o in outs if isinstance(outs, tuple) else (outs,):
            fd.add_output(o)
    return fd.execute(inputs, ranks=ranks, check=True)


def _name(a: np.ndarray) -> str:
    return {"f": "f64", "i": "i64", "b": "i1"}[a.dtype.kind]


# -- shapes and element types ------------------------------------------------------------------


def test_shapes_and_dtypes_of_every_op():
    with fuser.FusionDefinition() as fd:
        x = fd.define_tensor([4, 8], "bf16")
        y = fd.define_tensor([4, 8], "bf16")
        for name in ["exp", "log", "tanh", "erf", "sqrt", "rsqrt", "sigmoid", "abs", "reciprocal", "silu", "gelu"]:
            r = getattr(fd.ops, name)(x)
            assert (r.shape, r.dtype) == ((4, 8), "bf16"), name
        assert fd.ops.gelu(x, approximate="tanh").dtype == "bf16"
        for name in ["maximum", "minimum", "pow"]:
            assert getattr(fd.ops, name)(x, y).shape == (4, 8)
        for c in [fd.ops.compare("eq", x, y), x < y, x <= y, x > y, x >= y]:
            assert (c.shape, c.dtype) == ((4, 8), "i1")
        assert fd.ops.where(x < y, x, y).dtype == "bf16"
        f = fd.ops.full([2, 3], 7, "i32")
        assert (f.shape, f.dtype) == ((2, 3), "i32")
        assert fd.ops.full([5], True, "i1").dtype == "i1"
        assert fd.ops.max(x, 1).shape == (4,) and fd.ops.min(x, [0, 1]).shape == ()
        assert fd.ops.mean(x, [1], keep_dims=True).shape == (4, 1)
        assert fd.ops.var(x, [0], correction=0).shape == (8,)
        assert fd.ops.softmax(x, 1).shape == (4, 8) and fd.ops.log_softmax(x, [1]).dtype == "bf16"
        w = fd.define_tensor([8], "bf16")
        assert fd.ops.layer_norm(x, w, w).shape == (4, 8)
        ln, mean, rstd = fd.ops.layer_norm(x, bias=w, stats=True)
        assert (ln.dtype, mean.shape, mean.dtype, rstd.shape) == ("bf16", (4,), "f32", (4,))
        y2, r2 = fd.ops.rms_norm(x, w, stats=True)
        assert (y2.shape, r2.shape, r2.dtype) == ((4, 8), (4,), "f32")
        q = fd.define_tensor([1, 4, 6, 8], "f32")
        kv = fd.define_tensor([1, 2, 5, 8], "f32")
        o, lse = fd.ops.sdpa(q, kv, kv, causal=True, scale=0.5, lse=True)
        assert (o.shape, lse.shape, lse.dtype) == ((1, 4, 6, 8), (1, 4, 6), "f32")
        assert fd.ops.sdpa(q, kv, kv).shape == (1, 4, 6, 8)
        assert fd.ops.slice(x, [0, 2], [4, 3], [1, 2]).shape == (4, 3)
        assert fd.ops.concat([x, y, x], 1).shape == (4, 24)
        ids = fd.define_tensor([2, 3], "i64")
        table = fd.define_tensor([10, 8], "f32")
        assert fd.ops.embedding(table, ids).shape == (2, 3, 8)
        seed, off = fd.define_tensor([], "i64"), fd.define_tensor([], "i64")
        assert fd.ops.dropout(x, seed, off, 0.5).shape == (4, 8)
        labels = fd.define_tensor([4], "i64")
        assert fd.ops.cross_entropy(x, labels).dtype == "bf16"
        assert fd.ops.cross_entropy(x, labels, dtype="f32", ignore_index=0).dtype == "f32"
    text = fd.mlir()
    for op in ["fusion.compare le", "approximate = \"tanh\"", "fusion.full {value = true}", "correction = 0",
               "fusion.sdpa", "causal", "strides = [1, 2]", "ignore_index = 0", "p = 5.000000e-01"]:
        assert op in text, op


def test_secondary_results_get_the_leading_splits_of_result_0():
    with fuser.FusionDefinition(mesh=fuser.Mesh([0, 1])) as fd:
        x = fd.define_tensor([4, 8], "f32", splits=[DIDx, []])
        y, mean, rstd = fd.ops.layer_norm(x, stats=True)
        q = fd.define_tensor([1, 2, 4, 8], "f32", splits=[[], DIDx, [], []])
        o, lse = fd.ops.sdpa(q, q, q, lse=True, splits=[[], DIDx, [], []])
        for t in (y, mean, rstd, o, lse):
            fd.add_output(t)
    assert y.sharding == fuser.Sharding([[DIDx], []])
    assert mean.sharding == rstd.sharding == fuser.Sharding([[DIDx]])
    assert lse.sharding == fuser.Sharding([[], [DIDx], []])
    rng = np.random.default_rng(0)
    xs, qs = rng.standard_normal((4, 8)), rng.standard_normal((1, 2, 4, 8))
    outs = fd.execute([xs, qs], check=True)
    np.testing.assert_allclose(outs[1], xs.mean(1), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(outs[2], 1 / np.sqrt(xs.var(1) + 1e-5), rtol=1e-5)


# -- errors at the Python line ------------------------------------------------------------------


@pytest.mark.parametrize(
    "build, kind, text",
    [
        (lambda fd, x, i: fd.ops.exp(i), fuser.FuserError, "float"),
        (lambda fd, x, i: fd.ops.gelu(x, approximate="fast"), fuser.FuserValueError, "approximate"),
        (lambda fd, x, i: fd.ops.compare("lessthan", x, x), fuser.FuserValueError, "predicate"),
        (lambda fd, x, i: fd.ops.maximum(x, i), fuser.FuserError, "maximum"),
        (lambda fd, x, i: fd.ops.where(x, x, x), fuser.FuserError, "i1"),
        (lambda fd, x, i: fd.ops.full([2, -1], 0.0), fuser.FuserValueError, "non-negative"),
        (lambda fd, x, i: fd.ops.full([2], 0.5, "i32"), fuser.FuserTypeError, "integer"),
        (lambda fd, x, i: fd.ops.max(x, [2]), fuser.FuserError, "fusion.max"),
        (lambda fd, x, i: fd.ops.mean(x, 1, keep_dims=1), fuser.FuserTypeError, "keep_dims"),
        (lambda fd, x, i: fd.ops.softmax(x, [5]), fuser.FuserError, "softmax"),
        (lambda fd, x, i: fd.ops.layer_norm(x, dims=[0]), fuser.FuserError, "trailing"),
        (lambda fd, x, i: fd.ops.layer_norm(x, epsilon=-1.0), fuser.FuserValueError, "epsilon"),
        (lambda fd, x, i: fd.ops.rms_norm(x, i), fuser.FuserError, "rms_norm"),
        (lambda fd, x, i: fd.ops.sdpa(x, x, x), fuser.FuserValueError, "[B, H, S, D]"),
        (lambda fd, x, i: fd.ops.slice(x, [0, 0], [5, 8]), fuser.FuserError, "slice"),
        (lambda fd, x, i: fd.ops.concat([], 0), fuser.FuserValueError, "at least one"),
        (lambda fd, x, i: fd.ops.concat([x, i], 0), fuser.FuserError, "concat"),
        (lambda fd, x, i: fd.ops.embedding(x, x), fuser.FuserError, "embedding"),
        (lambda fd, x, i: fd.ops.dropout(x, i, i, 1.0), fuser.FuserValueError, "[0, 1)"),
        (lambda fd, x, i: fd.ops.cross_entropy(x, x), fuser.FuserError, "cross_entropy"),
        (lambda fd, x, i: fd.ops.exp("x"), fuser.FuserTypeError, "fuser Tensor"),
        (lambda fd, x, i: fd.ops.exp(x, splits=[[], []], layout=1), fuser.FuserTypeError, "unexpected keyword"),
    ],
)
def test_bad_calls_raise_at_the_python_line(build, kind, text):
    with fuser.FusionDefinition() as fd:
        x = fd.define_tensor([4, 8], "f32")
        i = fd.define_tensor([4, 8], "i32")
        with pytest.raises(kind) as info:
            build(fd, x, i)
    # The line of the call (the lambda's), not a line inside the package.
    assert info.value.line == build.__code__.co_firstlineno, str(info.value)
    assert info.value.file == __file__, str(info.value)
    assert text in str(info.value), str(info.value)
    # A refused op is not kept: the program still builds, without any op.
    assert "= fusion." not in fd.mlir()


def test_a_sharding_the_op_cannot_honour_is_refused_at_its_line():
    with fuser.FusionDefinition(mesh=fuser.Mesh([0, 1])) as fd:
        line = here() + 2
        with pytest.raises(fuser.FuserError) as info:
            fd.ops.full([4], 0.0, partial=[DIDx])
    assert info.value.line == line and "may not be partial" in str(info.value), str(info.value)


def test_a_partial_operand_is_reduced_before_a_nonlinear_op():
    with fuser.FusionDefinition(mesh=fuser.Mesh([0, 1])) as fd:
        x = fd.define_tensor([4, 8], "f64", splits=[[], DIDx])
        w = fd.define_tensor([8, 8], "f64", splits=[[], DIDx])
        h = fd.ops.linear(x, w, partial=[DIDx])  # a pending sum
        y = fd.ops.tanh(h)  # keeps the splits, not the pending sum
        fd.add_output(y)
    assert h.sharding.partial == ["DIDx"] and y.sharding == fuser.Sharding([[], []])
    rng = np.random.default_rng(0)
    xs, ws = rng.standard_normal((4, 8)), rng.standard_normal((8, 8))
    (got,) = fd.execute([xs, ws], check=True)
    np.testing.assert_allclose(got, np.tanh(xs @ ws.T), rtol=1e-12)


# -- numeric results against NumPy --------------------------------------------------------------


def test_elementwise_math_matches_numpy(rng):
    x = rng.standard_normal((3, 5))
    pos = np.abs(x) + 0.5
    ops = {
        "exp": (np.exp, x), "log": (np.log, pos), "tanh": (np.tanh, x), "erf": (erf, x), "sqrt": (np.sqrt, pos),
        "rsqrt": (lambda a: 1 / np.sqrt(a), pos), "sigmoid": (lambda a: 1 / (1 + np.exp(-a)), x),
        "abs": (np.abs, x), "reciprocal": (lambda a: 1 / a, pos), "silu": (lambda a: a / (1 + np.exp(-a)), x),
    }
    for name, (ref, a) in ops.items():
        (got,) = run1(lambda fd, t, n=name: getattr(fd.ops, n)(t), [a])
        np.testing.assert_allclose(got, ref(a), rtol=1e-12, err_msg=name)
    (got,) = run1(lambda fd, a, b: fd.ops.pow(a, b), [pos, x])
    np.testing.assert_allclose(got, pos**x, rtol=1e-12)
    got = run1(lambda fd, a, b: (fd.ops.maximum(a, b), fd.ops.minimum(a, b)), [x, x.T.copy().T[::-1].copy()])
    np.testing.assert_allclose(got[0], np.maximum(x, x[::-1]))
    np.testing.assert_allclose(got[1], np.minimum(x, x[::-1]))


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu_matches_torch_formulas(rng, approximate):
    x = rng.standard_normal((4, 6)) * 3
    (got,) = run1(lambda fd, t: fd.ops.gelu(t, approximate=approximate), [x])
    if approximate == "none":
        want = x * (1 + erf(x / math.sqrt(2))) / 2
    else:
        want = x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))) / 2
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)


def test_compare_where_full_with_booleans_in_and_out(rng):
    a, b = rng.standard_normal((4, 4)), rng.standard_normal((4, 4))
    cond = a > 0
    with fuser.FusionDefinition() as fd:
        ta, tb = fd.define_tensor([4, 4], "f64"), fd.define_tensor([4, 4], "f64")
        tc = fd.define_tensor([4, 4], "i1")
        fd.add_output(ta < tb)
        fd.add_output(fd.ops.compare("ne", ta, tb))
        fd.add_output(fd.ops.where(tc, ta, fd.ops.full([4, 4], -2.5, "f64")))
    lt, ne, w = fd.execute([a, b, cond], check=True)
    assert lt.dtype == np.bool_ and np.array_equal(lt, a < b) and np.array_equal(ne, a != b)
    np.testing.assert_array_equal(w, np.where(cond, a, -2.5))


@pytest.mark.parametrize("ranks", [1, 2])
def test_reductions_match_numpy(rng, ranks):
    x = rng.standard_normal((4, 6))
    mesh = fuser.Mesh(list(range(ranks)))
    with fuser.FusionDefinition(mesh=mesh) as fd:
        # max/min/mean over a split axis: pending max/min/sum, allreduced.
        t = fd.define_tensor([4, 6], "f64", splits=[[], DIDx])
        # var reads its axes whole: a split there is gathered first.
        t0 = fd.define_tensor([4, 6], "f64", splits=[DIDx, []])
        for o in (fd.ops.max(t, 1), fd.ops.min(t, [0, 1]), fd.ops.mean(t, 1, keep_dims=True), fd.ops.var(t0, 1),
                  fd.ops.var(t0, [0, 1], correction=0)):
            fd.add_output(o)
    mx, mn, me, v1, v0 = fd.execute([x, x], check=True)
    np.testing.assert_allclose(mx, x.max(1))
    np.testing.assert_allclose(mn, x.min())
    np.testing.assert_allclose(me, x.mean(1, keepdims=True), rtol=1e-12)
    np.testing.assert_allclose(v1, x.var(1, ddof=1), rtol=1e-12)
    np.testing.assert_allclose(v0, x.var(), rtol=1e-12)


@pytest.mark.parametrize("ranks", [1, 2, 4])
def test_softmax_and_log_softmax_match_numpy(rng, ranks):
    x = rng.standard_normal((8, 16)) * 4
    with fuser.FusionDefinition(mesh=fuser.Mesh(list(range(ranks)))) as fd:
        t = fd.define_tensor([8, 16], "f32", splits=[DIDx, []])
        fd.add_output(fd.ops.softmax(t, 1))
        fd.add_output(fd.ops.log_softmax(t, [1]))
    sm, lsm = fd.execute([x], check=True)
    xf = x.astype(np.float32).astype(np.float64)
    e = np.exp(xf - xf.max(1, keepdims=True))
    np.testing.assert_allclose(sm, e / e.sum(1, keepdims=True), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(lsm, np.log(e / e.sum(1, keepdims=True)), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("ranks", [1, 2])
def test_layer_norm_and_rms_norm_match_numpy(rng, ranks):
    x, w, b = rng.standard_normal((4, 8)) * 2 + 1, rng.standard_normal(8), rng.standard_normal(8)
    with fuser.FusionDefinition(mesh=fuser.Mesh(list(range(ranks)))) as fd:
        tx = fd.define_tensor([4, 8], "f64", splits=[DIDx, []])
        tw, tb = fd.define_tensor([8], "f64"), fd.define_tensor([8], "f64")
        y, mean, rstd = fd.ops.layer_norm(tx, tw, tb, epsilon=1e-6, stats=True)
        r, rr = fd.ops.rms_norm(tx, tw, epsilon=1e-6, stats=True)
        for o in (y, mean, rstd, r, rr, fd.ops.layer_norm(tx, bias=tb)):
            fd.add_output(o)
    y, mean, rstd, r, rr, yb = fd.execute([x, w, b], check=True)
    mu, var = x.mean(1, keepdims=True), x.var(1, keepdims=True)
    np.testing.assert_allclose(y, (x - mu) / np.sqrt(var + 1e-6) * w + b, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(mean, mu[:, 0], rtol=1e-12)
    np.testing.assert_allclose(rstd, 1 / np.sqrt(var[:, 0] + 1e-6), rtol=1e-12)
    ms = (x * x).mean(1, keepdims=True)
    np.testing.assert_allclose(r, x / np.sqrt(ms + 1e-6) * w, rtol=1e-12)
    np.testing.assert_allclose(rr, 1 / np.sqrt(ms[:, 0] + 1e-6), rtol=1e-12)
    np.testing.assert_allclose(yb, (x - mu) / np.sqrt(var + 1e-5) + b, rtol=1e-12, atol=1e-12)


def sdpa_ref(q, k, v, causal, scale):
    B, H, S, D = q.shape
    g = H // k.shape[1]
    k, v = np.repeat(k, g, axis=1), np.repeat(v, g, axis=1)
    s = np.einsum("bhid,bhjd->bhij", q, k) * scale
    if causal:
        s = np.where(np.tril(np.ones((S, k.shape[2]), dtype=bool)), s, -np.inf)
    m = s.max(-1, keepdims=True)
    e = np.exp(s - m)
    lse = np.log(e.sum(-1)) + m[..., 0]
    return np.einsum("bhij,bhjd->bhid", e / e.sum(-1, keepdims=True), v), lse


@pytest.mark.parametrize("ranks", [1, 2])
@pytest.mark.parametrize("causal", [False, True])
def test_sdpa_matches_numpy(rng, ranks, causal):
    q, k, v = rng.standard_normal((1, 4, 6, 8)), rng.standard_normal((1, 2, 6, 8)), rng.standard_normal((1, 2, 6, 4))
    sp = [[], DIDx, [], []]
    with fuser.FusionDefinition(mesh=fuser.Mesh(list(range(ranks)))) as fd:
        tq, tk, tv = (fd.define_tensor(a.shape, "f64", splits=sp) for a in (q, k, v))
        o, lse = fd.ops.sdpa(tq, tk, tv, causal=causal, scale=0.3, lse=True, splits=sp)
        fd.add_output(o)
        fd.add_output(lse)
        fd.add_output(fd.ops.sdpa(tq, tk, tv, causal=causal))
    got_o, got_lse, got_default = fd.execute([q, k, v], check=True)
    want_o, want_lse = sdpa_ref(q, k, v, causal, 0.3)
    np.testing.assert_allclose(got_o, want_o, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(got_lse, want_lse, rtol=1e-6)
    np.testing.assert_allclose(got_default, sdpa_ref(q, k, v, causal, 1 / math.sqrt(8))[0], rtol=1e-10, atol=1e-12)


def test_slice_concat_embedding_cross_entropy_with_int64_inputs(rng):
    x = rng.standard_normal((4, 6))
    table = rng.standard_normal((10, 3))
    ids = np.array([[0, 9, 3], [12, -1, 5]], dtype=np.int64)  # out of range: zero rows
    labels = np.array([1, -100, 5, 0], dtype=np.int64)
    with fuser.FusionDefinition() as fd:
        tx = fd.define_tensor([4, 6], "f64")
        tt = fd.define_tensor([10, 3], "f64")
        ti = fd.define_tensor([2, 3], "i64")
        tl = fd.define_tensor([4], "i64")
        s = fd.ops.slice(tx, [1, 0], [2, 3], [2, 2])
        fd.add_output(fd.ops.concat([s, s], 0))
        fd.add_output(fd.ops.embedding(tt, ti))
        fd.add_output(fd.ops.cross_entropy(tx, tl))
    cat, emb, ce = fd.execute([x, table, ids, labels], check=True)
    np.testing.assert_array_equal(cat, np.concatenate([x[1:5:2, 0:6:2]] * 2, 0))
    want_emb = np.where(((ids >= 0) & (ids < 10))[..., None], table[np.clip(ids, 0, 9)], 0.0)
    np.testing.assert_array_equal(emb, want_emb)
    lse = np.log(np.exp(x).sum(1))
    want_ce = np.where(labels == -100, 0.0, lse - x[np.arange(4), np.clip(labels, 0, 5)])
    np.testing.assert_allclose(ce, want_ce, rtol=1e-12)


def test_dropout_is_the_same_under_every_sharding(rng):
    x = rng.standard_normal((8, 16))
    outs = []
    for ranks in (1, 2, 4):
        with fuser.FusionDefinition(mesh=fuser.Mesh(list(range(ranks)))) as fd:
            t = fd.define_tensor([8, 16], "f64", splits=[DIDx, []])
            seed, off = fd.define_tensor([], "i64"), fd.define_tensor([], "i64")
            fd.add_output(fd.ops.dropout(t, seed, off, 0.25))
        (y,) = fd.execute([x, np.int64(2**40 + 7), np.int64(3)], check=True)
        outs.append(y)
    assert np.array_equal(outs[0], outs[1]) and np.array_equal(outs[0], outs[2])
    kept = outs[0] != 0
    np.testing.assert_allclose(outs[0][kept], x[kept] / 0.75, rtol=1e-15)
    assert 0.5 < kept.mean() < 0.95


def test_integers_beyond_2_to_53_are_refused():
    with fuser.FusionDefinition() as fd:
        s = fd.define_tensor([], "i64")
        fd.add_output(fd.ops.abs(s))
    with pytest.raises(fuser.FuserValueError, match="2\\*\\*53"):
        fd.execute([np.int64(2**60)])
