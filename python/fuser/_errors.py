"""Bad arguments as `FuserError`s: Python's own `ValueError`, `TypeError` and `OverflowError`
raised while the package reads a caller's arguments become `FuserValueError`,
`FuserTypeError` and `FuserOverflowError`, subclasses of both `FuserError` and the built-in
class (so `except fuser.FuserError` and `except ValueError` both catch them), with a
diagnostic at the caller's Python line like every other `FuserError`.
"""

from __future__ import annotations

import contextlib
from typing import Iterator, Optional

from . import _fuser
from ._location import Loc, caller_location, source_text

FuserValueError = _fuser.FuserValueError
FuserTypeError = _fuser.FuserTypeError
FuserOverflowError = _fuser.FuserOverflowError


def argument_error(exc: BaseException, loc: Optional[Loc] = None) -> BaseException:
    """The `FuserError` subclass instance for `exc` (a ValueError, TypeError or
    OverflowError) at `loc` (default: the caller outside the package)."""
    if isinstance(exc, OverflowError):
        kind = "overflow"
    elif isinstance(exc, TypeError):
        kind = "type"
    else:
        kind = "value"
    loc = loc if loc is not None else caller_location()
    text = source_text(loc[0])
    return _fuser.argument_error(kind, str(exc), loc, [(loc[0], text)] if text else [])


@contextlib.contextmanager
def arguments(loc: Optional[Loc] = None) -> Iterator[None]:
    """Turns the ValueError, TypeError and OverflowError raised inside into their
    `FuserError` subclasses at `loc` (default: the caller outside the package);
    `FuserError`s pass unchanged."""
    if loc is None:
        loc = caller_location()
    try:
        yield
    except _fuser.FuserError:
        raise
    except (OverflowError, TypeError, ValueError) as e:
        raise argument_error(e, loc) from None
