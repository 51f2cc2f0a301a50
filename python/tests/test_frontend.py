"""The frontend: ops, shapes, shardings, and errors that point at the Python line."""

from __future__ import annotations

import sys

import fuser
import numpy as np
import pytest
from fuser import DIDx, Stream


def here() -> int:
    """The line of the caller (the line a test expects an error at is the next one)."""
    return sys._getframe(1).f_lineno


def test_every_op_builds_and_runs_against_numpy(rng):
    with fuser.FusionDefinition(mesh=fuser.Mesh([0, 1])) as fd:
        x = fd.define_tensor([4, 6], "f64", splits=[DIDx, []])
        w = fd.define_tensor([8, 6], "f64")
        b = fd.define_tensor([8], "f64")
        y = fd.ops.linear(x, w, b)  # replicated [4, 8]
        z = fd.ops.permute(y, [1, 0])  # [8, 4]
        r = fd.ops.reshape(z, [2, 4, 4])
        s = fd.ops.sum(r, 0)  # [4, 4]
        t = (s * s - s) / fd.ops.broadcast(fd.ops.sum(s, [0, 1]), [(0, 4), (1, 4)])
        m = t @ s
        c = fd.ops.cast(-m, "f32")
        fd.add_output(c)
        fd.add_output(fd.ops.set(y, splits=[[], DIDx]))
    assert c.shape == (4, 4) and c.dtype == "f32" and y.shape == (4, 8)
    xs, ws, bs = rng.standard_normal((4, 6)), rng.standard_normal((8, 6)), rng.standard_normal(8)
    got_c, got_y = fd.execute([xs, ws, bs], ranks=2, check=True)
    ys = xs @ ws.T + bs
    ss = ys.T.reshape(2, 4, 4).sum(0)
    ts = (ss * ss - ss) / ss.sum()
    np.testing.assert_allclose(got_c, (-(ts @ ss)).astype(np.float32), rtol=1e-5)
    np.testing.assert_allclose(got_y, ys, rtol=1e-12)


def test_partial_inputs_and_reshard_to_replicated(rng):
    with fuser.FusionDefinition(mesh=fuser.Mesh([0, 1, 2, 3])) as fd:
        p = fd.define_tensor([8, 4], "f32", partial=[DIDx])
        fd.add_output(fd.ops.set(p, splits=[DIDx, []]))
    assert "partial = [DIDx]" in fd.mlir()
    assert "comm.reduce_scatter" in fd.lower().print()


def test_two_dimensional_mesh():
    with fuser.FusionDefinition(mesh=fuser.Mesh([[0, 1], [2, 3]], name="m")) as fd:
        x = fd.define_tensor([4, 8], "f32", splits=[fuser.DIDy, DIDx])
        fd.add_output(fd.ops.set(x))
    assert "fusion.mesh @m = [[0, 1], [2, 3]]" in fd.mlir()
    assert "#fusion.shard<@m, [[DIDy], [DIDx]]>" in fd.mlir()


def test_no_mesh_means_no_sharding(rng):
    with fuser.FusionDefinition() as fd:
        a = fd.define_tensor([3, 3], np.float32)
        fd.add_output(a @ a)
    assert "#fusion.shard" not in fd.mlir() and "tensor<3x3xf32>" in fd.mlir()
    (out,) = fd.execute([np.eye(3) * 2])
    np.testing.assert_array_equal(out, np.eye(3) * 4)


def test_locations_carry_the_python_line():
    with fuser.FusionDefinition(mesh=fuser.Mesh([0, 1])) as fd:
        x = fd.define_tensor([4], "f32", splits=[DIDx])
        line = here() + 1
        y = fd.ops.neg(x)
        fd.add_output(y)
    text = fd.mlir(debug_info=True)
    assert f'"{__file__}":{line}:' in text
    assert f'"{__file__}":{line}:' in fd.lower().print(debug_info=True)


def test_a_shape_error_points_at_the_python_line():
    with pytest.raises(fuser.FuserError) as info:
        with fuser.FusionDefinition(mesh=fuser.Mesh([0, 1])) as fd:
            a = fd.define_tensor([4, 8], "f32")
            line = here() + 1
            fd.ops.matmul(a, a)
    e = info.value
    assert (e.file, e.line, e.column) == (__file__, line, 13)
    assert e.message.startswith("fusion.matmul: contraction extents differ")
    assert str(e).splitlines()[1:] == ["            fd.ops.matmul(a, a)", "            ^"]
    assert e.diagnostics[0].severity == "error"


