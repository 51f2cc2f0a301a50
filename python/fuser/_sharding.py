"""Meshes and shardings: how a tensor is laid out over devices and streams.

This is `#fusion.shard<@mesh, [[splits of axis 0], [splits of axis 1], ...], partial = [...]>`
in Python: per tensor axis an ordered list of outer splits, each `DIDx`/`DIDy`/`DIDz` (over a
mesh axis: each device holds the chunk at its coordinate) or `Stream(n)` (n chunks computed
one per iteration of a host loop); and the device axes over which the value is a pending
reduction (`partial`, reduced with `reduce`).
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Union

import numpy as np

from ._errors import arguments


class DeviceAxis:
    """A mesh axis as a split: `DIDx` (the last mesh axis), `DIDy`, `DIDz`."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DeviceAxis) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)


DIDx = DeviceAxis("DIDx")
DIDy = DeviceAxis("DIDy")
DIDz = DeviceAxis("DIDz")


class Stream:
    """`Stream(n)`: an axis cut in `n` chunks, one per iteration of a host loop."""

    __slots__ = ("chunks",)

    def __init__(self, chunks: int) -> None:
        with arguments():
            if isinstance(chunks, bool) or not hasattr(chunks, "__index__"):
                raise TypeError(f"Stream(n): n must be an integer, not {chunks!r}")
            self.chunks = int(chunks.__index__())
            if self.chunks < 1:
                raise ValueError(f"Stream(n): n is the number of chunks, at least 1, got {self.chunks}")

    def __repr__(self) -> str:
        return f"Stream({self.chunks})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Stream) and other.chunks == self.chunks

    def __hash__(self) -> int:
        return hash(("Stream", self.chunks))


Split = Union[DeviceAxis, Stream]
SplitsLike = Sequence[Union[Split, Sequence[Split], None]]


class Mesh:
    """A device mesh: `Mesh([0, 1, 2, 3])` (1-D) or `Mesh([[0, 1], [2, 3]])` (2-D; the last
    axis is `DIDx`). `name` is the `fusion.mesh` symbol."""

    def __init__(self, devices: Any, name: str = "tp") -> None:
        with arguments():
            if not isinstance(name, str):
                raise TypeError(f"Mesh: name must be a str, not {type(name).__name__}")
            try:
                array = np.asarray(devices, dtype=np.int64)
            except (TypeError, ValueError, OverflowError) as e:
                raise type(e)(f"Mesh: devices must be a (nested) list of device ids: {e}") from None
            if array.ndim == 0:
                raise ValueError("a mesh needs a list of device ids")
            if array.size == 0:
                raise ValueError("a mesh needs at least one device")
            if (array < 0).any():
                raise ValueError(f"Mesh: device ids must be non-negative, got {array.reshape(-1).tolist()}")
        self.name = name
        self.shape: List[int] = [int(d) for d in array.shape]
        self.devices: List[int] = [int(d) for d in array.reshape(-1)]

    @property
    def size(self) -> int:
        """The number of devices."""
        return len(self.devices)

    def __repr__(self) -> str:
        return f"Mesh({self.devices}, shape={self.shape}, name={self.name!r})"


class Sharding:
    """A tensor's layout: `splits` per axis, `partial` device axes, `reduce` kind."""

    __slots__ = ("axes", "partial_axes", "reduce")

    def __init__(self, splits: SplitsLike, partial: Sequence[DeviceAxis] = (), reduce: str = "sum") -> None:
        self.axes: List[List[Split]] = [_split_list(a) for a in splits]
        self.partial_axes: List[DeviceAxis] = list(partial)
        self.reduce = reduce

    @staticmethod
    def replicated(rank: int) -> "Sharding":
        """No splits, no pending reduction."""
        return Sharding([[] for _ in range(rank)])

    # The attributes the native `Program` reads (see python/src/program.rs, ShardSpec).
    @property
    def splits(self) -> List[List[Union[str, int]]]:
        return [[s.name if isinstance(s, DeviceAxis) else s.chunks for s in axis] for axis in self.axes]

    @property
    def partial(self) -> List[str]:
        return [d.name for d in self.partial_axes]

    def __repr__(self) -> str:
        text = f"Sharding({self.axes}"
        if self.partial_axes:
            text += f", partial={self.partial_axes}, reduce={self.reduce!r}"
        return text + ")"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Sharding)
            and other.axes == self.axes
            and other.partial_axes == self.partial_axes
            and other.reduce == self.reduce
        )


def _split_list(axis: Union[Split, Sequence[Split], None]) -> List[Split]:
    if axis is None:
        return []
    if isinstance(axis, (DeviceAxis, Stream)):
        return [axis]
    out = list(axis)
    for s in out:
        if not isinstance(s, (DeviceAxis, Stream)):
            raise TypeError(f"a split is fuser.DIDx, DIDy, DIDz or fuser.Stream(n), not {s!r}")
    return out


def make_sharding(
    splits: Optional[SplitsLike], partial: Optional[Sequence[DeviceAxis]], reduce: str, rank: int
) -> Optional[Sharding]:
    """The sharding the keyword arguments of an op or input describe for a tensor of rank
    `rank`, `None` when they say nothing (the caller's default applies)."""
    if splits is None and not partial:
        return None
    axes = splits if splits is not None else [[] for _ in range(rank)]
    return Sharding(axes, partial or (), reduce)
