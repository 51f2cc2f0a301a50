"""Shared helpers of the pytest suite: the repository's example programs and bf16 rounding."""

from __future__ import annotations

import os

import numpy as np
import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def example(name: str) -> str:
    """The text of examples/NAME."""
    with open(os.path.join(ROOT, "examples", name), encoding="utf-8") as f:
        return f.read()


def bf16(a: np.ndarray) -> np.ndarray:
    """`a` rounded to bfloat16 (round to nearest even), as float64."""
    bits = np.asarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
    return rounded.astype(np.uint32).view(np.float32).astype(np.float64)


def rel_err(got: np.ndarray, want: np.ndarray) -> float:
    """max |got - want| / max |want| (fuser-run --check's measure)."""
    return float(np.max(np.abs(got - want)) / max(np.max(np.abs(want)), 1e-30))


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(1234)
