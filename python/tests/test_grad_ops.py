"""The backward pass's ops of FusionDefinition (issue 25): `sdpa_grad`, `embedding_grad` and
`one_hot`, against NumPy on the cpu backend, sharded (heads, vocabulary rows, classes split over
devices) and not, with the reference check; their result types and argument errors."""

from __future__ import annotations

import fuser
import numpy as np
import pytest
from fuser import DIDx


def sdpa_grad_ref(q, k, v, do, causal, scale):
    """(dq, dk, dv) of softmax(scale q kᵀ [causal mask]) v for the cotangent `do`, materialized
    per head with NumPy (grouped-query: kv heads repeated, their gradients summed back)."""
    B, H, S, D = q.shape
    g = H // k.shape[1]
    kr, vr = np.repeat(k, g, axis=1), np.repeat(v, g, axis=1)
    s = np.einsum("bhid,bhjd->bhij", q, kr) * scale
    if causal:
        s = np.where(np.tril(np.ones((S, k.shape[2]), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    dv = np.einsum("bhij,bhid->bhjd", p, do)
    dp = np.einsum("bhid,bhjd->bhij", do, vr)
    ds = p * (dp - (dp * p).sum(-1, keepdims=True))
    dq = np.einsum("bhij,bhjd->bhid", ds, kr) * scale
    dk = np.einsum("bhij,bhid->bhjd", ds, q) * scale
    fold = lambda x: x.reshape(B, H // g, g, *x.shape[2:]).sum(2)  # noqa: E731
    return dq, fold(dk), fold(dv)


@pytest.mark.parametrize("ranks", [1, 2])
@pytest.mark.parametrize("causal", [False, True])
def test_sdpa_grad_matches_numpy(rng, ranks, causal):
    q, k, v = rng.standard_normal((1, 4, 6, 8)), rng.standard_normal((1, 2, 7, 8)), rng.standard_normal((1, 2, 7, 4))
    do = rng.standard_normal((1, 4, 6, 4))
    sp = [[], DIDx, [], []]
    with fuser.FusionDefinition(mesh=fuser.Mesh(list(range(ranks)))) as fd:
        tq, tk, tv, tdo = (fd.define_tensor(a.shape, "f64", splits=sp) for a in (q, k, v, do))
        o, lse = fd.ops.sdpa(tq, tk, tv, causal=causal, scale=0.3, lse=True)
        dq, dk, dv = fd.ops.sdpa_grad(tq, tk, tv, o, lse, tdo, causal=causal, scale=0.3)
        assert [(t.shape, t.dtype) for t in (dq, dk, dv)] == [(q.shape, "f64"), (k.shape, "f64"), (v.shape, "f64")]
        assert [t.sharding.axes[:2] for t in (dq, dk, dv)] == [[[], [DIDx]]] * 3
        for t in (dq, dk, dv):
            fd.add_output(t)
    got = fd.execute([q, k, v, do], check=True)
    # lse is stored as f32: P = exp(s - lse) carries its rounding (relative 6e-8 per row).
    for g, w in zip(got, sdpa_grad_ref(q, k, v, do, causal, 0.3)):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def test_sdpa_grad_with_a_split_query_sequence(rng):
    """Context parallelism: q, dout and dq split on the query sequence, k and v replicated; dk
    and dv are each rank's partial sums, reduced."""
    q, k, v = rng.standard_normal((1, 2, 6, 4)), rng.standard_normal((1, 2, 5, 4)), rng.standard_normal((1, 2, 5, 3))
    do = rng.standard_normal((1, 2, 6, 3))
    seq = [[], [], DIDx, []]
    with fuser.FusionDefinition(mesh=fuser.Mesh([0, 1])) as fd:
        tq, tdo = (fd.define_tensor(a.shape, "f64", splits=seq) for a in (q, do))
        tk, tv = (fd.define_tensor(a.shape, "f64") for a in (k, v))
        o, lse = fd.ops.sdpa(tq, tk, tv, causal=True, lse=True, splits=seq)
        dq, dk, dv = fd.ops.sdpa_grad(tq, tk, tv, o, lse, tdo, causal=True, splits=seq)
        assert dk.sharding.axes == [[], [], [], []] and dq.sharding.axes[2] == [DIDx]
        for t in (dq, dk, dv):
            fd.add_output(t)
    got = fd.execute([q, do, k, v], check=True)
    for g, w in zip(got, sdpa_grad_ref(q, k, v, do, True, 0.5)):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("ranks", [1, 2])
def test_embedding_grad_matches_numpy(rng, ranks):
    ids = np.array([[0, 9, 3], [12, -1, 3], [9, 9, 5]], dtype=np.int64)  # 12, -1: out of range
    g = rng.standard_normal((3, 3, 4))
    with fuser.FusionDefinition(mesh=fuser.Mesh(list(range(ranks)))) as fd:
        ti = fd.define_tensor([3, 3], "i64")
        tg = fd.define_tensor([3, 3, 4], "f64")
        t = fd.ops.embedding_grad(ti, tg, 10, splits=[[DIDx], []])  # vocab-parallel rows
        assert (t.shape, t.dtype) == ((10, 4), "f64")
        fd.add_output(t)
        fd.add_output(fd.ops.embedding_grad(ti, tg, num_rows=10))
    got, got_replicated = fd.execute([ids, g], check=True)
    want = np.zeros((10, 4))
    held = (ids >= 0) & (ids < 10)
    np.add.at(want, ids[held], g[held])
    np.testing.assert_allclose(got, want, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(got_replicated, want, rtol=1e-14, atol=1e-15)
    assert np.all(want[[1, 2, 4, 6, 7, 8]] == 0) and np.any(want[9] != 0)


@pytest.mark.parametrize("ranks", [1, 2])
def test_one_hot_matches_numpy(ranks):
    labels = np.array([[2, 5, 7], [-1, 8, 0]], dtype=np.int64)  # -1, 8: rows of zeros
    with fuser.FusionDefinition(mesh=fuser.Mesh(list(range(ranks)))) as fd:
        tl = fd.define_tensor([2, 3], "i64")
        oh = fd.ops.one_hot(tl, 8, splits=[[], [], [DIDx]])  # classes split over devices
        ob = fd.ops.one_hot(tl, 8, dtype="bf16")
        assert [(t.shape, t.dtype) for t in (oh, ob)] == [((2, 3, 8), "f32"), ((2, 3, 8), "bf16")]
        fd.add_output(oh)
        fd.add_output(ob)
    got, got_bf16 = fd.execute([labels], check=True)
    want = (labels[..., None] == np.arange(8)).astype(np.float64)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got_bf16, want)


def test_bad_calls_raise():
    with fuser.FusionDefinition() as fd:
        ids = fd.define_tensor([4], "i64")
        g = fd.define_tensor([4, 3], "f32")
        with pytest.raises(TypeError, match="num_rows"):
            fd.ops.embedding_grad(ids, g, -1)
        with pytest.raises(fuser.FuserError, match="one more axis"):
            fd.ops.embedding_grad(ids, fd.define_tensor([4], "f32"), 5)
        with pytest.raises(fuser.FuserError, match="float element type"):
            fd.ops.embedding_grad(ids, fd.define_tensor([4, 3], "i64"), 5)
        with pytest.raises(ValueError, match="float type"):
            fd.ops.one_hot(ids, 5, dtype="i32")
        with pytest.raises(TypeError, match="num_classes"):
            fd.ops.one_hot(ids, True)
        q = fd.define_tensor([1, 2, 3, 4], "f32")
        lse = fd.define_tensor([1, 2, 3], "bf16")
        with pytest.raises(fuser.FuserError, match="lse must have element type 'f32'"):
            fd.ops.sdpa_grad(q, q, q, q, lse, q)
        with pytest.raises(ValueError, match=r"\[B, H, S, D\]"):
            fd.ops.sdpa_grad(g, g, g, g, g, g)
