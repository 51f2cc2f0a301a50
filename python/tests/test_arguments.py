"""Bad arguments: FuserErrors (also ValueError/TypeError/OverflowError) at the Python line,
never a Rust panic; inputs carry the location of their define_tensor call (issue 22, item 4)."""

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


def neg_program() -> fuser.FusionDefinition:
    with fuser.FusionDefinition(mesh=fuser.Mesh([0, 1])) as fd:
        x = fd.define_tensor([4, 2], "f32", splits=[DIDx, []])
        fd.add_output(fd.ops.neg(x))
    return fd


@pytest.mark.parametrize("timeout", [float("inf"), float("nan"), -1.0, 0.0, -math.inf, 1e300])
def test_a_bad_timeout_is_a_fuser_value_error_not_a_panic(timeout):
    fd = neg_program()
    try:
        line = here() + 1
        fd.execute([np.zeros((4, 2))], timeout=timeout)
    except fuser.FuserError as e:
        assert isinstance(e, fuser.FuserValueError) and isinstance(e, ValueError)
        assert (e.file, e.line) == (__file__, line)
        assert e.message.startswith("timeout must be a positive, finite number of seconds"), e.message
    else:
        raise AssertionError("not refused")
    with pytest.raises(fuser.FuserTypeError):
        fd.execute([np.zeros((4, 2))], timeout="60")
    # The native function checks too (a PanicException is a BaseException: not caught here).
    with pytest.raises(fuser.FuserValueError, match="timeout must be"):
        fuser._fuser.run_cpu(fd.module(), [([4, 2], np.zeros((4, 2)).tobytes())], timeout_s=timeout)
    (y,) = fd.execute([np.ones((4, 2))], timeout=30)
    np.testing.assert_array_equal(y, -np.ones((4, 2)))


def test_bad_ranks_are_fuser_errors():
    fd = neg_program()
    with pytest.raises(fuser.FuserValueError, match="ranks must be"):
        fd.execute([np.zeros((4, 2))], ranks=0)
    with pytest.raises(fuser.FuserValueError, match="ranks must be"):
        fd.execute([np.zeros((4, 2))], ranks=-3)
    with pytest.raises(fuser.FuserValueError, match="ranks must be"):
        fd.execute([np.zeros((4, 2))], ranks=2**70)
    with pytest.raises(fuser.FuserTypeError):
        fd.execute([np.zeros((4, 2))], ranks=2.0)
    with pytest.raises(fuser.FuserValueError, match="input #0 is not a numeric array"):
        fd.execute([[[1, 2], [3]]])


def test_negative_extents_are_refused_at_the_call():
    with fuser.FusionDefinition() as fd:
        line = here() + 2
        with pytest.raises(fuser.FuserValueError) as info:
            fd.define_tensor([-1, 4])
        assert (info.value.file, info.value.line) == (__file__, line)
        assert info.value.message == "define_tensor: shape[0] is -1: extents must be non-negative"
        assert "fd.define_tensor([-1, 4])" in str(info.value)
        x = fd.define_tensor([2, 2])
        line = here() + 2
        with pytest.raises(fuser.FuserValueError) as info:
            fd.ops.broadcast(x, [(0, -3)])
        assert info.value.line == line
        assert info.value.message == "broadcast: new_axes extent[0] is -3: extents must be non-negative"
        # [-2, -2] has the element count of [2, 2]: refused anyway.
        with pytest.raises(fuser.FuserValueError, match=r"reshape: shape\[0\] is -2: extents must be non-negative"):
            fd.ops.reshape(x, [-2, -2])
        with pytest.raises(fuser.FuserTypeError, match=r"reshape: shape\[1\] must be an integer"):
            fd.ops.reshape(x, [4, 1.5])
        with pytest.raises(fuser.FuserValueError):
            fd.ops.broadcast(x, [(0, 2, 3)])
        # The refused calls are not kept.
        fd.add_output(fd.ops.reshape(x, [4]))
    (y,) = fd.execute([np.arange(4.0).reshape(2, 2)])
    np.testing.assert_array_equal(y, np.arange(4.0))


