"""Where the user's code is: the Python file, line and column that called into fuser.

Every op of a `FusionDefinition` carries the location of the call that made it, so the
compiler's diagnostics (and run errors) point at the Python line. The frame is the first one
outside this package (and contextlib); the column comes from the bytecode positions (Python >= 3.11), else 1.
"""

from __future__ import annotations

import contextlib
import linecache
import os
import sys
from typing import Tuple

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))

Loc = Tuple[str, int, int]


# contextlib's frames stand between `_errors.arguments` and its caller.
_SKIPPED_FILES = {os.path.abspath(contextlib.__file__)}


def _in_package(filename: str) -> bool:
    path = os.path.abspath(filename)
    return os.path.dirname(path) == _PACKAGE_DIR or path in _SKIPPED_FILES


def caller_location() -> Loc:
    """The (file, line, column) of the innermost caller outside the fuser package."""
    frame = sys._getframe(1)
    while frame is not None and _in_package(frame.f_code.co_filename):
        frame = frame.f_back
    if frame is None:
        return ("<unknown>", 0, 0)
    line = frame.f_lineno or 0
    column = 1
    positions = getattr(frame.f_code, "co_positions", None)
    if positions is not None:
        try:
            start_line, _, start_col, _ = list(positions())[frame.f_lasti // 2]
            if start_line == line and start_col is not None:
                column = start_col + 1
        except (IndexError, ValueError):
            pass
    return (frame.f_code.co_filename, line, column)


def source_text(filename: str) -> str:
    """The text of a source file as Python's `linecache` sees it ('' when unknown)."""
    return "".join(linecache.getlines(filename))