def test_a_sharding_the_mesh_cannot_split_points_at_the_python_line():
    with fuser.FusionDefinition(mesh=fuser.Mesh([0, 1, 2, 3])) as fd:
        x = fd.define_tensor([6], "f32")
        line = here() + 2
        with pytest.raises(fuser.FuserError) as info:
            fd.ops.set(x, splits=[DIDx])
    e = info.value
    assert (e.file, e.line, e.column) == (__file__, line, 13)
    assert e.message == "'fusion.set' op result: axis 0 of extent 6 is not divisible by 4, the product of its splits"
    assert "            fd.ops.set(x, splits=[DIDx])\n            ^" in str(e)
    (note,) = e.notes
    assert note.message.startswith("see current operation:") and note.line == line
    # The refused op is not kept: the definition still builds.
    fd.add_output(x)
    fd.module()


def test_an_input_on_a_bad_split_and_unknown_names_raise():
    with fuser.FusionDefinition(mesh=fuser.Mesh([0, 1, 2, 3])) as fd:
        line = here() + 2
        with pytest.raises(fuser.FuserError) as info:
            fd.define_tensor([8], "f32", splits=[[DIDx, DIDx]])
        assert info.value.line == line
        assert "device axis DIDx splits the tensor more than once" in info.value.message
        with pytest.raises(ValueError):
            fd.define_tensor([4], "complex64")
        with pytest.raises(TypeError):
            fd.define_tensor([4], "f32", splits=[["DIDx"]])
        with pytest.raises(TypeError):
            fd.ops.neg(fd.define_tensor([4]), split=[DIDx])


def test_a_bad_mesh_raises_at_the_definition():
    line = here() + 2
    with pytest.raises(fuser.FuserError) as info:
        fuser.FusionDefinition(mesh=fuser.Mesh([0, 0]))
    assert (info.value.file, info.value.line) == (__file__, line)


def test_tensors_of_another_definition_are_refused():
    with fuser.FusionDefinition() as a:
        x = a.define_tensor([2])
    with fuser.FusionDefinition() as b:
        with pytest.raises(ValueError):
            b.ops.neg(x)


def test_run_errors_are_fuser_errors(rng):
    with fuser.FusionDefinition(mesh=fuser.Mesh([0, 1])) as fd:
        x = fd.define_tensor([4, 2], "f32", splits=[DIDx, []])
        fd.add_output(fd.ops.set(x))
    with pytest.raises(fuser.FuserError) as info:
        fd.execute([np.zeros((4, 3))])
    assert "input #0: shape [4, 3] given, the function takes [4, 2]" in info.value.message
    with pytest.raises(fuser.FuserError) as info:
        fd.execute([np.zeros((4, 2))], ranks=3)
    assert "mesh @tp has devices [0, 1]" in info.value.message
    with pytest.raises(fuser.FuserError):
        fd.execute([])
    with pytest.raises(fuser.FuserError) as info:
        fuser.execute(fd.lower(), [np.zeros((4, 2))], check=True)
    assert "check=True needs a fusion-level program" in info.value.message
    with pytest.raises(ValueError):
        fd.execute([np.zeros((4, 2))], backend="tpu")


def test_cuda_program_knows_the_local_pieces():
    cuda_program = getattr(fuser._fuser, "CudaProgram", None)
    if cuda_program is None:
        pytest.skip("built without the cuda feature")
    with fuser.FusionDefinition(mesh=fuser.Mesh([0, 1])) as fd:
        x = fd.define_tensor([4, 6], "bf16", splits=[DIDx, []])
        w = fd.define_tensor([8, 6], "bf16")
        fd.add_output(fd.ops.linear(x, w))
    p = cuda_program(fd.module())
    assert p.arg_types() == [([2, 6], "bf16"), ([8, 6], "bf16")]
    assert p.result_types() == [([4, 8], "bf16")]
    assert p.ranks() == 2


def test_joining_a_cuda_run_without_cuda_is_an_error_not_a_crash(monkeypatch):
    cuda_rank = getattr(fuser._fuser, "CudaRank", None)
    if cuda_rank is None:
        pytest.skip("built without the cuda feature")
    monkeypatch.setenv("RANK", "0")
    monkeypatch.delenv("WORLD_SIZE", raising=False)
    with pytest.raises(fuser.FuserError) as info:
        cuda_rank(0)
    assert "RANK is set but WORLD_SIZE is not" in info.value.message