def test_an_input_refused_for_its_sharding_points_at_its_define_tensor_line():
    with fuser.FusionDefinition(mesh=fuser.Mesh([0, 1, 2, 3])) as fd:
        line = here() + 2
        with pytest.raises(fuser.FuserError) as info:
            fd.define_tensor([6, 4], "f32", splits=[DIDx, []])
        e = info.value
        assert (e.file, e.line, e.column) == (__file__, line, 13), str(e)
        assert "axis 0 of extent 6 is not divisible by 4" in e.message
        xline = here() + 1
        x = fd.define_tensor([8, 4], "f32", splits=[DIDx, []])
        fd.add_output(fd.ops.neg(x))
    # Every argument carries its define_tensor line (MLIR's `%arg0: type loc(...)`).
    text = fd.mlir(debug_info=True)
    assert f'%arg0: tensor<8x4xf32, #fusion.shard<@tp, [[DIDx], []]>> loc("{__file__}":{xline}:13)' in text, text
    assert f'loc("{__file__}":{xline}:13)) -> (!host.buf<2x4xf32>' in fd.lower().print(debug_info=True)
    # A run given an input of the wrong shape names the input and its define_tensor line.
    with pytest.raises(fuser.FuserError) as info:
        fd.execute([np.zeros((4, 4))])
    assert (info.value.line, info.value.column) == (xline, 13), str(info.value)
    assert info.value.message == "input #0: shape [4, 4] given, the function takes [8, 4]"


def test_argument_errors_are_fuser_errors_and_builtin_errors():
    for cls, builtin in [
        (fuser.FuserValueError, ValueError),
        (fuser.FuserTypeError, TypeError),
        (fuser.FuserOverflowError, OverflowError),
    ]:
        assert issubclass(cls, fuser.FuserError) and issubclass(cls, builtin)
    with fuser.FusionDefinition(mesh=fuser.Mesh([0, 1])) as fd:
        line = here() + 2
        with pytest.raises(fuser.FuserValueError) as info:
            fd.define_tensor([4], "complex64")
        assert (info.value.line, info.value.diagnostics[0].severity) == (line, "error")
        assert "unknown element type 'complex64'" in info.value.message
        with pytest.raises(fuser.FuserTypeError):
            fd.define_tensor([4], "f32", splits=[["DIDx"]])
        with pytest.raises(fuser.FuserTypeError):
            fd.define_tensor(4)
        with pytest.raises(fuser.FuserOverflowError):
            fd.define_tensor([2**70])
        x = fd.define_tensor([4], splits=[DIDx])
        with pytest.raises(fuser.FuserTypeError, match="unexpected keyword"):
            fd.ops.neg(x, split=[DIDx])
        with pytest.raises(fuser.FuserTypeError, match="expected a fuser Tensor"):
            fd.ops.neg(np.zeros(4))
        with pytest.raises(fuser.FuserTypeError, match="expected a fuser Tensor"):
            fd.ops.add(x, 1.0)
        with pytest.raises(fuser.FuserOverflowError):
            fd.ops.sum(x, [2**70])
        with pytest.raises(fuser.FuserError):
            fd.ops.sum(x, [5])
        with pytest.raises(fuser.FuserValueError):
            fd.ops.cast(x, "complex64")
        fd.add_output(x)
    with fuser.FusionDefinition() as other:
        y = other.define_tensor([2])
    with pytest.raises(fuser.FuserValueError, match="another FusionDefinition"):
        fd.ops.neg(y)
    with pytest.raises(fuser.FuserValueError, match="Stream"):
        fuser.Stream(0)
    with pytest.raises(fuser.FuserTypeError):
        fuser.Stream("two")
    with pytest.raises(fuser.FuserValueError):
        fuser.Mesh(3)
    with pytest.raises(fuser.FuserValueError):
        fuser.Mesh([0, -1])
    with pytest.raises(fuser.FuserTypeError):
        fuser.FusionDefinition(mesh=[0, 1])
    with pytest.raises(fuser.FuserValueError):
        fd.execute([np.zeros(4)], backend="tpu")
    with pytest.raises(fuser.FuserTypeError):
        fuser.execute("not a module", [])
    # Still the built-in classes for callers that catch those.
    with pytest.raises(ValueError):
        fuser.dtype_name("complex64")


def test_i1_inputs_and_outputs_run_as_numpy_bool():
    with fuser.FusionDefinition() as fd:
        b = fd.define_tensor([4], "i1")
        fd.add_output(b)
    assert b.dtype == "i1" and "tensor<4xi1>" in fd.mlir()
    (out,) = fd.execute([np.array([True, False, True, True])], check=True)
    assert out.dtype == np.bool_ and out.tolist() == [True, False, True, True]
    # Any number is a boolean as `x != 0`.
    (out,) = fd.execute([np.array([0.0, 2.0, -0.0, 0.5])])
    assert out.tolist() == [False, True, False, True]
