"""Element types: fuser's names (`f32`, `bf16`, ...) and their NumPy counterparts.

A dtype may be given as fuser's name, a NumPy dtype or scalar type, or a torch dtype (by its
name, so torch is never imported here). NumPy has no bfloat16: bf16 outputs come back as
float32 arrays (every bf16 value is exactly a float32 value).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._errors import arguments

_ALIASES = {
    "f64": "f64", "float64": "f64", "double": "f64",
    "f32": "f32", "float32": "f32", "float": "f32",
    "f16": "f16", "float16": "f16", "half": "f16",
    "bf16": "bf16", "bfloat16": "bf16",
    "i64": "i64", "int64": "i64", "long": "i64",
    "i32": "i32", "int32": "i32", "int": "i32",
    "i16": "i16", "int16": "i16", "short": "i16",
    "i8": "i8", "int8": "i8",
    "i1": "i1", "bool": "i1",
}

_NUMPY = {
    "f64": np.float64, "f32": np.float32, "f16": np.float16, "bf16": np.float32,
    "i64": np.int64, "i32": np.int32, "i16": np.int16, "i8": np.int8, "i1": np.bool_,
}


def dtype_name(dtype: Any) -> str:
    """fuser's name of `dtype` (a name, a NumPy dtype or type, or a torch dtype)."""
    if isinstance(dtype, str):
        key = dtype
    else:
        text = str(dtype)
        if text.startswith("torch."):
            key = text[len("torch."):]
        else:
            try:
                key = np.dtype(dtype).name
            except TypeError:
                key = text
    if key not in _ALIASES:
        with arguments():
            raise ValueError(f"unknown element type {dtype!r} (f64, f32, f16, bf16, i64, i32, i16, i8, i1)")
    return _ALIASES[key]


def numpy_dtype(name: str) -> Any:
    """The NumPy dtype outputs of element type `name` come back as."""
    return _NUMPY[name]
